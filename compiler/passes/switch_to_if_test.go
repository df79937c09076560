package passes

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/passes/passtest"
	"passlens/internal/golden"
)

// seedData drives the seed example through every case: selectors 0..4,
// 1 and 3 (grouped), default values, case 4 with cond (odd thread) true
// and false.
var seedData = []int32{0, 0, 1, 2, 3, 4, 4, 5, -1, 7, 2, 3, 0, 4, 1, 9}

// TestSwitchToIfSeedExample checks the worked example of
// switch-to-if-lowering.md: the predicates are exactly the seed's
// (isDefault with | not &&, cumulative reachesX), computed once at the top
// of the do{}while(false) loop, one if per case group, each with its own
// merge, and a continue block branching on false.
func TestSwitchToIfSeedExample(t *testing.T) {
	t.Parallel()
	m := cfLoad(t, "seed")
	out, changed := cfApply(t, SwitchToIf, m, "")
	if !changed {
		t.Fatal("switch-to-if did not change the seed example")
	}
	const want = `define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %sel = load ptr<storage, i32> %in.p
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  %odd = and u32 %i, 1
  %cond = icmp eq u32 %odd, 1
  br %switch.loop
switch.loop:
  %isCase0 = icmp eq i32 %sel, 0
  %isCase4 = icmp eq i32 %sel, 4
  %isCase1 = icmp eq i32 %sel, 1
  %isCase3 = icmp eq i32 %sel, 3
  %isCase1or3 = or bool %isCase1, %isCase3
  %isCase2 = icmp eq i32 %sel, 2
  %casesAfterDefault = or bool %isCase1or3, %isCase2
  %isDefault = not bool %casesAfterDefault
  %reachesDefault = or bool %isCase4, %isDefault
  %reachesCase1or3 = or bool %reachesDefault, %isCase1or3
  loop_merge %merge, %switch.cont
  br %switch.body
switch.body:
  selection_merge %case0.after
  condbr bool %isCase0, %case0, %case0.after
case0:
  store i32 1, ptr<storage, i32> %out.p
  br %merge
case0.after:
  selection_merge %case4.after
  condbr bool %isCase4, %case4, %case4.after
case4:
  selection_merge %case4.cont
  condbr bool %cond, %case4.break, %case4.cont
case4.break:
  br %merge
case4.cont:
  br %case4.after
case4.after:
  selection_merge %default.after
  condbr bool %reachesDefault, %default, %default.after
default:
  %d.old = load ptr<storage, i32> %out.p
  %d.shift = mul i32 %d.old, 10
  %d.new = add i32 %d.shift, 3
  store i32 %d.new, ptr<storage, i32> %out.p
  br %default.after
default.after:
  selection_merge %case1or3.after
  condbr bool %reachesCase1or3, %case1or3, %case1or3.after
case1or3:
  %e.old = load ptr<storage, i32> %out.p
  %e.shift = mul i32 %e.old, 10
  %e.new = add i32 %e.shift, 4
  store i32 %e.new, ptr<storage, i32> %out.p
  br %merge
case1or3.after:
  selection_merge %case2.after
  condbr bool %isCase2, %case2, %case2.after
case2:
  store i32 5, ptr<storage, i32> %out.p
  br %merge
case2.after:
  br %switch.cont
switch.cont:
  condbr bool false, %switch.loop, %merge
merge:
  ret
}
`
	if got := cfFuncText(t, out, "main"); got != want {
		t.Fatalf("seed example lowered differently:\n%s\ngot:\n%s", golden.DiffLines(want, got), got)
	}
	// The seed's semantics, lane by lane: case 0 -> first (1); case 4
	// breaks when cond (odd lane) holds, else falls into default (3) and
	// case 1/3 (4); default -> 3 then 4; case 1, 3 -> 4; case 2 -> 5.
	in := cfInput(m, seedData)
	r := cfRun(t, out, in, interp.PolicyMaximal)
	wantOut := []int32{1, 1, 4, 5, 4, 0, 34, 34, 34, 34, 5, 4, 1, 0, 4, 34}
	if got := cfOutI32(t, r, "Out", 16); !slices.Equal(got, wantOut) {
		t.Errorf("Out = %v, want %v", got, wantOut)
	}
	cfSameRun(t, m, out, in)
}

