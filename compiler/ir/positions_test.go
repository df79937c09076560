package ir

import (
	"strings"
	"testing"
)

// Positions locate verifier problems at the instruction, block, function
// or global they concern, with the text's line and column.
func TestPositionsLocateProblems(t *testing.T) {
	src := "@g = global private u32\n\ndefine void @f() {\nentry:\n  %x = add u32 1, 2\n  ret\n}\n"
	m, ps, err := ParseModuleWithPositions("m.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Func("f")
	x := f.Blocks[0].Instrs[0]
	cases := []struct {
		p    Problem
		want string // "line:col"
	}{
		{Problem{Func: "f", Block: "entry", Instr: x, Msg: "m"}, "5:3"},
		{Problem{Func: "f", Block: "entry", Msg: "m"}, "4:1"},
		{Problem{Func: "f", Msg: "m"}, "3:13"},
		{Problem{Global: m.Globals[0], Msg: "m"}, "1:1"},
	}
	for _, c := range cases {
		pe := ps.Problem(m, c.p)
		if pe == nil {
			t.Errorf("%v: not located", c.p)
			continue
		}
		if got := strings.SplitN(pe.Error(), ": ", 2)[0]; got != "m.pir:"+c.want {
			t.Errorf("%v: at %s, want m.pir:%s", c.p, got, c.want)
		}
	}
	// An instruction a pass creates has no position.
	if pe := ps.Problem(m, Problem{Instr: &Instr{}, Msg: "m"}); pe != nil {
		t.Errorf("new instruction located at %v", pe)
	}
	// The verifier fills in the instruction.
	x.Args[0] = nil
	err = Verify(m)
	ve, ok := err.(*VerifyError)
	if !ok || ve.Problems[0].Instr != x {
		t.Fatalf("verify: %v", err)
	}
	if pe := ps.Problem(m, ve.Problems[0]); pe == nil || pe.Line != 5 || !strings.Contains(pe.Error(), "\n  %x = add u32 1, 2\n  ^") {
		t.Errorf("verifier problem rendered as %v", pe)
	}
}
