package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Expressions. rv evaluates an expression to an SSA value of its logical
// IR type (nil for void). Constant expressions become IR constants;
// variables and their parts are loaded through places (lower_lvalue.go);
// operators map to IR instructions componentwise, row by row for
// matrices. && and || on scalars short-circuit with control flow
// (selection_merge, phi); c ? a : b is a select when both operands are
// cheap and free of side effects, else control flow with a phi.

// rv evaluates e.
func (fl *fnLowerer) rv(e hlsl.Expr) ir.Value {
	if e == nil {
		return nil
	}
	t := e.Type()
	if t == nil || t.IsError() {
		fl.errorf(e, "cannot lower an expression with errors")
		return ir.ConstUndef(ir.I32)
	}
	if t.IsNumeric() && foldable(e) {
		if comps, ok := constComponents(e, 0); ok {
			if k, rest := fl.buildConst(t, comps); k != nil && len(rest) == 0 {
				return k
			}
		}
	}
	if hlsl.IsBufferResource(t) {
		if id := fl.globalResourceID(e); id != nil {
			return id
		}
	}
	if t.Kind == hlsl.KindArray {
		if ids := fl.globalResourceArray(e); ids != nil {
			return ids // lower_resvalue.go
		}
	}
	fl.atNode(e)
	switch x := e.(type) {
	case *hlsl.IntLit:
		return ir.ConstInt(fl.irType(t), int64(x.Value))
	case *hlsl.FloatLit:
		return ir.ConstFloat(fl.irType(t), x.Value)
	case *hlsl.BoolLit:
		return ir.ConstBool(fl.irType(t), x.Value)
	case *hlsl.Ident:
		return fl.identValue(x)
	case *hlsl.Member:
		if fl.addressable(x) {
			return fl.load(fl.lvalue(x))
		}
		v := fl.rv(x.X)
		fl.atNode(x)
		return fl.b.ExtractValue(v, []int{x.Field.Index}, x.Name)
	case *hlsl.Swizzle:
		if fl.addressable(x) {
			return fl.load(fl.lvalue(x))
		}
		v := fl.rv(x.X)
		fl.atNode(x)
		return fl.swizzle(v, x.X.Type(), x.Comps)
	case *hlsl.Index:
		if v := fl.cbufferArrayValue(x); v != nil {
			return v // lower_cbuffer_local.go
		}
		if fl.addressable(x) {
			return fl.load(fl.lvalue(x))
		}
		return fl.indexValue(x)
	case *hlsl.Unary:
		return fl.unary(x)
	case *hlsl.Binary:
		return fl.binary(x)
	case *hlsl.Assign:
		return fl.assign(x)
	case *hlsl.Cond:
		return fl.ternary(x)
	case *hlsl.Comma:
		fl.rv(x.X)
		return fl.rv(x.Y)
	case *hlsl.Call:
		if x.Intrinsic != nil {
			return fl.intrinsicCall(x)
		}
		if x.Legacy != nil {
			return fl.legacyTexCall(x)
		}
		return fl.userCall(x)
	case *hlsl.MethodCall:
		return fl.methodCall(x)
	case *hlsl.Construct:
		return fl.constructExpr(x)
	case *hlsl.Cast:
		v := fl.rv(x.X)
		fl.atNode(x)
		return fl.convert(v, x.X.Type(), t)
	case *hlsl.ImplicitCast:
		v := fl.rv(x.X)
		fl.atNode(x)
		return fl.convert(v, x.X.Type(), t)
	case *hlsl.InitList:
		return fl.initList(x, t)
	}
	fl.errorf(e, "cannot lower expression of type %T", e)
	return ir.ConstUndef(fl.irType(t))
}

// foldable reports whether e may be a constant expression worth trying to
// fold (cheap to test: the node kinds constComponents handles).
func foldable(e hlsl.Expr) bool {
	switch x := e.(type) {
	case *hlsl.IntLit, *hlsl.FloatLit, *hlsl.BoolLit, *hlsl.Construct, *hlsl.Cast, *hlsl.ImplicitCast, *hlsl.Swizzle, *hlsl.InitList:
		return true
	case *hlsl.Unary:
		return x.Op <= hlsl.OpBitNot
	case *hlsl.Binary:
		return !x.Op.IsLogical()
	case *hlsl.Ident:
		return x.Var != nil && x.Var.Mods&hlsl.ModConst != 0
	case *hlsl.Cond:
		return constTree(x.C, 0)
	}
	return false
}

