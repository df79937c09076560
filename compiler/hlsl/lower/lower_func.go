package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Functions. A user function becomes an IR function of the same name
// (overloads get suffixes: f, f.1, ...). Calling convention (the one
// passes/inline.go expects): `in` parameters are passed by value and
// copied into an alloca `%x.addr` on entry (clang style, so they are
// assignable); `out` and `inout` parameters are pointers to the caller's
// temporaries (ptr<function, T>) that the body loads and stores directly;
// buffer parameters are the buffer's pointer. Struct and array results
// are returned by value.

// fnLowerer is the state of lowering one function body.
type fnLowerer struct {
	*lowerer
	decl *hlsl.FuncDecl
	f    *ir.Function
	b    *ir.Builder

	entryBlock *ir.Block
	allocaB    *ir.Builder
	nAllocas   int

	locals map[*hlsl.VarDecl]*varInfo
	// order is the order blocks were started in; the function's layout
	// follows it (clang emits blocks where their code starts).
	order   []*ir.Block
	started map[*ir.Block]bool

	breaks, continues []*ir.Block
	loops             []loopInfo

	// entry is set when lowering the entry point's body.
	entry *entryState
}

// loopInfo remembers a loop header for the final check that its continue
// target is reachable (see fixLoops).
type loopInfo struct {
	header, cont, merge *ir.Block
}

func (l *lowerer) newFnLowerer(fd *hlsl.FuncDecl, f *ir.Function) *fnLowerer {
	fl := &fnLowerer{lowerer: l, decl: fd, f: f, b: ir.NewBuilder(f), allocaB: ir.NewBuilder(f),
		locals: map[*hlsl.VarDecl]*varInfo{}, started: map[*ir.Block]bool{}}
	fl.entryBlock = f.NewBlock("entry")
	fl.setBlock(fl.entryBlock)
	return fl
}

// declareFunc creates the IR function (signature only) of a definition.
func (l *lowerer) declareFunc(fd *hlsl.FuncDecl) {
	names := make([]string, len(fd.Params))
	types := make([]*ir.Type, len(fd.Params))
	for i, p := range fd.Params {
		if p.Type.Kind == hlsl.KindArray && p.Type.Len < 0 {
			l.errorf(p, "cannot lower '%s': unsized array parameter '%s' gets no size from a call", fd.Name, p.Name)
			return
		}
		names[i] = p.Name
		types[i] = l.paramType(p)
	}
	f := l.m.NewFunction(uniqueIn(l.globalNames, funcName(fd)), l.irType(fd.Ret), names, types)
	l.funcs[fd] = f
}

// paramType is the IR type of a parameter under the calling convention.
func (l *lowerer) paramType(p *hlsl.VarDecl) *ir.Type {
	if p.Type.Kind == hlsl.KindResource && !hlsl.IsBufferResource(p.Type) {
		return l.irType(p.Type)
	}
	if p.Dir != hlsl.DirIn {
		return ir.Ptr(ir.SpaceFunction, l.irType(p.Type))
	}
	return l.irType(p.Type)
}

// lowerFunc lowers the body of a user function.
func (l *lowerer) lowerFunc(fd *hlsl.FuncDecl, f *ir.Function) {
	fl := l.newFnLowerer(fd, f)
	for i, p := range fd.Params {
		ip := f.Params[i]
		switch {
		case p.Type.ContainsResource() && onlyBuffers(p.Type) && p.Dir != hlsl.DirIn:
			fl.locals[p] = &varInfo{t: p.Type, ptr: ip, decl: p}
		case p.Type.ContainsResource() && onlyBuffers(p.Type):
			fl.at(p.NamePos)
			a := fl.alloca(p.Type, p.Name+".addr")
			fl.b.Store(ip, a)
			fl.locals[p] = &varInfo{t: p.Type, ptr: a, decl: p}
		case p.Type.ContainsResource() && p.Type.Kind != hlsl.KindResource:
			l.errorf(p, "parameters of type '%s' (arrays or structs of resources) are not supported", p.Type)
		case p.Type.Kind == hlsl.KindResource:
			fl.locals[p] = &varInfo{t: p.Type, value: ip, decl: p}
		case p.Dir != hlsl.DirIn:
			fl.locals[p] = &varInfo{t: p.Type, ptr: ip, decl: p}
		default:
			fl.at(p.NamePos)
			a := fl.alloca(p.Type, p.Name+".addr")
			fl.b.Store(ip, a)
			fl.locals[p] = &varInfo{t: p.Type, ptr: a, decl: p}
		}
	}
	fl.stmts(fd.Body.Stmts)
	fl.finish(fd.Body.End())
}

