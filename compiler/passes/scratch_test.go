package passes

import (
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

func stripRep(m *ir.Module) *ir.Module {
	m = ir.CloneModule(m)
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
				if in.Op == ir.OpIntrinsic && in.Intr.Name == SM3RepIntrinsic {
					in.Remove()
				}
			}
		}
	}
	return m
}

func TestScratchSM3(t *testing.T) {
	for _, n := range []string{"sm3_rep_uniform", "sm3_rep_cap"} {
		m := loadCF(t, n)
		out, _ := applyPass(t, SM3Lower, m, "")
		t.Log(funcText(t, out, "main"))
		for _, mv := range []int{3, 15, 16} {
			in := &interp.Input{Rect: &interp.Rect{Width: 1, Height: 1}, Uniforms: map[string]any{"m": mv}}
			rb := runCF(t, m, in, 0)
			ra := runCF(t, stripRep(out), in, 0)
			ok, why := rb.Equal(ra)
			t.Log(mv, ok, why)
		}
	}
	m := loadCF(t, "sm3_intops")
	out, _ := applyPass(t, SM3Lower, m, "")
	t.Log(funcText(t, out, "main"))
	data := []int32{17, 5, -17, 5, 100, -7, -100, -7, 0, 3, 1234, 13, -5, 2, 7, 7}
	sameRun(t, m, stripRep(out), cfInput(m, data))
}
