package passes

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/ir/irtest"
)

func TestStructurizeGolden(t *testing.T) {
	cases := []cfGolden{
		// An irreducible cycle (two entries): dispatched.
		{file: "irreducible", passes: "structurize"},
		// The SM3 order: phis become variables first.
		{file: "irreducible", passes: "out-of-ssa,structurize"},
		// Reducible but unannotated (LLVM style): dispatched too.
		{file: "unannotated", passes: "structurize"},
		// For SM3 (no switch instruction): a chain of ifs.
		{file: "irreducible", passes: "out-of-ssa,structurize<ifs>"},
		// Only multi-level exits: fixed in place, not dispatched.
		{file: "emb_break2", passes: "structurize", data: []int32{0, 5, 6, 7, 9, 10, 11, 14, 15, 16, 99, -3, 1, 2, 3, 12}},
	}
	cfRunGolden(t, cases)
	for _, tc := range cases {
		m := cfLoad(t, tc.file)
		for _, step := range strings.Split(tc.passes, ",") {
			name, opt, _ := strings.Cut(step, "<")
			m, _ = cfApply(t, Lookup(name), m, strings.TrimSuffix(opt, ">"))
		}
		f := m.Func("main")
		if ps := structureProblems(f); len(ps) > 0 {
			t.Errorf("%s: still unstructured: %v", tc.file, ps)
		}
		dispatched := f.Block("dispatch.loop") != nil
		if want := tc.file != "emb_break2"; dispatched != want {
			t.Errorf("%s: dispatched = %v, want %v", tc.file, dispatched, want)
		}
	}
}

// TestStructurizeSM3UsesIfs: for the sm3 target the dispatcher has no
// switch; a bad option is an error.
func TestStructurizeSM3UsesIfs(t *testing.T) {
	m := cfLoad(t, "irreducible")
	if _, err := Structurize.Run(m, &Context{Target: "sm3"}); err != nil {
		t.Fatal(err)
	}
	for _, b := range m.Func("main").Blocks {
		if b.Terminator().Op == ir.OpSwitch {
			t.Fatalf("switch in %s for the sm3 target:\n%s", b.Ref(), m)
		}
	}
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	if _, err := Structurize.Run(cfLoad(t, "irreducible"), &Context{Options: map[string]string{"structurize": "tree"}}); err == nil {
		t.Fatal("unknown option accepted")
	}
}

// TestStructurizeLeavesStructured: structured functions (annotations valid,
// exits single-level, switch fallthrough included) are not touched.
func TestStructurizeLeavesStructured(t *testing.T) {
	for _, name := range []string{"seed", "swap", "lost_copy", "sw_nested", "sw_plain", "switch_loop_continue", "emb_ifbreak.eliminate-multilevel-break.want"} {
		m := cfLoad(t, name)
		if ps := structureProblems(m.Func("main")); len(ps) > 0 {
			t.Errorf("%s reported unstructured: %v", name, ps)
		}
		if out, changed := cfApply(t, Structurize, m, ""); changed || out.String() != m.String() {
			t.Errorf("structurize changed %s", name)
		}
	}
}

// TestStructurizeProblems names what makes the inputs unstructured.
func TestStructurizeProblems(t *testing.T) {
	for name, want := range map[string]string{
		"irreducible": "irreducible cycle entered at %A",
		"unannotated": "condbr without a merge annotation",
		"emb_break2":  "multi-level exit to %outer.exit",
		"emb_ifbreak": "multi-level exit to %out",
	} {
		var got []string
		for _, p := range structureProblems(cfLoad(t, name).Func("main")) {
			got = append(got, p.String())
		}
		if !strings.Contains(strings.Join(got, "; "), want) {
			t.Errorf("%s: problems %v, want one saying %q", name, got, want)
		}
	}
}

