package ir

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// FuzzParse checks that no input makes the parser, the verifier, the
// cloner or the printer panic, that errors are *ParseError values with a
// position inside the input, and that whatever parses prints to text that
// parses back to the same text (with and without source locations). The
// seed corpus is testdata/fuzz/FuzzParse plus the files added here; it runs
// as an ordinary test.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"roundtrip/kitchen.pir", "comments.pir"} {
		f.Add(readTestdata(f, name))
	}
	f.Add([]byte(RandomModule(1, RandomOptions{Blocks: 2, Instrs: 3, Funcs: 1}).String()))
	f.Fuzz(func(t *testing.T, src []byte) {
		// Run the check with a deadline so a hang is reported (and its
		// input saved) instead of stalling the fuzzer.
		done := make(chan string, 1)
		go func() { done <- checkParse(src) }()
		select {
		case msg := <-done:
			if msg != "" {
				t.Fatal(msg)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer after 20s on input %q", src)
		}
	})
}

// checkParse is FuzzParse's property; it returns "" or what went wrong.
func checkParse(src []byte) string {
	m, err := ParseModule("fuzz.pir", src)
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			return fmt.Sprintf("error is %T, not *ParseError: %v", err, err)
		}
		if pe.Line < 1 || pe.Col < 1 || pe.Line > strings.Count(string(src), "\n")+1 {
			return fmt.Sprintf("error position %d:%d outside the input: %v", pe.Line, pe.Col, err)
		}
		_ = pe.Error()
		return ""
	}
	_ = Verify(m)
	c := CloneModule(m)
	out := m.String()
	if c.String() != out {
		return "clone prints differently"
	}
	m2, err := ParseModule("printed.pir", []byte(out))
	if err != nil {
		return fmt.Sprintf("printed module does not parse: %v\n%s", err, out)
	}
	if out2 := m2.String(); out2 != out {
		return fmt.Sprintf("print/parse/print is not the identity:\n%s\n---\n%s", out, out2)
	}
	var sb strings.Builder
	p := NewPrinter(&sb)
	p.Locs = true
	p.Module(m)
	m3, err := ParseModule("locs.pir", []byte(sb.String()))
	if err != nil {
		return fmt.Sprintf("printed module with locations does not parse: %v\n%s", err, sb.String())
	}
	var sb2 strings.Builder
	p2 := NewPrinter(&sb2)
	p2.Locs = true
	p2.Module(m3)
	if sb2.String() != sb.String() {
		return "print/parse/print with locations is not the identity"
	}
	return ""
}

// FuzzVerifyMutations breaks a random module in memory in ways the text
// format cannot express (nil fields, values and blocks from elsewhere,
// wrong types and opcodes, removed instructions) and checks that Verify
// and CloneModule never panic.
func FuzzVerifyMutations(f *testing.F) {
	f.Add(int64(1), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add(int64(2), []byte{200, 17, 33, 5, 99, 250, 3})
	f.Add(int64(3), []byte("mutate everything, twice"))
	f.Fuzz(func(t *testing.T, seed int64, ops []byte) {
		m := RandomModule(seed%64, RandomOptions{Funcs: 1, Blocks: 3, Instrs: 4, Unstructured: seed%2 == 0})
		var instrs []*Instr
		var blocks []*Block
		for _, fn := range m.Funcs {
			for _, b := range fn.Blocks {
				blocks = append(blocks, b)
				instrs = append(instrs, b.Instrs...)
			}
		}
		types := []*Type{nil, Void, Bool, I32, F32, Vec(F32, 4), Ptr(SpaceFunction, I32), Array(F32, -1), {Kind: KVector}}
		pick := func(i int, n int) int { return int(ops[i%len(ops)]) % n }
		for i := 0; i+2 < len(ops) && len(instrs) > 0; i += 3 {
			in := instrs[pick(i+1, len(instrs))]
			other := instrs[pick(i+2, len(instrs))]
			b := blocks[pick(i+2, len(blocks))]
			switch ops[i] % 16 {
			case 0:
				if len(in.Args) > 0 {
					in.Args[pick(i+2, len(in.Args))] = nil
				}
			case 1:
				if len(in.Args) > 0 {
					in.Args[0] = other
				}
			case 2:
				other.Remove()
			case 3:
				in.Op = Op(pick(i+2, int(numOps)+2))
			case 4:
				in.SetType(types[pick(i+2, len(types))])
			case 5:
				in.Succs = append(in.Succs, b, nil)
			case 6:
				in.SetLoopMerge(b, nil)
			case 7:
				in.PhiBlocks = append(in.PhiBlocks, b)
			case 8:
				in.Idx = append(in.Idx, -1, 1<<30)
			case 9:
				in.Pred, in.Atomic = CmpPred(ops[(i+2)%len(ops)]), AtomicKind(ops[(i+2)%len(ops)])
			case 10:
				in.Callee, in.Intr = nil, nil
			case 11:
				b.Instrs = append(b.Instrs, nil)
			case 12:
				if fn := b.Func; fn != nil && len(fn.Blocks) > 0 {
					fn.Blocks = append(fn.Blocks[:0:0], fn.Blocks[1:]...)
				}
			case 13:
				in.Cases = append(in.Cases, SwitchCase{Values: []int64{1, 1}, Target: b}, SwitchCase{})
			case 14:
				in.Args = append(in.Args, ConstAggregate(Vec(I32, 2), []*Const{nil}), &Const{})
			case 15:
				in.Block = nil
				b.Func = nil
			}
		}
		_ = Verify(m)
		for _, fn := range m.Funcs {
			_ = VerifyFunction(fn)
		}
		_ = CloneModule(m)
	})
}