// finish terminates the last block (falling off the end of a void
// function returns; of a non-void one cannot happen, the checker made
// sure) and puts the blocks in emission order.
func (fl *fnLowerer) finish(end hlsl.Pos) {
	if !fl.terminated() {
		fl.at(end)
		switch {
		case fl.entry != nil:
			fl.entryReturn(nil)
		case fl.f.Ret == ir.Void:
			fl.b.Ret(nil)
		default:
			fl.b.Unreachable()
		}
	}
	// Blocks never started (none, normally) get a terminator too.
	for _, b := range fl.f.Blocks {
		if b.Terminator() == nil {
			fl.setBlock(b)
			fl.b.Unreachable()
		}
	}
	fl.fixLoops()
	blocks := make([]*ir.Block, 0, len(fl.f.Blocks))
	blocks = append(blocks, fl.order...)
	for _, b := range fl.f.Blocks {
		if !fl.started[b] {
			blocks = append(blocks, b)
		}
	}
	fl.f.SetBlocks(blocks)
}

// fixLoops turns loops whose continue target is unreachable (the body
// always breaks or returns: `while (true) { ...; break; }`) into
// selections: a loop_merge needs exactly one back edge. The header's
// condbr gets a selection_merge on the loop's merge block, a plain branch
// becomes a one-case switch (the construct the inline pass uses for
// early returns), so breaks stay structured exits.
func (fl *fnLowerer) fixLoops() {
	if len(fl.loops) == 0 {
		return
	}
	reach := map[*ir.Block]bool{}
	stack := []*ir.Block{fl.entryBlock}
	reach[fl.entryBlock] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range b.Successors() {
			if !reach[s] {
				reach[s] = true
				stack = append(stack, s)
			}
		}
	}
	for _, lp := range fl.loops {
		t := lp.header.Terminator()
		if !reach[lp.header] || reach[lp.cont] || t == nil || t.MergeKind != ir.MergeLoop {
			continue
		}
		switch t.Op {
		case ir.OpCondBr:
			t.SetSelectionMerge(lp.merge)
		case ir.OpBr:
			target := t.Succs[0]
			loc := t.Loc
			t.Remove()
			fl.b.SetBlock(lp.header)
			fl.b.Loc = loc
			sw := fl.b.Switch(ir.ConstInt(ir.I32, 0), []ir.SwitchCase{{Default: true, Target: target}})
			sw.SetSelectionMerge(lp.merge)
		}
	}
}

// at sets the source position of the instructions emitted next.
func (fl *fnLowerer) at(p hlsl.Pos) {
	if p.IsValid() {
		fl.pos = p
	}
	fl.b.Loc = fl.loc(p)
}

// atNode is at(n.Pos()).
func (fl *fnLowerer) atNode(n hlsl.Node) { fl.at(n.Pos()) }

// newBlock creates a block (placed in the layout when started).
func (fl *fnLowerer) newBlock(name string) *ir.Block { return fl.f.NewBlock(name) }

// setBlock makes b the current block.
func (fl *fnLowerer) setBlock(b *ir.Block) {
	fl.b.SetBlock(b)
	if !fl.started[b] {
		fl.started[b] = true
		fl.order = append(fl.order, b)
	}
}

// terminated reports whether the current block already ends (the code
// that follows is unreachable and is not emitted).
func (fl *fnLowerer) terminated() bool {
	return fl.b.B == nil || fl.b.B.Terminator() != nil
}

// br branches to dst unless the current block is already terminated.
func (fl *fnLowerer) br(dst *ir.Block) {
	if !fl.terminated() {
		fl.b.Br(dst)
	}
}

// alloca creates a function-memory variable of type t in the entry block
// (before any other instruction there, in creation order).
func (fl *fnLowerer) alloca(t *hlsl.Type, name string) *ir.Instr {
	return fl.allocaIR(fl.irType(t), name)
}

func (fl *fnLowerer) allocaIR(t *ir.Type, name string) *ir.Instr {
	if fl.nAllocas < len(fl.entryBlock.Instrs) {
		fl.allocaB.SetBefore(fl.entryBlock.Instrs[fl.nAllocas])
	} else {
		fl.allocaB.SetBlock(fl.entryBlock)
	}
	fl.allocaB.Loc = fl.b.Loc
	fl.nAllocas++
	return fl.allocaB.Alloca(t, name)
}

// local returns where a variable lives: a global, a parameter or a local
// (created on first use if its declaration was in unreachable code).
func (fl *fnLowerer) local(v *hlsl.VarDecl) *varInfo {
	if info := fl.locals[v]; info != nil {
		return info
	}
	if info := fl.globals[v]; info != nil {
		return info
	}
	if v.Kind == hlsl.VarLocal && v.Mods&hlsl.ModStatic == 0 && !v.Type.ContainsResource() {
		info := &varInfo{t: v.Type, ptr: fl.alloca(v.Type, v.Name), decl: v}
		fl.locals[v] = info
		return info
	}
	if v.Kind == hlsl.VarLocal && v.Mods&hlsl.ModStatic != 0 {
		return fl.lowerStatic(v, fl.f.Name()+"."+v.Name)
	}
	return nil
}