// identValue reads a variable.
func (fl *fnLowerer) identValue(x *hlsl.Ident) ir.Value {
	info := fl.local(x.Var)
	switch {
	case info == nil:
		fl.errorf(x, "cannot lower the variable '%s'", x.Name)
		return ir.ConstUndef(fl.irType(x.T))
	case info.konst != nil:
		return info.konst
	case info.value != nil:
		return info.value
	}
	return fl.load(fl.lvalue(x))
}

// indexValue is x[i] on a value that is not in memory.
func (fl *fnLowerer) indexValue(x *hlsl.Index) ir.Value {
	xt := x.X.Type()
	v := fl.rv(x.X)
	k, isConst := constIndex(x.Index)
	var idx ir.Value
	if !isConst {
		idx = fl.rv(x.Index)
	}
	fl.atNode(x)
	switch {
	case isConst && (xt.IsVector() || xt.IsMatrix() || xt.Kind == hlsl.KindArray):
		if xt.IsVector() && xt.Len == 1 {
			return v
		}
		return fl.b.ExtractValue(v, []int{int(k)}, "elem")
	case xt.IsVector() && xt.Len == 1:
		return v
	case xt.IsVector():
		return fl.b.ExtractElem(v, idx, "elem")
	case xt.IsMatrix() || xt.Kind == hlsl.KindArray:
		// A dynamic index into a value: through a temporary, as clang does.
		tmp := fl.alloca(xt, "tmp")
		fl.b.Store(v, tmp)
		return fl.b.Load(fl.b.Access(tmp, []ir.Value{idx}, "elem.p"), "elem")
	}
	fl.errorf(x, "cannot index a value of type '%s'", xt)
	return ir.ConstUndef(fl.irType(x.T))
}

// constructExpr lowers T(args) for a vector or matrix T: the flattened
// components of the arguments, in order, converted to T's component type.
func (fl *fnLowerer) constructExpr(x *hlsl.Construct) ir.Value {
	t := x.T
	s := t.Scalar()
	var comps []ir.Value
	for _, a := range x.Args {
		v := fl.rv(a)
		fl.atNode(x)
		at := a.Type()
		fs := at.FlatScalars(nil)
		for i, c := range fl.flatten(v, at) {
			comps = append(comps, fl.castScalar(c, fs[i], s))
		}
	}
	if len(comps) < t.Dim() {
		fl.errorf(x, "internal compiler error: constructor has %d components for '%s'", len(comps), t)
		return ir.ConstUndef(fl.irType(t))
	}
	v, _ := fl.build(t, comps)
	return v
}

// unary lowers prefix and postfix operators.
func (fl *fnLowerer) unary(x *hlsl.Unary) ir.Value {
	t := x.T
	switch x.Op {
	case hlsl.OpPlus:
		return fl.rv(x.X)
	case hlsl.OpNeg, hlsl.OpNot, hlsl.OpBitNot:
		v := fl.rv(x.X)
		fl.atNode(x)
		return fl.mapNumeric(t, []ir.Value{v}, func(a []ir.Value) ir.Value {
			switch {
			case x.Op == hlsl.OpNeg && t.IsFloat():
				return fl.b.Unary(ir.OpFNeg, a[0], "neg")
			case x.Op == hlsl.OpNeg:
				return fl.b.Unary(ir.OpNeg, a[0], "neg")
			case x.Op == hlsl.OpNot:
				return fl.b.Unary(ir.OpNot, a[0], "lnot")
			}
			return fl.b.Unary(ir.OpNot, a[0], "not")
		})
	}
	// ++ and --.
	pl := fl.lvalue(x.X)
	if pl == nil {
		return ir.ConstUndef(fl.irType(t))
	}
	fl.atNode(x)
	old := fl.load(pl)
	inc := x.Op == hlsl.OpPreInc || x.Op == hlsl.OpPostInc
	name := "dec"
	if inc {
		name = "inc"
	}
	nv := fl.mapNumeric(t, []ir.Value{old}, func(a []ir.Value) ir.Value {
		vt := a[0].Type()
		if t.IsFloat() {
			op := ir.OpFSub
			if inc {
				op = ir.OpFAdd
			}
			return fl.b.Binary(op, a[0], ir.ConstFloat(vt, 1), name)
		}
		op := ir.OpSub
		if inc {
			op = ir.OpAdd
		}
		return fl.b.Binary(op, a[0], ir.ConstInt(vt, 1), name)
	})
	fl.store(pl, nv)
	if x.Op == hlsl.OpPostInc || x.Op == hlsl.OpPostDec {
		return old
	}
	return nv
}