// TestStructurizeRandomCFGs dispatches random CFGs (irreducible loops,
// unreachable blocks, duplicate edges, phis, unannotated branches) and
// requires a verified, structured result that round-trips, with results
// unchanged on every run the interpreter can make.
func TestStructurizeRandomCFGs(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 40
	}
	for seed := 0; seed < n; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			m := randomCFGModule(uint64(seed))
			if err := ir.Verify(m); err != nil {
				t.Fatalf("generator: %v\n%s", err, m)
			}
			in := cfInput(m, cfData)
			out, changed := cfApply(t, Structurize, m, "")
			if !changed {
				t.Fatalf("random CFG left alone:\n%s", m)
			}
			if ps := structureProblems(out.Func("main")); len(ps) > 0 {
				t.Fatalf("still unstructured: %v\n%s", ps, out)
			}
			cfSameRun(t, m, out, in)
		})
	}
}

// TestCFPassesOnRandomModules runs the control-flow passes on the IR package's
// random modules (structured and unstructured functions): the output must
// verify, be structured, round-trip, and report changes exactly.
func TestCFPassesOnRandomModules(t *testing.T) {
	n := 80
	if testing.Short() {
		n = 20
	}
	seqs := [][]string{
		{"switch-to-if<all>", "eliminate-multilevel-break", "out-of-ssa", "structurize", "sm3-lower"},
		{"switch-to-if<all>", "eliminate-multilevel-break"},
		{"eliminate-multilevel-break"},
		{"out-of-ssa"},
		{"structurize"},
		{"out-of-ssa", "structurize"},
	}
	for seed := 0; seed < n; seed++ {
		for _, seq := range seqs {
			t.Run(fmt.Sprintf("seed%d/%s", seed, strings.Join(seq, ",")), func(t *testing.T) {
				m := irtest.RandomModule(int64(seed), irtest.RandomOptions{Unstructured: seed%2 == 0, PlainNames: true})
				for _, step := range seq {
					name, opt, _ := strings.Cut(step, "<")
					if name == "sm3-lower" {
						// Random modules use wave ops, bit tricks, ...: the
						// pass must reject them with an error, not panic or
						// emit invalid IR.
						c := ir.CloneModule(m)
						if _, err := SM3Lower.Run(c, &Context{}); err != nil {
							if !strings.HasPrefix(err.Error(), "sm3-lower: ") {
								t.Fatalf("error without the pass name: %v", err)
							}
							return
						}
					}
					m, _ = cfApply(t, Lookup(name), m, strings.TrimSuffix(opt, ">"))
					text := m.String()
					back, err := ir.ParseModule("reparse", []byte(text))
					if err != nil || back.String() != text {
						t.Fatalf("%s output does not round-trip: %v", name, err)
					}
				}
				if seq[len(seq)-1] == "structurize" {
					for _, f := range m.Funcs {
						if ps := structureProblems(f); !f.IsDeclaration() && len(ps) > 0 {
							t.Fatalf("@%s unstructured after structurize: %v\n%s", f.Name(), ps, f)
						}
					}
				}
			})
		}
	}
}

