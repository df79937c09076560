package headless

import (
	"strings"
	"testing"

	"passlens/compiler/target"
)

func TestDumpStages(t *testing.T) {
	st := []target.Stage{
		{Name: "sir-lower", Text: "a\nb\n", Lang: "sir"},
		{Name: "sir-fold", Text: "a\nb\n", Lang: "sir"},
		{Name: "sir-dce", Text: "a\n", Lang: "sir"},
	}
	var sb strings.Builder
	DumpStages(&sb, st, DumpMode{Changed: true})
	want := "*** SIR Dump After sir-lower ***\na\nb\n" +
		"*** SIR Dump After sir-fold omitted because no change ***\n" +
		"*** SIR Dump After sir-dce ***\na\n"
	if sb.String() != want {
		t.Errorf("--print-changed:\n%s\nwant\n%s", sb.String(), want)
	}
	sb.Reset()
	DumpStages(&sb, st, DumpMode{After: "sir-fold"})
	if want := "*** SIR Dump After sir-fold ***\na\nb\n"; sb.String() != want {
		t.Errorf("--print-after=sir-fold:\n%s", sb.String())
	}
	sb.Reset()
	DumpStages(&sb, st, DumpMode{Diff: true})
	if !strings.Contains(sb.String(), "-b") || !strings.Contains(sb.String(), "omitted because no change") {
		t.Errorf("--print-changed=diff:\n%s", sb.String())
	}
}
