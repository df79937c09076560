package passes

import (
	"fmt"
	"strings"

	"passlens/compiler/ir"
)

// Inline is the inline pass: force-inline all calls into entry points and
// drop uncalled functions.
//
// Force-inlines every call to a defined function into the roots, top down
// (the calls in an inlined body are inlined in turn), so each callee body is
// copied once per call site of the final program and a call chain of depth
// n costs O(n); functions no longer called are removed (entry points stay;
// in a module without entry points the roots are the functions nobody
// calls). Recursion is an error naming the cycle; a call chain more than 512
// calls deep, or inlining more than 2^22 instructions into one function, is
// an error too (docs/limits.md).
//
// Calling convention expected from the HLSL front end: `in` parameters by
// value; `out`/`inout` parameters as pointers to function memory
// (`ptr<function, T>`) to a caller temporary, with copy-in before and
// copy-out after the call at the call site. Inlining substitutes the pointer,
// so HLSL's copy semantics hold and sroa later removes the temporaries.
//
// The call's block is split at the call; the continuation is
// `%<callee>.exit`, cloned blocks are `%<callee>.<block>` (names do not
// grow with call depth: a block of f0 inlined through f1 is `%f0.entry`, made
// unique with a suffix), callee allocas move
// to the caller's entry block. A callee whose returns are not all at its top
// level is entered through `selection_merge %<callee>.exit; switch i32 0
// [default: ...]`, making each return a structured break (spirv-opt's
// merge-return construct; a one-trip loop would need a back edge that never
// runs, which the verifier rejects). A call in a loop header keeps the
// `loop_merge` on the header.
var Inline = &Pass{
	Name: "inline",
	Run:  runInline,
}

// runInline implements Inline: it force-inlines every call to a defined function, bottom-up over the
// call graph, so that entry points end up call-free; then it removes the
// functions nobody calls any more (entry points are kept).
//
// Why: shader targets have no real calls (DXIL and SM3 flatten everything,
// and SPIR-V drivers inline anyway), and every later pass — SROA in
// particular — works much better on one function body than across calls.
//
// Calling convention expected from the HLSL front end: `in` parameters are
// passed by value; `out` and `inout` parameters are passed as pointers to
// function-space memory (ptr<function, T>): the caller allocates a
// temporary, copies the argument into it before the call (inout), passes
// its address, and copies it back to the argument after the call. The
// callee only loads and stores through the pointer. Inlining therefore just
// substitutes the pointer for the parameter; the copy-in/copy-out code stays
// at the call site, giving exactly HLSL's copy semantics (aliasing arguments
// behave as if copied), and sroa then removes the temporaries.
//
// Structure: the block holding the call is split at the call; the tail
// (named `<callee>.exit`, as LLVM does) receives the rest of the block and
// its terminator. If that block was a loop header, its loop_merge stays on
// the header, which branches to a new block holding the rest; a header that
// was its own continue target gets a new continue target holding just the
// back edge (`<header>.continue`). The callee's
// allocas move to the caller's entry block. A callee whose returns are not
// all at its top level (several returns, or one inside a selection or loop)
// is entered through a one-case switch, `selection_merge %<callee>.exit;
// switch i32 0 [default: %<callee>.<entry>]`, so that each return becomes a
// structured break to the tail — the construct spirv-opt's merge-return
// uses (a one-trip loop would need a back edge that never executes);
// eliminate-multilevel-break removes the multi-level breaks it may create
// (returns from inside loops). The return value reaches the tail through a
// phi named after the call.
//
// Recursion (forbidden in HLSL) is reported as an error naming the cycle.
func runInline(m *ir.Module, ctx *Context) (bool, error) {
	roots := m.EntryPoints()
	hasEntries := len(roots) > 0
	if !hasEntries {
		// A library module: the roots are the functions nobody calls.
		called := map[*ir.Function]bool{}
		for _, f := range m.Funcs {
			for _, b := range f.Blocks {
				for _, in := range b.Instrs {
					if in.Op == ir.OpCall && in.Callee != nil {
						called[in.Callee] = true
					}
				}
			}
		}
		for _, f := range m.Funcs {
			if !called[f] && !f.IsDeclaration() {
				roots = append(roots, f)
			}
		}
	}
	// inlineOrder finds recursion (an error); the inlining itself works top
	// down, into the roots only: every callee body is copied once per call
	// site of the final program, so a call chain of depth n costs O(n)
	// (bottom-up inlining would first inline f0 into f1, then f1 with f0
	// into f2, ..., O(n^2), and make block names n components long).
	if _, err := inlineOrder(m, roots); err != nil {
		return false, err
	}
	changed := false
	for _, f := range roots {
		if f.IsDeclaration() {
			continue
		}
		c, err := inlineCallsIn(f)
		if err != nil {
			return changed, err
		}
		changed = changed || c
	}
	if !hasEntries && len(roots) == 0 {
		return changed, nil
	}
	// Remove functions that are neither roots nor called from a root (the
	// roots are call-free now but for declarations).
	keep := map[*ir.Function]bool{}
	work := append([]*ir.Function(nil), roots...)
	for _, r := range roots {
		keep[r] = true
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCall && in.Callee != nil && !keep[in.Callee] {
					keep[in.Callee] = true
					work = append(work, in.Callee)
				}
			}
		}
	}
	out := m.Funcs[:0]
	for _, f := range m.Funcs {
		if keep[f] {
			out = append(out, f)
		} else {
			changed = true
		}
	}
	for i := len(out); i < len(m.Funcs); i++ {
		m.Funcs[i] = nil
	}
	m.Funcs = out
	return changed, nil
}

