package ir
import "testing"
func TestCnt(t *testing.T){ m,txt:=bigModule(t); n:=0; nb:=0; for _,f:=range m.Funcs{n+=f.NumInstrs(); nb+=len(f.Blocks)}; t.Log(n, nb, len(txt)) }