// TestSwitchToIfLeavesPlainSwitches: without <all>, a switch whose cases
// never fall through is not lowered.
func TestSwitchToIfLeavesPlainSwitches(t *testing.T) {
	t.Parallel()
	m := cfLoad(t, "sw_plain")
	out, changed := cfApply(t, SwitchToIf, m, "")
	if changed || out.String() != m.String() {
		t.Fatalf("switch-to-if changed a switch without fallthrough:\n%s", out)
	}
}

func TestSwitchToIfBadOption(t *testing.T) {
	t.Parallel()
	m := cfLoad(t, "sw_plain")
	_, err := SwitchToIf.Run(m, &Context{Options: map[string]string{"switch-to-if": "some"}})
	if err == nil || !strings.Contains(err.Error(), `unknown option "some"`) {
		t.Fatalf("err = %v", err)
	}
}

// TestSwitchToIfReconvergence shows the hazard the pass exists for: under
// the switch-separate policy (lanes that entered different labels stay
// apart, as SPIR-V allows) the wave ops of the original switch see other
// lane sets than HLSL promises; after lowering, every lane walks the same
// if-chain and both policies give HLSL's answer [42 42 40 40].
func TestSwitchToIfReconvergence(t *testing.T) {
	t.Parallel()
	m := cfLoad(t, "sw_wave")
	in := cfInput(m, []int32{0, 0, 1, 2})
	hlsl := []int32{42, 42, 40, 40}
	if got := cfOutI32(t, cfRun(t, m, in, interp.PolicyMaximal), "Out", 4); !slices.Equal(got, hlsl) {
		t.Fatalf("original under maximal reconvergence: %v, want %v", got, hlsl)
	}
	if got := cfOutI32(t, cfRun(t, m, in, interp.PolicySwitchSeparate), "Out", 4); slices.Equal(got, hlsl) {
		t.Fatalf("original under switch-separate gives HLSL's answer %v: the hazard test shows nothing", got)
	}
	out, _ := cfApply(t, SwitchToIf, m, "")
	for _, pol := range interp.Policies() {
		if got := cfOutI32(t, cfRun(t, out, in, pol), "Out", 4); !slices.Equal(got, hlsl) {
			t.Errorf("lowered under %s: %v, want %v", pol, got, hlsl)
		}
	}
}

// TestSwitchToIfRandom lowers random switches - grouped labels, default
// anywhere or absent, bodies that break, fall through, break
// conditionally, or continue the enclosing loop, values carried in phis -
// then removes the multi-level exits, goes out of SSA and checks at each
// step that the program verifies and computes the same results; the
// result must be structured (structurize leaves it alone).
func TestSwitchToIfRandom(t *testing.T) {
	t.Parallel()
	n := 300
	if testing.Short() {
		n = 60
	}
	for seed := 0; seed < n; seed++ {
		m := passtest.RandomSwitchModule(uint64(seed))
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			if err := ir.Verify(m); err != nil {
				t.Fatalf("generator made an invalid module: %v\n%s", err, m)
			}
			in := cfInput(m, cfData)
			cur := m
			for _, step := range []struct {
				p   *Pass
				opt string
			}{{SwitchToIf, "all"}, {EliminateMultilevelBreak, ""}, {OutOfSSA, ""}, {Structurize, ""}} {
				var changed bool
				cur, changed = cfApply(t, step.p, cur, step.opt)
				if step.p == Structurize && changed {
					t.Fatalf("structurize changed structured code:\n%s", cur)
				}
				cfSameRun(t, m, cur, in)
			}
			for _, b := range cur.Func("main").Blocks {
				if tt := b.Terminator(); tt != nil && tt.Op == ir.OpSwitch {
					t.Fatalf("switch-to-if<all> left a switch in %s", b.Ref())
				}
			}
		})
	}
}