// mapNumeric applies f to scalar/vector operands directly and to matrix
// operands row by row (t is the result type).
func (fl *fnLowerer) mapNumeric(t *hlsl.Type, args []ir.Value, f func([]ir.Value) ir.Value) ir.Value {
	for _, a := range args {
		if a.Type().Kind == ir.KMatrix {
			return fl.mapRows(t, args, f)
		}
	}
	return f(args)
}

// binary lowers a binary operator (operands already of the operation
// type).
func (fl *fnLowerer) binary(x *hlsl.Binary) ir.Value {
	if x.Op.IsLogical() && x.OpType.IsScalar() {
		return fl.shortCircuit(x)
	}
	a := fl.rv(x.X)
	b := fl.rv(x.Y)
	fl.atNode(x)
	return fl.arith(x.Op, a, b, x.OpType)
}

// arith emits a componentwise binary operation on values of type t (for
// comparisons the result is bool of t's shape).
func (fl *fnLowerer) arith(op hlsl.BinaryOp, a, b ir.Value, t *hlsl.Type) ir.Value {
	rt := t
	if op.IsComparison() || op.IsLogical() {
		rt = boolOf(t)
	}
	s := t.Scalar().Kind
	return fl.mapNumeric(rt, []ir.Value{a, b}, func(v []ir.Value) ir.Value {
		x, y := v[0], v[1]
		if op.IsComparison() {
			return fl.compare(op, x, y, s)
		}
		var o ir.Op
		name := binaryOpNames[op]
		switch op {
		case hlsl.OpAdd:
			o = pick3(s, ir.OpAdd, ir.OpAdd, ir.OpFAdd)
		case hlsl.OpSub:
			o = pick3(s, ir.OpSub, ir.OpSub, ir.OpFSub)
		case hlsl.OpMul:
			o = pick3(s, ir.OpMul, ir.OpMul, ir.OpFMul)
		case hlsl.OpDiv:
			o = pick3(s, ir.OpSDiv, ir.OpUDiv, ir.OpFDiv)
		case hlsl.OpRem:
			o = pick3(s, ir.OpSRem, ir.OpURem, ir.OpFRem)
		case hlsl.OpShl:
			o = ir.OpShl
		case hlsl.OpShr:
			o = pick3(s, ir.OpAShr, ir.OpLShr, ir.OpLShr)
		case hlsl.OpAnd, hlsl.OpLogAnd:
			o = ir.OpAnd
		case hlsl.OpOr, hlsl.OpLogOr:
			o = ir.OpOr
		case hlsl.OpXor:
			o = ir.OpXor
		}
		return fl.b.Binary(o, x, y, name)
	})
}

var binaryOpNames = map[hlsl.BinaryOp]string{
	hlsl.OpAdd: "add", hlsl.OpSub: "sub", hlsl.OpMul: "mul", hlsl.OpDiv: "div", hlsl.OpRem: "rem", hlsl.OpShl: "shl", hlsl.OpShr: "shr",
	hlsl.OpAnd: "and", hlsl.OpOr: "or", hlsl.OpXor: "xor", hlsl.OpLogAnd: "land", hlsl.OpLogOr: "lor",
}

// pick3 chooses the signed-int, unsigned-int or float opcode (bool uses
// the integer one).
func pick3(s hlsl.Kind, i, u, f ir.Op) ir.Op {
	switch s {
	case hlsl.KindFloat:
		return f
	case hlsl.KindUint:
		return u
	}
	return i
}

