package passes

import (
	"sort"
	"strconv"

	"passlens/compiler/ir"
)

// This file holds small IR-editing helpers shared by the passes: def-use
// maps, phi maintenance after CFG edits, and stable derived names.

// userMap maps a value to the instructions using it, one entry per operand
// slot (an instruction using v twice appears twice). It is a snapshot: passes
// that rewrite operands must keep it up to date or rebuild it.
type userMap map[ir.Value][]*ir.Instr

// computeUsers builds the user map of f.
func computeUsers(f *ir.Function) userMap {
	u := make(userMap)
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				if _, isConst := a.(*ir.Const); isConst {
					continue
				}
				u[a] = append(u[a], in)
			}
		}
	}
	return u
}

// uniqueUsers returns the distinct instructions in list, keeping order.
func uniqueUsers(list []*ir.Instr) []*ir.Instr {
	if len(list) < 2 {
		return list
	}
	out := make([]*ir.Instr, 0, len(list))
	seen := make(map[*ir.Instr]bool, len(list))
	for _, in := range list {
		if !seen[in] {
			seen[in] = true
			out = append(out, in)
		}
	}
	return out
}

// predCounts returns, for every block, how many CFG edges enter it from each
// predecessor.
func predCounts(f *ir.Function) map[*ir.Block]map[*ir.Block]int {
	pc := make(map[*ir.Block]map[*ir.Block]int, len(f.Blocks))
	for _, b := range f.Blocks {
		for _, s := range b.Successors() {
			m := pc[s]
			if m == nil {
				m = map[*ir.Block]int{}
				pc[s] = m
			}
			m[b]++
		}
	}
	return pc
}

// fixPhis makes every phi of f list exactly one incoming entry per distinct
// predecessor block (the convention of the IR verifier): entries from blocks
// that are no longer predecessors are dropped, duplicate entries for one
// block are collapsed (keeping the first), and predecessors with no entry
// get `undef`. It reports whether anything changed.
func fixPhis(f *ir.Function) bool {
	changed := false
	pc := predCounts(f)
	layout := make(map[*ir.Block]int, len(f.Blocks))
	for i, b := range f.Blocks {
		layout[b] = i
	}
	for _, b := range f.Blocks {
		phis := b.Phis()
		if len(phis) == 0 {
			continue
		}
		preds := pc[b]
		order := make([]*ir.Block, 0, len(preds)) // predecessors in block order, for stable output
		for p := range preds {
			order = append(order, p)
		}
		sort.Slice(order, func(i, j int) bool { return layout[order[i]] < layout[order[j]] })
		for _, phi := range phis {
			seen := make(map[*ir.Block]bool, len(phi.PhiBlocks))
			args, blocks := phi.Args[:0], phi.PhiBlocks[:0]
			n := len(phi.Args)
			for i := 0; i < n; i++ {
				pb := phi.PhiBlocks[i]
				if preds[pb] == 0 || seen[pb] {
					changed = true
					continue
				}
				seen[pb] = true
				args = append(args, phi.Args[i])
				blocks = append(blocks, pb)
			}
			phi.Args, phi.PhiBlocks = args, blocks
			for _, p := range order {
				if !seen[p] {
					phi.AddIncoming(ir.ConstUndef(phi.Type()), p)
					changed = true
				}
			}
		}
	}
	return changed
}

// retargetPhiIncoming rewrites phi entries in succ that come from old to
// come from new (used when a terminator moves from block old to block new).
func retargetPhiIncoming(succ, old, new *ir.Block) {
	for _, phi := range succ.Phis() {
		for i, pb := range phi.PhiBlocks {
			if pb == old {
				phi.PhiBlocks[i] = new
			}
		}
	}
}

// derivedName reserves a name for a value derived from base (e.g. a
// component "a.x" of "a"). Unlike Function.UniqueName it never turns a
// numeric component suffix into a different number ("a.1" taken must not
// yield "a.2", which reads as component 2): a clash gets "_N" appended.
func derivedName(f *ir.Function, name string) string {
	if f.ReserveName(name) {
		return name
	}
	for i := 1; ; i++ {
		cand := name + "_" + strconv.Itoa(i)
		if f.ReserveName(cand) {
			return cand
		}
	}
}

