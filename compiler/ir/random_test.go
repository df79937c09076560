package ir_test

import (
	"passlens/compiler/ir"
	"passlens/compiler/ir/irtest"
	"strconv"
	"strings"
	"testing"
)

// TestCloneModule: a clone prints identically, verifies, shares no mutable
// object with the original, keeps name reservations, and is independent
// (changing one leaves the other alone).
func TestCloneModule(t *testing.T) {
	for seed := int64(0); seed < 40; seed++ {
		m := irtest.RandomModule(seed, irtest.RandomOptions{Unstructured: seed%2 == 0, Locs: true})
		before := ir.PrintLocs(m)
		c := ir.CloneModule(m)
		if got := ir.PrintLocs(c); got != before {
			t.Fatalf("seed %d: clone prints differently:\n%s", seed, ir.FirstDiff(before, got))
		}
		if err := ir.Verify(c); err != nil {
			t.Fatalf("seed %d: clone does not verify: %v", seed, err)
		}
		ir.CheckDisjoint(t, m, c)

		// Names generated later agree between original and clone.
		for i, f := range m.Funcs {
			for _, base := range []string{"", "x", "entry", "t0"} {
				if a, b := f.UniqueName(base), c.Funcs[i].UniqueName(base); a != b {
					t.Fatalf("seed %d: UniqueName(%q) = %q on the original, %q on the clone", seed, base, a, b)
				}
			}
		}

		// Mutate the clone thoroughly; the original must not change.
		for _, f := range c.Funcs {
			for _, b := range f.Blocks {
				b.SetName(b.Name() + ".c")
				for _, in := range b.Instrs {
					if in.HasResult() {
						in.SetRawName(in.Name() + ".c")
					}
					for i := range in.Args {
						in.Args[i] = ir.ConstUndef(ir.I32)
					}
					if in.Op == ir.OpPhi {
						in.AddIncoming(ir.ConstUndef(ir.I32), b)
					}
					for i := range in.Idx {
						in.Idx[i] = 99
					}
					for i := range in.Cases {
						for j := range in.Cases[i].Values {
							in.Cases[i].Values[j] = 99
						}
					}
				}
				b.Instrs = b.Instrs[:0]
			}
			for _, p := range f.Params {
				p.SetName("changed")
			}
		}
		for _, g := range c.Globals {
			g.SetName("changed")
			g.Binding = 42
		}
		if got := ir.PrintLocs(m); got != before {
			t.Fatalf("seed %d: mutating the clone changed the original:\n%s", seed, ir.FirstDiff(before, got))
		}
	}
}

func TestRoundTripRandomModules(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	for seed := int64(0); seed < int64(n); seed++ {
		opts := irtest.RandomOptions{Unstructured: seed%2 == 0, Locs: seed%3 != 0, PlainNames: seed%7 == 0}
		m := irtest.RandomModule(seed, opts)
		ir.RoundTrip(t, "random-"+strconv.Itoa(int(seed)), m)
	}
}

// TestVerifyRandomModules: generated modules are valid, and breaking one
// instruction's dominance is always caught.
func TestVerifyRandomModules(t *testing.T) {
	for seed := int64(0); seed < 100; seed++ {
		m := irtest.RandomModule(seed, irtest.RandomOptions{Unstructured: true})
		if err := ir.Verify(m); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		// Move a used instruction after its first same-block user.
		moved := false
		for _, f := range m.Funcs {
			live := reachableBlocks(f)
			for _, b := range f.Blocks {
				for i, in := range b.Instrs {
					if moved || !live[b] || !in.HasResult() || in.Op == ir.OpPhi {
						continue
					}
					for j := i + 1; j < len(b.Instrs)-1; j++ {
						u := b.Instrs[j]
						if u.Op == ir.OpPhi || !usesValue(u, in) {
							continue
						}
						copy(b.Instrs[i:], b.Instrs[i+1:j+1])
						b.Instrs[j] = in
						moved = true
						if err := ir.VerifyFunction(f); err == nil || !strings.Contains(err.Error(), "used before its definition") {
							t.Fatalf("seed %d: moving %s after its user not caught: %v", seed, in.Ref(), err)
						}
						break
					}
				}
			}
		}
	}
}

