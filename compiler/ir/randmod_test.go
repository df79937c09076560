package ir

import (
	"testing"
)

// TestRandomModuleCoverage: across a few dozen seeds the generator emits
// every opcode, predicate, atomic kind, merge-annotation form, address
// space and global attribute, so round-trip and verifier tests built on it
// exercise the whole format.
func TestRandomModuleCoverage(t *testing.T) {
	ops := map[Op]bool{}
	preds := map[Op]map[CmpPred]bool{OpICmp: {}, OpFCmp: {}}
	atomics := map[AtomicKind]bool{}
	merges := map[string]bool{}
	spaces := map[AddrSpace]bool{}
	kinds := map[Kind]bool{}
	stages := map[Stage]bool{}
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
			attrs.loc = attrs.loc || g.Loc != Loc{}
			attrs.quoted = attrs.quoted || quoteName(g.Name()) != g.Name()
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
					if in.Op == OpAtomic {
						atomics[in.Atomic] = true
					}
					if in.MergeKind != MergeNone {
						merges[map[MergeKind]string{MergeSelection: "selection", MergeLoop: "loop"}[in.MergeKind]+" "+in.Op.String()] = true
					}
					if in.HasResult() {
						kinds[in.Type().Kind] = true
						attrs.emptyName = attrs.emptyName || in.Name() == ""
					}
					succ := in.Successors()
					seen := map[*Block]bool{}
					for _, s := range succ {
						attrs.dupEdges = attrs.dupEdges || seen[s]
						seen[s] = true
					}
				}
			}
		}
	}
	for op := OpAdd; op < numOps; op++ {
		if !ops[op] {
			t.Errorf("no %s generated", op)
		}
	}
	for p := PredEQ; p <= PredUGE; p++ {
		if !preds[OpICmp][p] {
			t.Errorf("no icmp %s", p)
		}
	}
	for p := PredOEQ; p <= PredFUGE; p++ {
		if !preds[OpFCmp][p] {
			t.Errorf("no fcmp %s", p)
		}
	}
	for p := AtomicAdd; p <= AtomicCmpXchg; p++ {
		if !atomics[p] {
			t.Errorf("no atomic %s", p)
		}
	}
	for _, want := range []string{"selection condbr", "selection switch", "loop condbr", "loop br"} {
		if !merges[want] {
			t.Errorf("no %s merge annotation", want)
		}
	}
	for s := SpaceFunction + 1; s <= SpaceOutput; s++ {
		if !spaces[s] {
			t.Errorf("no global in %s", s)
		}
	}
	for _, k := range []Kind{KBool, KInt, KUint, KFloat, KVector, KMatrix, KArray, KStruct, KPointer} {
		if !kinds[k] {
			t.Errorf("no value of kind %d", k)
		}
	}
	for _, s := range []Stage{StageCompute, StagePixel, StageVertex} {
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
