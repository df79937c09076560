package passes

import "testing"

func TestScratchOOS(t *testing.T) {
	for _, n := range []string{"swap", "lost_copy", "switch_loop_continue"} {
		m := loadCF(t, n)
		out, _ := applyPass(t, OutOfSSA, m, "")
		t.Log(funcText(t, out, "main"))
		data := []int32{0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7}
		sameRun(t, m, out, cfInput(m, data))
	}
}