// maxCallDepth bounds the depth of the call graph inline accepts. Each
// level of an inlined call chain with early returns becomes one more
// nested construct, and the structuring passes after inline work per
// nesting level; 512 levels is far beyond real shaders (whose call depth
// is a handful) and keeps a hostile 4 MiB chain of calls within budget.
const maxCallDepth = 512

// inlineOrder returns the defined functions reachable from roots, callees
// before callers, or an error if a call cycle is reachable.
func inlineOrder(m *ir.Module, roots []*ir.Function) ([]*ir.Function, error) {
	const (
		white = iota
		grey
		black
	)
	color := map[*ir.Function]int{}
	var order []*ir.Function
	callees := func(f *ir.Function) []*ir.Function {
		var out []*ir.Function
		seen := map[*ir.Function]bool{}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCall && in.Callee != nil && !in.Callee.IsDeclaration() && !seen[in.Callee] {
					seen[in.Callee] = true
					out = append(out, in.Callee)
				}
			}
		}
		return out
	}
	type frame struct {
		f    *ir.Function
		succ []*ir.Function
		next int
	}
	for _, r := range roots {
		if color[r] != white || r.IsDeclaration() {
			continue
		}
		color[r] = grey
		stack := []frame{{r, callees(r), 0}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.succ) {
				c := top.succ[top.next]
				top.next++
				switch color[c] {
				case grey:
					var chain []string
					start := 0
					for i, fr := range stack {
						if fr.f == c {
							start = i
						}
					}
					for _, fr := range stack[start:] {
						chain = append(chain, "@"+fr.f.Name())
					}
					chain = append(chain, "@"+c.Name())
					return nil, fmt.Errorf("recursive call chain %s cannot be inlined (HLSL forbids recursion)", strings.Join(chain, " -> "))
				case white:
					if len(stack) > maxCallDepth {
						return nil, fmt.Errorf("the call chain from @%s through @%s to @%s is more than %d calls deep; passlens inlines at most %d levels",
							stack[0].f.Name(), top.f.Name(), c.Name(), maxCallDepth, maxCallDepth)
					}
					color[c] = grey
					stack = append(stack, frame{c, callees(c), 0})
				}
				continue
			}
			color[top.f] = black
			order = append(order, top.f)
			stack = stack[:len(stack)-1]
		}
	}
	return order, nil
}

// inliner holds the state of inlining into one function. Block layout and
// alloca placement are deferred to the end so that inlining n calls costs
// time linear in the size of the result: new blocks are recorded in
// `after` lists (blocks to lay out right after a given block) and the
// layout is rebuilt once; callee allocas are inserted into the entry block
// once.
type inliner struct {
	f       *ir.Function
	after   map[*ir.Block][]*ir.Block
	allocas []*ir.Instr
	repl    map[ir.Value]ir.Value
}

// newBlockAfter creates a block laid out right after x (after blocks
// already placed after x).
func (il *inliner) newBlockAfter(x *ir.Block, name string) *ir.Block {
	nb := il.f.NewBlock(name)
	il.after[x] = append(il.after[x], nb)
	return nb
}