// compare emits a comparison of scalars/vectors with component kind s.
// Float != is unordered (true for NaN), the others ordered, as in HLSL.
func (fl *fnLowerer) compare(op hlsl.BinaryOp, x, y ir.Value, s hlsl.Kind) ir.Value {
	if s == hlsl.KindBool && op != hlsl.OpEq && op != hlsl.OpNe {
		// Ordered comparisons of bools compare them as 0/1.
		t := x.Type().WithScalar(ir.U32)
		x = fl.b.Cast(ir.OpZExt, x, t, "conv")
		y = fl.b.Cast(ir.OpZExt, y, t, "conv")
		s = hlsl.KindUint
	}
	var p ir.CmpPred
	i := int(op - hlsl.OpLt) // Lt Gt Le Ge Eq Ne
	switch s {
	case hlsl.KindFloat:
		p = [...]ir.CmpPred{ir.PredOLT, ir.PredOGT, ir.PredOLE, ir.PredOGE, ir.PredOEQ, ir.PredUNE}[i]
	case hlsl.KindUint:
		p = [...]ir.CmpPred{ir.PredULT, ir.PredUGT, ir.PredULE, ir.PredUGE, ir.PredEQ, ir.PredNE}[i]
	default:
		p = [...]ir.CmpPred{ir.PredSLT, ir.PredSGT, ir.PredSLE, ir.PredSGE, ir.PredEQ, ir.PredNE}[i]
	}
	return fl.b.Cmp(p, x, y, "cmp")
}

// shortCircuit lowers scalar && and || with control flow: the right
// operand is evaluated only when needed, and a phi merges the result.
func (fl *fnLowerer) shortCircuit(x *hlsl.Binary) ir.Value {
	and := x.Op == hlsl.OpLogAnd
	prefix := "lor"
	if and {
		prefix = "land"
	}
	a := fl.cond(x.X)
	rhs := fl.newBlock(prefix + ".rhs")
	end := fl.newBlock(prefix + ".end")
	from := fl.b.B
	fl.atNode(x)
	var t *ir.Instr
	if and {
		t = fl.b.CondBr(a, rhs, end)
	} else {
		t = fl.b.CondBr(a, end, rhs)
	}
	t.SetSelectionMerge(end)
	fl.setBlock(rhs)
	b := fl.cond(x.Y)
	rhsEnd := fl.b.B
	fl.atNode(x)
	fl.b.Br(end)
	fl.setBlock(end)
	phi := fl.b.Phi(ir.Bool, prefix)
	phi.AddIncoming(ir.ConstBool(ir.Bool, !and), from)
	phi.AddIncoming(b, rhsEnd)
	return fl.convert(phi, hlsl.TypeBool, x.T)
}

// ternary lowers c ? a : b.
func (fl *fnLowerer) ternary(x *hlsl.Cond) ir.Value {
	if selectable(x) {
		c := fl.cond(x.C)
		a := fl.rv(x.A)
		b := fl.rv(x.B)
		fl.atNode(x)
		return fl.b.Select(c, a, b, "cond")
	}
	c := fl.cond(x.C)
	tb := fl.newBlock("cond.true")
	fb := fl.newBlock("cond.false")
	end := fl.newBlock("cond.end")
	fl.atNode(x)
	fl.b.CondBr(c, tb, fb).SetSelectionMerge(end)
	fl.setBlock(tb)
	a := fl.rv(x.A)
	tEnd := fl.b.B
	fl.b.Br(end)
	fl.setBlock(fb)
	b := fl.rv(x.B)
	fEnd := fl.b.B
	fl.b.Br(end)
	fl.setBlock(end)
	if x.T.Kind == hlsl.KindVoid || a == nil || b == nil {
		return nil
	}
	phi := fl.b.Phi(fl.irType(x.T), "cond")
	phi.AddIncoming(a, tEnd)
	phi.AddIncoming(b, fEnd)
	return phi
}

// selectable reports whether a ternary can be a select: scalar or vector
// operands that are cheap and have no side effects (evaluating both is
// then unobservable).
func selectable(x *hlsl.Cond) bool {
	t := x.T
	if !(t.IsScalar() || t.IsVector()) {
		return false
	}
	budget := 12
	return cheap(x.A, &budget) && cheap(x.B, &budget)
}

