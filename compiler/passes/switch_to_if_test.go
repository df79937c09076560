package passes

import (
	"testing"
)

func TestSwitchToIfSeedScratch(t *testing.T) {
	m := loadCF(t, "seed")
	out, changed := applyPass(t, SwitchToIf, m, "")
	if !changed {
		t.Fatal("no change")
	}
	t.Log(funcText(t, out, "main"))
	data := []int32{0, 0, 1, 2, 3, 4, 4, 5, -1, 7, 2, 3, 0, 4, 1, 9}
	sameRun(t, m, out, cfInput(m, data))
	r := runCF(t, m, cfInput(m, data), 0)
	t.Log(outI32(t, r, "Out", 16))
}