// layout rebuilds the function's block order from the original order and
// the after lists (depth first, with an explicit stack: nested inlining
// makes the after lists as deep as the call chain).
func (il *inliner) layout(orig []*ir.Block) {
	out := make([]*ir.Block, 0, len(il.f.Blocks))
	var stack []*ir.Block
	for _, b := range orig {
		stack = append(stack[:0], b)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			out = append(out, x)
			after := il.after[x]
			for i := len(after) - 1; i >= 0; i-- {
				stack = append(stack, after[i])
			}
		}
	}
	il.f.SetBlocks(out)
}

// maxInlinedInstrs bounds the instructions inlining may copy into one
// function: a call graph where each function calls the next twice doubles
// the code per level, and 2^40 instructions would exhaust any machine.
const maxInlinedInstrs = 1 << 22

// inlineCallsIn inlines every call to a defined function in f, and the
// calls in the inlined bodies, until f is call-free (inlineOrder has ruled
// out recursion). Each round inlines the calls of the blocks the previous
// round created, so every block is scanned once.
func inlineCallsIn(f *ir.Function) (bool, error) {
	il := &inliner{f: f, after: map[*ir.Block][]*ir.Block{}, repl: map[ir.Value]ir.Value{}}
	orig := append([]*ir.Block(nil), f.Blocks...)
	pending := orig
	changed := false
	copied := 0
	for len(pending) > 0 {
		var blocks []*ir.Block
		callsOf := map[*ir.Block][]*ir.Instr{}
		for _, b := range pending {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCall && in.Callee != nil && !in.Callee.IsDeclaration() {
					if len(in.Args) != len(in.Callee.Params) {
						return changed, fmt.Errorf("@%s: call of @%s passes %d arguments, want %d",
							f.Name(), in.Callee.Name(), len(in.Args), len(in.Callee.Params))
					}
					if len(callsOf[b]) == 0 {
						blocks = append(blocks, b)
					}
					callsOf[b] = append(callsOf[b], in)
				}
			}
		}
		pending = nil
		for _, b := range blocks {
			calls := callsOf[b]
			var header *ir.Instr // the header's new branch when b heads a one-block loop
			var backEdge *ir.Instr
			if t := b.Terminator(); t != nil && t.MergeKind == ir.MergeLoop {
				// Keep the loop header a header: it keeps its phis and the
				// loop_merge; everything else moves to a new block.
				rest := il.newBlockAfter(b, b.Name()+".body")
				moveTail(b, b.FirstNonPhi(), rest)
				br := appendInstr(b, newBr(f, rest))
				br.MergeKind, br.Merge, br.Continue = t.MergeKind, t.Merge, t.Continue
				if t.Continue == b {
					// The header was its own continue target: the back
					// edge now leaves from another block, which must
					// become the continue target (SPIR-V: the continue
					// target dominates the back edge's block).
					header, backEdge = br, t
				}
				t.ClearMerge()
				b = rest
			}
			heads, tails := il.segment(b, calls)
			for k, call := range calls {
				copied += call.Callee.NumInstrs()
				if copied > maxInlinedInstrs {
					return true, fmt.Errorf("@%s: inlining would copy more than %d instructions into it (a call graph whose size doubles per level?)", f.Name(), maxInlinedInstrs)
				}
				pending = append(pending, il.inlineCall(call, heads[k], tails[k])...)
			}
			if header != nil {
				// A block of its own holding just the back edge, so that
				// it is nobody's merge block (the last tail may merge the
				// callee's returns).
				last := backEdge.Block
				cont := il.newBlockAfter(last, header.Block.Name()+".continue")
				moveTail(last, len(last.Instrs)-1, cont)
				appendInstr(last, newBr(f, cont))
				header.Continue = cont
			}
		}
		changed = changed || len(blocks) > 0
	}
	if !changed {
		return false, nil
	}
	il.layout(orig)
	if len(il.allocas) > 0 {
		entry := f.Blocks[0]
		pos := entry.FirstNonPhi()
		for pos < len(entry.Instrs) && entry.Instrs[pos].Op == ir.OpAlloca {
			pos++
		}
		ins := make([]*ir.Instr, 0, len(entry.Instrs)+len(il.allocas))
		ins = append(ins, entry.Instrs[:pos]...)
		ins = append(ins, il.allocas...)
		ins = append(ins, entry.Instrs[pos:]...)
		for _, a := range il.allocas {
			a.Block = entry
		}
		entry.Instrs = ins
	}
	f.ReplaceUses(il.repl)
	// A callee that never returns makes the code after its call
	// unreachable; a loop around such a call has no back edge left and
	// becomes a selection (see simplifycfg.go).
	repairLoops(f)
	return true, nil
}

