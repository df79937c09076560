package passes

import (
	"strings"
	"testing"
)

func TestSROAMemset(t *testing.T) {
	t.Parallel()
	m := caseAfter(t, "memset", "sroa,simplify")
	if !strings.Contains(m.String(), "store u32 2880154539,") {
		t.Errorf("want the fill 0xABABABAB stored directly:\n%s", m)
	}
}