// cheap reports whether e is side-effect free and small: literals,
// variable reads, member/element/swizzle accesses, arithmetic and
// conversions, within a node budget.
func cheap(e hlsl.Expr, budget *int) bool {
	*budget--
	if *budget < 0 {
		return false
	}
	switch x := e.(type) {
	case *hlsl.IntLit, *hlsl.FloatLit, *hlsl.BoolLit:
		return true
	case *hlsl.Ident:
		return x.Var != nil && !x.Var.Type.ContainsResource()
	case *hlsl.Member:
		return cheap(x.X, budget)
	case *hlsl.Swizzle:
		return cheap(x.X, budget)
	case *hlsl.Index:
		if x.X.Type().Kind == hlsl.KindResource {
			return false
		}
		return cheap(x.X, budget) && cheap(x.Index, budget)
	case *hlsl.Unary:
		return x.Op <= hlsl.OpBitNot && cheap(x.X, budget)
	case *hlsl.Binary:
		return !x.Op.IsLogical() && cheap(x.X, budget) && cheap(x.Y, budget)
	case *hlsl.ImplicitCast:
		return cheap(x.X, budget)
	case *hlsl.Cast:
		return x.Kind != hlsl.CastToVoid && cheap(x.X, budget)
	case *hlsl.Construct:
		for _, a := range x.Args {
			if !cheap(a, budget) {
				return false
			}
		}
		return true
	}
	return false
}

// needsBlocks reports whether lowering e may create blocks (short-circuit
// operators, control-flow ternaries, clip), so a loop condition using it
// cannot live in the loop header. It may err on the side of true.
func needsBlocks(e hlsl.Expr) bool {
	found := false
	walkExpr(e, func(x hlsl.Expr) bool {
		switch x := x.(type) {
		case *hlsl.Binary:
			if x.Op.IsLogical() {
				found = true
			}
		case *hlsl.Cond:
			if !selectable(x) {
				found = true
			}
		case *hlsl.Call:
			if x.Intrinsic != nil && x.Intrinsic.Name == "clip" {
				found = true
			}
		}
		return !found
	})
	return found
}

// walkExpr calls f on e and its subexpressions (pre-order) while f
// returns true.
func walkExpr(e hlsl.Expr, f func(hlsl.Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch x := e.(type) {
	case *hlsl.Unary:
		walkExpr(x.X, f)
	case *hlsl.Binary:
		walkExpr(x.X, f)
		walkExpr(x.Y, f)
	case *hlsl.Assign:
		walkExpr(x.LHS, f)
		walkExpr(x.RHS, f)
	case *hlsl.Cond:
		walkExpr(x.C, f)
		walkExpr(x.A, f)
		walkExpr(x.B, f)
	case *hlsl.Comma:
		walkExpr(x.X, f)
		walkExpr(x.Y, f)
	case *hlsl.Call:
		for _, a := range x.Args {
			walkExpr(a, f)
		}
	case *hlsl.MethodCall:
		walkExpr(x.Recv, f)
		for _, a := range x.Args {
			walkExpr(a, f)
		}
	case *hlsl.Construct:
		for _, a := range x.Args {
			walkExpr(a, f)
		}
	case *hlsl.Cast:
		walkExpr(x.X, f)
	case *hlsl.ImplicitCast:
		walkExpr(x.X, f)
	case *hlsl.Member:
		walkExpr(x.X, f)
	case *hlsl.Swizzle:
		walkExpr(x.X, f)
	case *hlsl.Index:
		walkExpr(x.X, f)
		walkExpr(x.Index, f)
	case *hlsl.InitList:
		for _, a := range x.Elems {
			walkExpr(a, f)
		}
	}
}

// assign lowers = and compound assignments; the value is the stored one.
// The right side is evaluated first (as C++17 and clang do).
func (fl *fnLowerer) assign(x *hlsl.Assign) ir.Value {
	lt := x.LHS.Type()
	if !x.Compound {
		v := fl.rv(x.RHS)
		pl := fl.lvalue(x.LHS)
		if pl == nil {
			return v
		}
		fl.atNode(x)
		v = fl.convert(v, x.RHS.Type(), lt)
		fl.store(pl, v)
		return v
	}
	r := fl.rv(x.RHS)
	pl := fl.lvalue(x.LHS)
	if pl == nil {
		return r
	}
	fl.atNode(x)
	old := fl.load(pl)
	a := fl.convert(old, lt, x.OpType)
	res := fl.arith(x.Op, a, fl.convert(r, x.RHS.Type(), x.OpType), x.OpType)
	nv := fl.convert(res, x.OpType, lt)
	fl.store(pl, nv)
	return nv
}