// segment splits block b at each of its calls: heads[k] is the block that
// ends just before call k (b itself for k = 0) and tails[k] the new block
// `<callee>.exit` that starts just after it; the last tail receives b's
// terminator. The calls are taken out of the block. Each instruction
// moves once, whatever the number of calls.
func (il *inliner) segment(b *ir.Block, calls []*ir.Instr) (heads, tails []*ir.Block) {
	old := b.Instrs
	isCall := make(map[*ir.Instr]bool, len(calls))
	for _, c := range calls {
		isCall[c] = true
	}
	cur := b
	b.Instrs = nil
	prev := b
	for _, in := range old {
		if isCall[in] {
			heads = append(heads, cur)
			t := il.newBlockAfter(prev, in.Callee.Name()+".exit")
			tails = append(tails, t)
			prev, cur = t, t
			in.Block = nil
			continue
		}
		in.Block = cur
		cur.Instrs = append(cur.Instrs, in)
	}
	if t := cur.Terminator(); t != nil && cur != b {
		for _, s := range t.Successors() {
			retargetPhiIncoming(s, b, cur)
		}
	}
	return heads, tails
}

// moveTail moves b.Instrs[from:] to the end of block dst and retargets the
// phi entries of the moved terminator's successors from b to dst.
func moveTail(b *ir.Block, from int, dst *ir.Block) {
	moved := b.Instrs[from:]
	for _, in := range moved {
		in.Block = dst
	}
	dst.Instrs = append(dst.Instrs, moved...)
	rest := b.Instrs[:from:from]
	for i := from; i < len(b.Instrs); i++ {
		b.Instrs[i] = nil
	}
	b.Instrs = rest
	if t := dst.Terminator(); t != nil {
		for _, s := range t.Successors() {
			retargetPhiIncoming(s, b, dst)
		}
	}
}

func appendInstr(b *ir.Block, in *ir.Instr) *ir.Instr {
	in.Block = b
	b.Instrs = append(b.Instrs, in)
	return in
}

func newBr(f *ir.Function, dst *ir.Block) *ir.Instr {
	br := ir.NewInstr(f, ir.OpBr, ir.Void, "")
	br.Succs = []*ir.Block{dst}
	return br
}