// swPointerSrc is the reproducer of "SPIR-V logical addressing cannot
// merge pointers", reduced: every case of the first switch falls into
// default, whose access chains (one built on the other, on an index from a
// label phi) are used after the switch. Lowered, the merge is also reached
// from the loop's continue block, where no body ran; routing the pointer
// through a phi (undef on that edge) is what the back end rejects. The
// second switch, lowered in the same round, selects on a body value of the
// first and carries another in a label phi, and its bodies use the pointer.
const swPointerSrc = `module "sw_pointer.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %sel = load ptr<storage, i32> %in.p
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  %arr = alloca [2 x [4 x i32]]
  store [2 x [4 x i32]] [[1, 2, 3, 4], [5, 6, 7, 8]], ptr<function, [2 x [4 x i32]]> %arr
  selection_merge %end
  switch i32 %sel [case 0: %case0] [case 1: %case1] [default: %default]
case0:
  %h0 = add i32 %sel, 5
  br %case1
case1:
  %h1 = phi i32 [%sel, %entry], [%h0, %case0]
  %h1x = mul i32 %h1, 3
  br %default
default:
  %h2 = phi i32 [%sel, %entry], [%h1x, %case1]
  %row = and i32 %h2, 1
  %col = and i32 %h2, 3
  %q = access ptr<function, [2 x [4 x i32]]> %arr, i32 %row
  %p = access ptr<function, [4 x i32]> %q, i32 %col
  %old = load ptr<function, i32> %p
  %new = add i32 %old, %h2
  store i32 %new, ptr<function, i32> %p
  br %end
end:
  %again = load ptr<function, i32> %p
  %sel2 = and i32 %h2, 3
  selection_merge %end2
  switch i32 %sel2 [case 0: %c20] [case 1: %c21] [default: %end2]
c20:
  %v0 = load ptr<function, i32> %p
  %v0x = add i32 %v0, 7
  br %c21
c21:
  %w = phi i32 [%new, %end], [%v0x, %c20]
  %w2 = mul i32 %w, 2
  store i32 %w2, ptr<function, i32> %p
  br %end2
end2:
  %last = load ptr<function, i32> %p
  %r = mul i32 %again, 1000
  %r2 = add i32 %r, %last
  store i32 %r2, ptr<storage, i32> %out.p
  ret
}
`

// TestSwitchToIfNoPointerPhis: a pointer defined in a case body and used
// outside the switch is recomputed where it is used, never merged by a
// phi, and the program computes what it did.
func TestSwitchToIfNoPointerPhis(t *testing.T) {
	t.Parallel()
	m := cfParse(t, "sw_pointer.pir", swPointerSrc)
	in := cfInput(m, []int32{0, 1, 2, 3, 4, 5, 6, 7, -1, -2, 0, 1, 9, 10, 11, 12})
	out, changed := cfApply(t, SwitchToIf, m, "all")
	if !changed {
		t.Fatal("switch-to-if<all> did not lower the switches")
	}
	for _, b := range out.Func("main").Blocks {
		if tt := b.Terminator(); tt != nil && tt.Op == ir.OpSwitch {
			t.Errorf("switch left in %s", b.Ref())
		}
		for _, phi := range b.Phis() {
			if phi.Type().Kind == ir.KPointer {
				t.Errorf("pointer phi %s in %s", phi.Ref(), b.Ref())
			}
		}
	}
	cfSameRun(t, m, out, in)
	// The rest of the SPIR-V pipeline's control-flow work keeps it so.
	cur := out
	for _, p := range []*Pass{EliminateMultilevelBreak, OutOfSSA} {
		cur, _ = cfApply(t, p, cur, "")
		cfSameRun(t, m, cur, in)
	}
}
