package llx
import ("testing";"os";"os/exec";"passlens/compiler/ir";"passlens/compiler/llvm";"fmt")
func TestX(t *testing.T){
 ok, bad := 0, 0
 for seed:=int64(0); seed<20; seed++ {
  m := ir.RandomModule(seed, ir.RandomOptions{Unstructured: true, PlainNames: true})
  s, err := llvm.Export(m)
  if err != nil { t.Logf("seed %d export: %v", seed, err); bad++; continue }
  os.WriteFile(fmt.Sprintf("/tmp/llx/m%d.ll", seed), []byte(s), 0644)
  out, err := exec.Command("opt-22", "-mtriple=amdgcn--", "-passes=verify", "-disable-output", fmt.Sprintf("/tmp/llx/m%d.ll", seed)).CombinedOutput()
  if err != nil { t.Logf("seed %d opt: %s", seed, out); bad++; continue }
  ok++
 }
 t.Log(ok, bad)
}
