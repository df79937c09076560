package lower

import (
	"fmt"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Statements and structured control flow.
//
//	if:        condbr c, %if.then, %if.else|%if.end  (selection_merge %if.end)
//	for:       %for.cond (header: loop_merge %for.end, %for.inc; condbr c,
//	           %for.body, %for.end), %for.body, %for.inc (continue: the
//	           increment, br %for.cond), %for.end
//	while:     %while.cond, %while.body, %while.cont, %while.end, likewise
//	do-while:  %do.header (loop_merge %do.end, %do.cond; br %do.body),
//	           %do.body, %do.cond (continue: condbr c, %do.header, %do.end),
//	           %do.end
//	switch:    switch on the tag (selection_merge %sw.end) with one label
//	           group per case clause in source order (default where it was
//	           written), blocks %sw.caseV / %sw.default; a clause whose body
//	           falls off its end branches to the next clause's block.
//
// A loop condition whose evaluation needs blocks of its own (&&, ||, a
// ternary that is not a select) is evaluated in a block after the header
// (%for.cond after %for.header), because the header's terminator carries
// the loop_merge. break branches to the innermost loop or switch merge,
// continue to the innermost loop's continue block. Code after a
// terminator (return, break, continue, discard) is unreachable and not
// emitted.

// stmts lowers a statement list.
func (fl *fnLowerer) stmts(list []hlsl.Stmt) {
	for _, s := range list {
		fl.stmt(s)
	}
}

// stmt lowers one statement.
func (fl *fnLowerer) stmt(s hlsl.Stmt) {
	if s == nil || fl.terminated() {
		return
	}
	fl.atNode(s)
	switch s := s.(type) {
	case *hlsl.Block:
		fl.stmts(s.Stmts)
	case *hlsl.DeclStmt:
		for _, v := range s.Vars {
			fl.declVar(v)
		}
	case *hlsl.ExprStmt:
		fl.rv(s.X)
	case *hlsl.EmptyStmt:
	case *hlsl.IfStmt:
		fl.ifStmt(s)
	case *hlsl.ForStmt:
		fl.forStmt(s)
	case *hlsl.WhileStmt:
		fl.whileStmt(s)
	case *hlsl.DoWhileStmt:
		fl.doStmt(s)
	case *hlsl.SwitchStmt:
		fl.switchStmt(s)
	case *hlsl.BreakStmt:
		if n := len(fl.breaks); n > 0 {
			fl.b.Br(fl.breaks[n-1])
		}
	case *hlsl.ContinueStmt:
		if n := len(fl.continues); n > 0 {
			fl.b.Br(fl.continues[n-1])
		}
	case *hlsl.ReturnStmt:
		fl.returnStmt(s)
	case *hlsl.DiscardStmt:
		fl.discard()
	case *hlsl.CaseLabel:
		fl.errorf(s, "case label outside a switch")
	default:
		fl.errorf(s, "cannot lower statement of type %T", s)
	}
}

// declVar lowers a local variable declaration.
func (fl *fnLowerer) declVar(v *hlsl.VarDecl) {
	fl.at(v.NamePos)
	switch {
	case v.Mods&hlsl.ModStatic != 0:
		// Initialized once, as a private global.
		if fl.globals[v] == nil {
			fl.lowerStatic(v, fl.f.Name()+"."+v.Name)
		}
		return
	case hlsl.IsBufferResource(v.Type) && v.Init != nil && !v.Reassigned && fl.staticResource(v.Init) != nil:
		// An alias of a global buffer (lower_resvalue.go).
		d := fl.staticResource(v.Init)
		fl.locals[v] = &varInfo{t: v.Type, value: fl.local(d).value, alias: d, decl: v}
		return
	case v.Type.ContainsResource() && onlyBuffers(v.Type):
		// Buffer ids in memory: the ordinary path below.
	case v.Type.Kind == hlsl.KindResource:
		if v.Init == nil {
			fl.errorf(v, "local resource '%s' must be initialized", v.Name)
			return
		}
		fl.locals[v] = &varInfo{t: v.Type, value: fl.resourcePtr(v.Init), decl: v}
		return
	case v.Type.ContainsResource():
		fl.errorf(v, "local arrays and structs of resources ('%s') are not supported", v.Type)
		return
	}
	info := fl.locals[v]
	if info == nil {
		info = &varInfo{t: v.Type, ptr: fl.alloca(v.Type, v.Name), decl: v}
		fl.locals[v] = info
	}
	if v.Init == nil {
		return
	}
	val := fl.initValue(v.Init, v.Type)
	fl.at(v.NamePos)
	fl.b.Store(val, info.ptr)
}

// initValue evaluates an initializer (an expression or a flattened
// initializer list) converted to type t.
func (fl *fnLowerer) initValue(init hlsl.Expr, t *hlsl.Type) ir.Value {
	if il, ok := init.(*hlsl.InitList); ok {
		return fl.initList(il, t)
	}
	return fl.convert(fl.rv(init), init.Type(), t)
}

// cond evaluates a condition (a bool scalar after checking).
func (fl *fnLowerer) cond(e hlsl.Expr) ir.Value {
	v := fl.rv(e)
	return fl.convert(v, e.Type(), hlsl.TypeBool)
}

func (fl *fnLowerer) ifStmt(s *hlsl.IfStmt) {
	c := fl.cond(s.Cond)
	then := fl.newBlock("if.then")
	var els *ir.Block
	if s.Else != nil {
		els = fl.newBlock("if.else")
	}
	end := fl.newBlock("if.end")
	fl.atNode(s)
	target := end
	if els != nil {
		target = els
	}
	fl.b.CondBr(c, then, target).SetSelectionMerge(end)
	fl.setBlock(then)
	fl.stmt(s.Then)
	fl.br(end)
	if els != nil {
		fl.setBlock(els)
		fl.stmt(s.Else)
		fl.br(end)
	}
	fl.setBlock(end)
}

// loop lowers the common shape of for and while loops.
func (fl *fnLowerer) loop(kind string, n hlsl.Node, cond hlsl.Expr, body hlsl.Stmt, post hlsl.Expr) {
	contName := kind + ".cont"
	if kind == "for" {
		contName = "for.inc"
	}
	if cond != nil && hlsl.AlwaysTrue(cond) && constTree(cond, 0) {
		cond = nil // while (true): the header just enters the body
	}
	split := cond != nil && needsBlocks(cond)
	var header, condB *ir.Block
	if split {
		header = fl.newBlock(kind + ".header")
		condB = fl.newBlock(kind + ".cond")
	} else {
		header = fl.newBlock(kind + ".cond")
		condB = header
	}
	bodyB := fl.newBlock(kind + ".body")
	cont := fl.newBlock(contName)
	end := fl.newBlock(kind + ".end")
	fl.atNode(n)
	fl.br(header)
	fl.setBlock(header)
	if split {
		fl.atNode(n)
		fl.b.Br(condB).SetLoopMerge(end, cont)
		fl.setBlock(condB)
	}
	if cond != nil {
		c := fl.cond(cond)
		if !split && fl.b.B != header {
			fl.errorf(cond, "internal compiler error: loop condition evaluation left its block")
		}
		fl.atNode(cond)
		t := fl.b.CondBr(c, bodyB, end)
		if !split {
			t.SetLoopMerge(end, cont)
		}
	} else {
		fl.b.Br(bodyB).SetLoopMerge(end, cont)
	}
	fl.loops = append(fl.loops, loopInfo{header: header, cont: cont, merge: end})
	fl.setBlock(bodyB)
	fl.pushLoop(end, cont)
	fl.stmt(body)
	fl.popLoop()
	fl.br(cont)
	fl.setBlock(cont)
	if post != nil {
		fl.rv(post)
	}
	fl.atNode(n)
	fl.br(header)
	fl.setBlock(end)
}

func (fl *fnLowerer) forStmt(s *hlsl.ForStmt) {
	if s.Init != nil {
		fl.stmt(s.Init)
	}
	if fl.terminated() {
		return
	}
	fl.loop("for", s, s.Cond, s.Body, s.Post)
}

func (fl *fnLowerer) whileStmt(s *hlsl.WhileStmt) {
	fl.loop("while", s, s.Cond, s.Body, nil)
}

func (fl *fnLowerer) doStmt(s *hlsl.DoWhileStmt) {
	header := fl.newBlock("do.header")
	bodyB := fl.newBlock("do.body")
	cont := fl.newBlock("do.cond")
	end := fl.newBlock("do.end")
	fl.br(header)
	fl.setBlock(header)
	fl.atNode(s)
	fl.b.Br(bodyB).SetLoopMerge(end, cont)
	fl.loops = append(fl.loops, loopInfo{header: header, cont: cont, merge: end})
	fl.setBlock(bodyB)
	fl.pushLoop(end, cont)
	fl.stmt(s.Body)
	fl.popLoop()
	fl.br(cont)
	fl.setBlock(cont)
	if s.Cond != nil {
		c := fl.cond(s.Cond)
		fl.atNode(s.Cond)
		fl.b.CondBr(c, header, end)
	} else {
		fl.b.Br(header)
	}
	fl.setBlock(end)
}

func (fl *fnLowerer) pushLoop(brk, cont *ir.Block) {
	fl.breaks = append(fl.breaks, brk)
	fl.continues = append(fl.continues, cont)
}

func (fl *fnLowerer) popLoop() {
	fl.breaks = fl.breaks[:len(fl.breaks)-1]
	fl.continues = fl.continues[:len(fl.continues)-1]
}

func (fl *fnLowerer) switchStmt(s *hlsl.SwitchStmt) {
	tag := fl.rv(s.Tag)
	tagT := s.Tag.Type()
	if !tagT.IsScalar() {
		tag = fl.convert(tag, tagT, tagT.Scalar())
	}
	blocks := make([]*ir.Block, len(s.Cases))
	var cases []ir.SwitchCase
	hasDefault := false
	for i, cl := range s.Cases {
		name := "sw.default"
		if !cl.HasDefault && len(cl.Values) > 0 {
			name = fmt.Sprintf("sw.case%d", cl.Values[0])
		}
		blocks[i] = fl.newBlock(name)
		hasDefault = hasDefault || cl.HasDefault
		cases = append(cases, ir.SwitchCase{Values: append([]int64(nil), cl.Values...), Default: cl.HasDefault, Target: blocks[i]})
	}
	end := fl.newBlock("sw.end")
	if !hasDefault {
		cases = append(cases, ir.SwitchCase{Default: true, Target: end})
	}
	fl.atNode(s)
	fl.b.Switch(tag, cases).SetSelectionMerge(end)
	fl.breaks = append(fl.breaks, end)
	for i, cl := range s.Cases {
		fl.setBlock(blocks[i])
		fl.stmts(cl.Body)
		next := end
		if i+1 < len(blocks) {
			next = blocks[i+1]
		}
		fl.br(next)
	}
	fl.breaks = fl.breaks[:len(fl.breaks)-1]
	fl.setBlock(end)
}

func (fl *fnLowerer) returnStmt(s *hlsl.ReturnStmt) {
	var v ir.Value
	if s.X != nil {
		v = fl.rv(s.X)
		if s.X.Type().Kind == hlsl.KindVoid {
			v = nil
		}
	}
	if fl.terminated() {
		return
	}
	fl.atNode(s)
	switch {
	case fl.entry != nil:
		fl.entryReturn(v)
	case fl.f.Ret == ir.Void || v == nil:
		fl.b.Ret(nil)
	default:
		fl.b.Ret(v)
	}
}
