package irtest

import (
	"passlens/compiler/ir"
	"strings"
	"testing"
)

// TestRandomModuleCoverage: across a few dozen seeds the generator emits
// every opcode, predicate, atomic kind, merge-annotation form, address
// space and global attribute, so round-trip and verifier tests built on it
// exercise the whole format.
func TestRandomModuleCoverage(t *testing.T) {
	ops := map[ir.Op]bool{}
	preds := map[ir.Op]map[ir.CmpPred]bool{ir.OpICmp: {}, ir.OpFCmp: {}}
	atomics := map[ir.AtomicKind]bool{}
	merges := map[string]bool{}
	spaces := map[ir.AddrSpace]bool{}
	kinds := map[ir.Kind]bool{}
	stages := map[ir.Stage]bool{}
	var attrs struct{ init, sem, bind, ro, flat, kind, loc, uniformParam, quoted, emptyName, dupEdges bool }
	for seed := int64(0); seed < 40; seed++ {
		m := RandomModule(seed, RandomOptions{Unstructured: seed%2 == 0, Locs: true})
		for _, g := range m.Globals {
			spaces[g.Space] = true
			attrs.init = attrs.init || g.Init != nil
			attrs.sem = attrs.sem || g.Semantic != ""
			attrs.bind = attrs.bind || g.Binding >= 0
			attrs.ro = attrs.ro || g.ReadOnly
			attrs.flat = attrs.flat || g.Flat
			attrs.kind = attrs.kind || g.Kind != ""
			attrs.loc = attrs.loc || g.Loc != ir.Loc{}
			attrs.quoted = attrs.quoted || ir.QuoteName(g.Name()) != g.Name()
		}
		for _, f := range m.Funcs {
			if f.Entry != nil {
				stages[f.Entry.Stage] = true
			}
			for _, p := range f.Params {
				attrs.uniformParam = attrs.uniformParam || p.Uniform
			}
			for _, b := range f.Blocks {
				for _, in := range b.Instrs {
					ops[in.Op] = true
					if ps, ok := preds[in.Op]; ok {
						ps[in.Pred] = true
					}
					if in.Op == ir.OpAtomic {
						atomics[in.Atomic] = true
					}
					if in.MergeKind != ir.MergeNone {
						merges[map[ir.MergeKind]string{ir.MergeSelection: "selection", ir.MergeLoop: "loop"}[in.MergeKind]+" "+in.Op.String()] = true
					}
					if in.HasResult() {
						kinds[in.Type().Kind] = true
						attrs.emptyName = attrs.emptyName || in.Name() == ""
					}
					succ := in.Successors()
					seen := map[*ir.Block]bool{}
					for _, s := range succ {
						attrs.dupEdges = attrs.dupEdges || seen[s]
						seen[s] = true
					}
				}
			}
		}
	}
	for op := ir.OpAdd; op < ir.NumOps; op++ {
		if !ops[op] {
			t.Errorf("no %s generated", op)
		}
	}
	for p := ir.PredEQ; p <= ir.PredUGE; p++ {
		if !preds[ir.OpICmp][p] {
			t.Errorf("no icmp %s", p)
		}
	}
	for p := ir.PredOEQ; p <= ir.PredFUGE; p++ {
		if !preds[ir.OpFCmp][p] {
			t.Errorf("no fcmp %s", p)
		}
	}
	for p := ir.AtomicAdd; p <= ir.AtomicCmpXchg; p++ {
		if !atomics[p] {
			t.Errorf("no atomic %s", p)
		}
	}
	for _, want := range []string{"selection condbr", "selection switch", "loop condbr", "loop br"} {
		if !merges[want] {
			t.Errorf("no %s merge annotation", want)
		}
	}
	for s := ir.SpaceFunction + 1; s <= ir.SpaceOutput; s++ {
		if !spaces[s] {
			t.Errorf("no global in %s", s)
		}
	}
	for _, k := range []ir.Kind{ir.KBool, ir.KInt, ir.KUint, ir.KFloat, ir.KVector, ir.KMatrix, ir.KArray, ir.KStruct, ir.KPointer} {
		if !kinds[k] {
			t.Errorf("no value of kind %d", k)
		}
	}
	for _, s := range []ir.Stage{ir.StageCompute, ir.StagePixel, ir.StageVertex} {
		if !stages[s] {
			t.Errorf("no %s entry point", s)
		}
	}
	if attrs != (struct{ init, sem, bind, ro, flat, kind, loc, uniformParam, quoted, emptyName, dupEdges bool }{true, true, true, true, true, true, true, true, true, true, true}) {
		t.Errorf("missing global/function features: %+v", attrs)
	}
}

// TestRandomModuleDeterministic: the same seed gives the same module.
func TestRandomModuleDeterministic(t *testing.T) {
	a := RandomModule(42, RandomOptions{Unstructured: true, Locs: true})
	b := RandomModule(42, RandomOptions{Unstructured: true, Locs: true})
	if printLocs(a) != printLocs(b) {
		t.Fatal("same seed, different modules")
	}
	if printLocs(a) == printLocs(RandomModule(43, RandomOptions{Unstructured: true, Locs: true})) {
		t.Fatal("different seeds, same module")
	}
}

// printLocs prints m with source locations.
func printLocs(m *ir.Module) string {
	var sb strings.Builder
	p := ir.NewPrinter(&sb)
	p.Locs = true
	p.Module(m)
	return sb.String()
}