// reachableBlocks is a plain DFS from the entry (independent of the
// verifier's code).
func reachableBlocks(f *ir.Function) map[*ir.Block]bool {
	seen := map[*ir.Block]bool{}
	if len(f.Blocks) == 0 {
		return seen
	}
	stack := []*ir.Block{f.Blocks[0]}
	seen[f.Blocks[0]] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range b.Successors() {
			if !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}

func usesValue(u *ir.Instr, v ir.Value) bool {
	for _, a := range u.Args {
		if a == v {
			return true
		}
	}
	return false
}

// TestDominatorsAgainstDefinition compares the verifier's dominator tree
// with the definition: a dominates b iff b is unreachable from the entry
// once a is removed (a == b always dominates).
func TestDominatorsAgainstDefinition(t *testing.T) {
	for seed := int64(0); seed < 60; seed++ {
		m := irtest.RandomModule(seed, irtest.RandomOptions{Unstructured: true, Blocks: 10})
		for _, f := range m.Funcs {
			if f.IsDeclaration() {
				continue
			}
			v := ir.NewVerifierCFG(m, f)
			n := len(f.Blocks)
			reach := func(without int) []bool {
				seen := make([]bool, n)
				if without == 0 {
					return seen
				}
				stack := []int{0}
				seen[0] = true
				for len(stack) > 0 {
					b := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					for _, s := range f.Blocks[b].Successors() {
						si := int(v.Index(s))
						if si != without && !seen[si] {
							seen[si] = true
							stack = append(stack, si)
						}
					}
				}
				return seen
			}
			all := reach(-1)
			for a := 0; a < n; a++ {
				if v.Reachable(int32(a)) != all[a] {
					t.Fatalf("seed %d @%s: reachability of %s", seed, f.Name(), f.Blocks[a].Name())
				}
				if !all[a] {
					continue
				}
				without := reach(a)
				for b := 0; b < n; b++ {
					if !all[b] {
						continue
					}
					want := a == b || !without[b]
					if got := v.Dominates(int32(a), int32(b)); got != want {
						t.Fatalf("seed %d @%s: dominates(%s, %s) = %v, want %v", seed, f.Name(), f.Blocks[a].Name(), f.Blocks[b].Name(), got, want)
					}
				}
			}
		}
	}
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
		m := irtest.RandomModule(seed%64, irtest.RandomOptions{Funcs: 1, Blocks: 3, Instrs: 4, Unstructured: seed%2 == 0})
		var instrs []*ir.Instr
		var blocks []*ir.Block
		for _, fn := range m.Funcs {
			for _, b := range fn.Blocks {
				blocks = append(blocks, b)
				instrs = append(instrs, b.Instrs...)
			}
		}
		types := []*ir.Type{nil, ir.Void, ir.Bool, ir.I32, ir.F32, ir.Vec(ir.F32, 4), ir.Ptr(ir.SpaceFunction, ir.I32), ir.Array(ir.F32, -1), {Kind: ir.KVector}}
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
				in.Op = ir.Op(pick(i+2, int(ir.NumOps)+2))
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
				in.Pred, in.Atomic = ir.CmpPred(ops[(i+2)%len(ops)]), ir.AtomicKind(ops[(i+2)%len(ops)])
			case 10:
				in.Callee, in.Intr = nil, nil
			case 11:
				b.Instrs = append(b.Instrs, nil)
			case 12:
				if fn := b.Func; fn != nil && len(fn.Blocks) > 0 {
					fn.Blocks = append(fn.Blocks[:0:0], fn.Blocks[1:]...)
				}
			case 13:
				in.Cases = append(in.Cases, ir.SwitchCase{Values: []int64{1, 1}, Target: b}, ir.SwitchCase{})
			case 14:
				in.Args = append(in.Args, ir.ConstAggregate(ir.Vec(ir.I32, 2), []*ir.Const{nil}), &ir.Const{})
			case 15:
				in.Block = nil
				b.Func = nil
			}
		}
		_ = ir.Verify(m)
		for _, fn := range m.Funcs {
			_ = ir.VerifyFunction(fn)
		}
		_ = ir.CloneModule(m)
	})
}
