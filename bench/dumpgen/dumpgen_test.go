package dumpgen

import (
	"bytes"
	"testing"

	"passlens/compiler/llvm"
	"passlens/compiler/passdump"
)

// TestGeneratedLogLoads: the generator's log indexes into the steps it
// wrote, one in five function dumps changes its function, and every step is
// LLVM IR that the importer reads.
func TestGeneratedLogLoads(t *testing.T) {
	o := Options{Size: 1, Funcs: 3, FuncPass: 10, LoopPass: 2, ModPasses: 2}
	var buf bytes.Buffer
	if err := Write(&buf, o); err != nil {
		t.Fatal(err)
	}
	l, err := passdump.Parse("gen.log", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if want := o.ModPasses + o.Funcs*(o.FuncPass+o.LoopPass); len(l.Steps) != want {
		t.Fatalf("%d steps, want %d", len(l.Steps), want)
	}
	changed := 0
	for i, s := range l.Steps {
		if s.Status == passdump.Changed && s.Scope != "[module]" && s.Pass != "LoopRotatePass" && s.Pass != "LoopInstSimplifyPass" {
			changed++
		}
		text, _, err := l.Text(i)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := llvm.Import("gen.ll", []byte(text)); err != nil {
			t.Fatalf("step %d (%s on %s) does not import: %v", i, s.Pass, s.Scope, err)
		}
	}
	if want := o.Funcs * o.FuncPass / 5; changed != want {
		t.Errorf("%d changed function steps, want %d", changed, want)
	}
}