// componentSuffix is the name suffix of component i of a value of type t:
// x, y, z, w for vector lanes, field names for structs (when usable as a
// bare name), decimal indices otherwise.
func componentSuffix(t *ir.Type, i int) string {
	switch t.Kind {
	case ir.KVector:
		if t.Len <= 4 {
			return string("xyzw"[i])
		}
	case ir.KStruct:
		if i < len(t.Fields) {
			if n := t.Fields[i].Name; n != "" && isBareName(n) {
				return n
			}
		}
	}
	return strconv.Itoa(i)
}

// isBareName reports whether n prints without quotes and is not a number
// (so "a" + "." + n reads as a field access).
func isBareName(n string) bool {
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		return false
	}
	return ir.QuoteName(n) == n
}

// baseName is the stem used for values derived from v: its name, or "t" for
// unnamed values and constants.
func baseName(v ir.Value) string {
	if n := v.Name(); n != "" {
		return n
	}
	return "t"
}

// newInstr creates an unattached instruction for function f whose result
// is named after name (made unique with derivedName; "" gives a generated
// tN name).
func newInstr(f *ir.Function, op ir.Op, t *ir.Type, name string) *ir.Instr {
	if name == "" {
		return ir.NewInstr(f, op, t, "")
	}
	// Create without a result type so NewInstr reserves no generated name,
	// then give it the derived one.
	in := ir.NewInstr(f, op, ir.Void, "")
	in.SetType(t)
	if in.HasResult() {
		in.SetRawName(derivedName(f, name))
	}
	return in
}

// newInstrTakingName creates an instruction that takes over the name of an
// instruction being deleted (the name is already reserved in f, and the
// old instruction must not stay in the function), so rewritten values keep
// their names and diffs stay readable.
func newInstrTakingName(f *ir.Function, op ir.Op, t *ir.Type, old *ir.Instr) *ir.Instr {
	if old == nil || old.Name() == "" {
		return ir.NewInstr(f, op, t, "")
	}
	in := ir.NewInstr(f, op, ir.Void, "")
	in.SetType(t)
	in.SetRawName(old.Name())
	return in
}

// newVersion creates an instruction naming a new SSA version of variable
// base: base.1, base.2, ... (Function.UniqueName numbering).
func newVersion(f *ir.Function, op ir.Op, t *ir.Type, base string) *ir.Instr {
	return ir.NewInstr(f, op, t, base)
}

// i32c returns the i32 constant v.
func i32c(v int) *ir.Const { return ir.ConstInt(ir.I32, int64(v)) }

// annotationTargets returns the blocks named by a structured merge
// annotation (as merge block or continue target) in f.
func annotationTargets(f *ir.Function) map[*ir.Block]bool {
	refs := map[*ir.Block]bool{}
	for _, b := range f.Blocks {
		t := b.Terminator()
		if t == nil || t.MergeKind == ir.MergeNone {
			continue
		}
		if t.Merge != nil {
			refs[t.Merge] = true
		}
		if t.Continue != nil {
			refs[t.Continue] = true
		}
	}
	return refs
}

// insertAt inserts in into b at index i.
func insertAt(b *ir.Block, i int, in *ir.Instr) {
	in.Block = b
	b.Instrs = append(b.Instrs, nil)
	copy(b.Instrs[i+1:], b.Instrs[i:])
	b.Instrs[i] = in
}

// removeInstrs deletes every instruction in dead from f in one sweep.
func removeInstrs(f *ir.Function, dead map[*ir.Instr]bool) {
	if len(dead) == 0 {
		return
	}
	for _, b := range f.Blocks {
		out := b.Instrs[:0]
		for _, in := range b.Instrs {
			if dead[in] {
				in.Block = nil
				continue
			}
			out = append(out, in)
		}
		for i := len(out); i < len(b.Instrs); i++ {
			b.Instrs[i] = nil
		}
		b.Instrs = out
	}
}

// zeroOf returns the zero value of t, spelled as a literal (0, 0.0, false)
// for scalars.
func zeroOf(t *ir.Type) *ir.Const {
	switch t.Kind {
	case ir.KFloat:
		return ir.ConstFloat(t, 0)
	case ir.KInt, ir.KUint:
		return ir.ConstInt(t, 0)
	case ir.KBool:
		return ir.ConstBool(t, false)
	}
	return ir.ConstZero(t)
}