// randomCFGModule builds a compute shader whose control flow is a random
// graph of blocks (irreducible cycles likely, no annotations): each block
// updates an accumulator and a fuel counter carried in phis and leaves for
// the exit when the fuel runs out, else jumps on (br, condbr or switch on
// the accumulator) to random blocks.
func randomCFGModule(seed uint64) *ir.Module {
	r := rand.New(rand.NewPCG(seed, 99))
	m := ir.NewModule(fmt.Sprintf("random-cfg-%d", seed))
	inG := ir.NewGlobal("In", ir.SpaceStorage, ir.Array(ir.I32, -1))
	inG.Set, inG.Binding, inG.ReadOnly = 0, 0, true
	outG := ir.NewGlobal("Out", ir.SpaceStorage, ir.Array(ir.I32, -1))
	outG.Set, outG.Binding = 0, 1
	tid := ir.NewGlobal("tid", ir.SpaceInput, ir.Vec(ir.U32, 3))
	tid.Semantic = "SV_DispatchThreadID"
	m.AddGlobal(inG)
	m.AddGlobal(outG)
	m.AddGlobal(tid)
	f := m.NewFunction("main", ir.Void, nil, nil)
	f.Entry = &ir.EntryPoint{Stage: ir.StageCompute, NumThreads: [3]int{16, 1, 1}}
	b := ir.NewBuilder(f)
	c := func(v int64) ir.Value { return ir.ConstInt(ir.I32, v) }

	nb := 3 + r.IntN(6)
	entry := f.NewBlock("entry")
	blocks := make([]*ir.Block, nb)
	for j := range blocks {
		blocks[j] = f.NewBlock(fmt.Sprint("B", j))
	}
	exit := f.NewBlock("exit")
	// Successor choices, decided first so phis know their predecessors.
	type jump struct {
		kind    int // 0 br, 1 condbr, 2 switch
		targets []*ir.Block
	}
	jumps := make([]jump, nb)
	for j := range jumps {
		k := r.IntN(3)
		n := []int{1, 2, 3}[k]
		for range n {
			jumps[j].targets = append(jumps[j].targets, blocks[r.IntN(nb)])
		}
		jumps[j].kind = k
	}
	type state struct {
		from     *ir.Block
		acc, rem ir.Value
	}
	incoming := map[*ir.Block][]state{}

	b.SetBlock(entry)
	tv := b.Load(tid, "tid")
	i := b.ExtractValue(tv, []int{0}, "i")
	x := b.Load(b.Access(inG, []ir.Value{i}, "in.p"), "x")
	b.Br(blocks[0])
	incoming[blocks[0]] = append(incoming[blocks[0]], state{entry, x, c(12 + int64(r.IntN(20)))})

	type pending struct {
		phiAcc, phiRem *ir.Instr
		blk            *ir.Block
	}
	var phis []pending
	for j, blk := range blocks {
		b.SetBlock(blk)
		pa := b.Phi(ir.I32, fmt.Sprint("acc", j))
		pr := b.Phi(ir.I32, fmt.Sprint("rem", j))
		phis = append(phis, pending{pa, pr, blk})
		a5 := b.Binary(ir.OpMul, pa, c(5), "")
		a1 := b.Binary(ir.OpAdd, a5, c(int64(j+1)), "")
		acc := b.Binary(ir.OpAnd, a1, c(1023), fmt.Sprint("acc", j, "n"))
		rem := b.Binary(ir.OpSub, pr, c(1), fmt.Sprint("rem", j, "n"))
		stop := b.Cmp(ir.PredSLE, rem, c(0), "")
		go1 := f.NewBlock(fmt.Sprint("B", j, ".go"))
		b.CondBr(stop, exit, go1)
		incoming[exit] = append(incoming[exit], state{blk, acc, rem})
		b.SetBlock(go1)
		jp := jumps[j]
		switch jp.kind {
		case 0:
			b.Br(jp.targets[0])
		case 1:
			bit := b.Binary(ir.OpAnd, acc, c(1), "")
			odd := b.Cmp(ir.PredNE, bit, c(0), "")
			b.CondBr(odd, jp.targets[0], jp.targets[1])
		case 2:
			sel := b.Binary(ir.OpAnd, acc, c(3), "")
			b.Switch(sel, []ir.SwitchCase{{Values: []int64{0}, Target: jp.targets[0]}, {Values: []int64{1, 2}, Target: jp.targets[1]}, {Default: true, Target: jp.targets[2]}})
		}
		seen := map[*ir.Block]bool{}
		for _, t := range jp.targets {
			if !seen[t] {
				seen[t] = true
				incoming[t] = append(incoming[t], state{go1, acc, rem})
			}
		}
	}
	for _, p := range phis {
		ins := incoming[p.blk]
		if len(ins) == 0 {
			// Unreachable: no predecessor, so no phi.
			f.ReplaceUses(map[ir.Value]ir.Value{p.phiAcc: c(0), p.phiRem: c(0)})
			p.phiAcc.Remove()
			p.phiRem.Remove()
			continue
		}
		for _, s := range ins {
			p.phiAcc.AddIncoming(s.acc, s.from)
			p.phiRem.AddIncoming(s.rem, s.from)
		}
	}
	b.SetBlock(exit)
	res := b.Phi(ir.I32, "res")
	for _, s := range incoming[exit] {
		res.AddIncoming(s.acc, s.from)
	}
	b.Store(res, b.Access(outG, []ir.Value{i}, "out.p"))
	b.Ret(nil)
	return m
}
