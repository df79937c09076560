package passes

import (
	"passlens/compiler/ir"
)

// OutOfSSA replaces phis by copies into variables on the incoming edges.
var OutOfSSA = &Pass{
	Name:    "out-of-ssa",
	Summary: "replace phis by register-like variables written on split critical edges",
	Doc: `Every phi becomes a function variable (an alloca named <phi>.var, the
"register" the SM3 back end allocates): each incoming edge stores the
incoming value into it, and the phi itself becomes a load at the top of its
block, keeping its name. The representation stays valid, verifiable SSA
(loads and stores are ordinary instructions, so the verifier, the
interpreter and every later pass keep working), while the variables are
exactly the registers a non-SSA back end needs.

The copies follow the classic out-of-SSA rules so that a back end may also
treat a phi's value and its variable as one register (reading <phi>.var
wherever the value is used), which is what register allocation does:

  - critical edges (from a block with several successors to a block with
    several predecessors) are split, and the copies go on the new edge
    block; otherwise a copy on a loop's exiting block would overwrite a
    value still read after the loop (the lost-copy problem);
  - the copies of one edge form a parallel copy and are sequentialized:
    a copy whose variable another pending copy still reads waits, and a
    cycle (a = b, b = a: the swap problem) is broken by saving one value
    with an explicit copy instruction first.

Phis with one predecessor are replaced by their value; undef and
self-copies emit nothing.`,
	Targets: []string{"sm3"},
	Run:     runOutOfSSA,
}

func runOutOfSSA(m *ir.Module, ctx *Context) (bool, error) {
	changed := false
	for _, f := range m.Funcs {
		if !f.IsDeclaration() {
			if c, _ := outOfSSA(f); c {
				changed = true
			}
		}
	}
	return changed, nil
}

// parCopy is one copy of a parallel copy: variable dst (of phi) := src.
type parCopy struct {
	phi *ir.Instr
	dst ir.Value
	src ir.Value
}

// outOfSSA rewrites f's phis; it reports whether anything changed and
// returns the loads that replaced phis.
func outOfSSA(f *ir.Function) (bool, map[*ir.Instr]bool) {
	var blocks []*ir.Block
	for _, b := range f.Blocks {
		if len(b.Phis()) > 0 {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == 0 {
		return false, nil
	}
	phiLoads := map[*ir.Instr]bool{}
	preds := cfDistinctPreds(f)
	entry := f.Blocks[0]
	nAllocas := 0
	for _, t := range blocks {
		phis := append([]*ir.Instr(nil), t.Phis()...)
		ps := preds[t]
		if len(ps) == 1 {
			// One predecessor: each phi is its incoming value. Sibling phis
			// read each other's previous values, so go through the general
			// path if one phi feeds another.
			if !phisReadSiblings(phis) {
				repl := map[ir.Value]ir.Value{}
				for _, phi := range phis {
					v := phi.Incoming(ps[0])
					if v == nil || v == ir.Value(phi) {
						v = ir.ConstUndef(phi.Type())
					}
					repl[phi] = v
					phi.Remove()
				}
				f.ReplaceUses(repl)
				continue
			}
		}
		// One variable per phi, allocated in the entry block.
		vars := make(map[*ir.Instr]*ir.Instr, len(phis))
		for _, phi := range phis {
			a := newInstr(f, ir.OpAlloca, ir.Ptr(ir.SpaceFunction, phi.Type()), phi.Name()+".var")
			a.Loc = phi.Loc
			insertAt(entry, nAllocas, a)
			nAllocas++
			vars[phi] = a
		}
		// The copies of each incoming edge, on the edge.
		for _, p := range ps {
			incoming := make([]ir.Value, len(phis))
			for i, phi := range phis {
				incoming[i] = phi.Incoming(p)
			}
			at := p
			if len(cfDistinctSuccs(p)) > 1 {
				at = cfSplitEdge(f, p, t)
			}
			var copies []parCopy
			for i, phi := range phis {
				v := incoming[i]
				if v == nil {
					continue
				}
				if c, ok := v.(*ir.Const); ok && c.Undef {
					continue
				}
				if v == ir.Value(phi) {
					continue // the variable already holds it
				}
				copies = append(copies, parCopy{phi: phi, dst: vars[phi], src: v})
			}
			emitParallelCopy(f, at, copies)
		}
		// Each phi becomes a load of its variable, keeping its name.
		repl := map[ir.Value]ir.Value{}
		for i, phi := range phis {
			ld := newInstrTakingName(f, ir.OpLoad, phi.Type(), phi)
			ld.Args = []ir.Value{vars[phi]}
			ld.Loc = phi.Loc
			phi.Remove()
			insertAt(t, i, ld)
			repl[phi] = ld
			phiLoads[ld] = true
		}
		f.ReplaceUses(repl)
	}
	return true, phiLoads
}

// phisReadSiblings reports whether a phi of the group uses another.
func phisReadSiblings(phis []*ir.Instr) bool {
	set := map[ir.Value]bool{}
	for _, p := range phis {
		set[p] = true
	}
	for _, p := range phis {
		for _, a := range p.Args {
			if set[a] && a != ir.Value(p) {
				return true
			}
		}
	}
	return false
}

// emitParallelCopy stores each copy's source into its variable before at's
// terminator, in an order that reads every phi of the block (taken as its
// variable, as a register allocator would) before that variable is
// overwritten. A copy waits while another pending copy reads its
// destination; when only cycles remain, one read value is saved with a
// copy instruction and the readers use the saved value.
func emitParallelCopy(f *ir.Function, at *ir.Block, copies []parCopy) {
	if len(copies) == 0 {
		return
	}
	bd := ir.NewBuilder(f)
	bd.SetBeforeTerminator(at)
	if t := at.Terminator(); t != nil {
		bd.Loc = t.Loc
	}
	pending := append([]parCopy(nil), copies...)
	// readers counts pending copies whose source is phi p (read through
	// p's variable).
	readers := func(p *ir.Instr) int {
		n := 0
		for _, c := range pending {
			if c.src == ir.Value(p) {
				n++
			}
		}
		return n
	}
	for len(pending) > 0 {
		progressed := false
		for i := 0; i < len(pending); i++ {
			c := pending[i]
			if readers(c.phi) > 0 {
				continue
			}
			bd.Store(c.src, c.dst)
			pending = append(pending[:i], pending[i+1:]...)
			i--
			progressed = true
		}
		if progressed {
			continue
		}
		// Every pending destination is still read: a cycle. Save the value
		// of the first copy's phi and let its readers use the saved copy.
		p := pending[0].phi
		saved := bd.Copy(p, p.Name()+".save")
		for i := range pending {
			if pending[i].src == ir.Value(p) {
				pending[i].src = saved
			}
		}
	}
}