// inlineCall replaces one call (already taken out of its block, between
// head and tail) with a copy of the callee's body and returns the copied
// blocks. Uses of the call's result are recorded in il.repl (applied once
// per function).
func (il *inliner) inlineCall(call *ir.Instr, head, tail *ir.Block) []*ir.Block {
	f, callee := il.f, call.Callee
	vmap := make(map[ir.Value]ir.Value, callee.NumInstrs()+len(callee.Params))
	for i, p := range callee.Params {
		vmap[p] = call.Args[i]
	}
	bmap := make(map[*ir.Block]*ir.Block, len(callee.Blocks))
	cbs := make([]*ir.Block, len(callee.Blocks))
	for i, cb := range callee.Blocks {
		nb := f.NewBlock(callee.Name() + "." + cb.Name())
		bmap[cb] = nb
		cbs[i] = nb
	}
	il.after[head] = append(cbs, il.after[head]...)
	var rets []*ir.Instr
	var clones []*ir.Instr
	cloned := make(map[*ir.Instr]bool, callee.NumInstrs())
	for _, cb := range callee.Blocks {
		nb := bmap[cb]
		for _, in := range cb.Instrs {
			c := cloneInstr(f, in)
			vmap[in] = c
			cloned[c] = true
			clones = append(clones, c)
			if in.Op == ir.OpAlloca {
				il.allocas = append(il.allocas, c)
				continue
			}
			appendInstr(nb, c)
			if in.Op == ir.OpRet {
				rets = append(rets, c)
			}
		}
	}
	mapVal := func(v ir.Value) ir.Value {
		if n, ok := vmap[v]; ok {
			return n
		}
		return v
	}
	for _, c := range clones {
		for i, a := range c.Args {
			c.Args[i] = mapVal(a)
		}
		for i, s := range c.Succs {
			c.Succs[i] = bmap[s]
		}
		for i := range c.Cases {
			c.Cases[i].Target = bmap[c.Cases[i].Target]
		}
		for i, pb := range c.PhiBlocks {
			c.PhiBlocks[i] = bmap[pb]
		}
		if c.Merge != nil {
			c.Merge = bmap[c.Merge]
		}
		if c.Continue != nil {
			c.Continue = bmap[c.Continue]
		}
	}

	start := bmap[callee.Blocks[0]]
	if needsReturnConstruct(callee) {
		// selection_merge %tail; switch i32 0 [default: %start]: each
		// return becomes a break out of this one-case switch.
		sw := ir.NewInstr(f, ir.OpSwitch, ir.Void, "")
		sw.Args = []ir.Value{i32c(0)}
		sw.Cases = []ir.SwitchCase{{Default: true, Target: start}}
		sw.SetSelectionMerge(tail)
		sw.Loc = call.Loc
		appendInstr(head, sw)
	} else {
		appendInstr(head, newBr(f, start))
	}

	// Returns branch to the tail; the result flows through a phi.
	var result ir.Value
	if call.HasResult() && len(rets) == 1 && len(rets[0].Args) == 1 {
		result = rets[0].Args[0]
	} else if call.HasResult() && len(rets) > 0 {
		phi := newInstrTakingName(f, ir.OpPhi, call.Type(), call)
		for _, r := range rets {
			var v ir.Value = ir.ConstUndef(call.Type())
			if len(r.Args) == 1 {
				v = r.Args[0]
			}
			phi.AddIncoming(v, r.Block)
		}
		insertAt(tail, 0, phi)
		result = phi
	} else if call.HasResult() {
		result = ir.ConstUndef(call.Type()) // the callee never returns
	}
	for _, r := range rets {
		rb := r.Block
		r.Remove()
		appendInstr(rb, newBr(f, tail))
	}
	if call.HasResult() {
		// A result computed by the inlined body takes over the call's name,
		// so the caller's code reads the same before and after.
		if ri, ok := result.(*ir.Instr); ok && ri.Op != ir.OpPhi && cloned[ri] && call.Name() != "" {
			ri.SetRawName(call.Name())
		}
		il.repl[call] = result
	}
	return cbs
}

// cloneInstr copies in (operands, targets and annotations still refer to
// the callee; the caller remaps them). The result gets the original name,
// made unique in f.
func cloneInstr(f *ir.Function, in *ir.Instr) *ir.Instr {
	c := ir.NewInstr(f, in.Op, in.Type(), in.Name())
	c.Args = append([]ir.Value(nil), in.Args...)
	c.Succs = append([]*ir.Block(nil), in.Succs...)
	if in.Cases != nil {
		c.Cases = make([]ir.SwitchCase, len(in.Cases))
		for i, sc := range in.Cases {
			c.Cases[i] = ir.SwitchCase{Values: append([]int64(nil), sc.Values...), Default: sc.Default, Target: sc.Target}
		}
	}
	c.PhiBlocks = append([]*ir.Block(nil), in.PhiBlocks...)
	c.Pred, c.Atomic = in.Pred, in.Atomic
	c.Idx = append([]int(nil), in.Idx...)
	c.Callee = in.Callee
	c.Intr = in.Intr
	c.MergeKind, c.Merge, c.Continue = in.MergeKind, in.Merge, in.Continue
	c.Loc = in.Loc
	return c
}

// needsReturnConstruct reports whether inlining callee needs the one-case
// switch wrapper to keep returns structured: the callee is structured (it has
// merge annotations) and it has several returns, or one return inside a
// construct (a header dominates it but the header's merge does not).
func needsReturnConstruct(callee *ir.Function) bool {
	var rets []*ir.Block
	var headers []*ir.Instr
	for _, b := range callee.Blocks {
		t := b.Terminator()
		if t == nil {
			continue
		}
		if t.Op == ir.OpRet {
			rets = append(rets, b)
		}
		if t.MergeKind != ir.MergeNone {
			headers = append(headers, t)
		}
	}
	if len(headers) == 0 {
		return false
	}
	if len(rets) != 1 {
		return len(rets) > 1
	}
	dt := newDomTree(callee)
	r := rets[0]
	for _, h := range headers {
		if dt.dominates(h.Block, r) && (h.Merge == nil || !dt.dominates(h.Merge, r)) {
			return true
		}
	}
	return false
}
