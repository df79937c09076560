package hlsl

import "passlens/compiler/ir"

// Compile-time constants: static initializers become global initializers,
// and constant expressions (literals, their conversions, constructors of
// constants, arithmetic on them) become IR constants instead of
// instructions.

// maxConstComponents bounds the size of folded aggregates.
const maxConstComponents = 4096

// constValue folds e, converted to type t, to an IR constant.
func (l *lowerer) constValue(e Expr, t *Type) (*ir.Const, bool) {
	comps, ok := constComponents(e, 0)
	if !ok {
		return nil, false
	}
	want := t.FlatScalars(nil)
	switch {
	case len(comps) == 1 && len(want) > 1:
		for len(comps) < len(want) {
			comps = append(comps, comps[0])
		}
	case len(comps) < len(want):
		return nil, false
	}
	for i, s := range want {
		comps[i] = convertConst(comps[i], s)
	}
	k, rest := l.buildConst(t, comps)
	if k == nil || len(rest) != len(comps)-len(want) {
		return nil, false
	}
	return k, true
}

// buildConst builds the constant of type t from the leading flattened
// components and returns the unused rest.
func (l *lowerer) buildConst(t *Type, comps []Const) (*ir.Const, []Const) {
	it := l.irType(t)
	switch {
	case t.IsScalar():
		if len(comps) == 0 {
			return nil, nil
		}
		return scalarConst(it, comps[0]), comps[1:]
	case t.IsVector() && t.Len == 1:
		return l.buildConst(t.Elem, comps)
	case t.IsVector():
		if len(comps) < t.Len {
			return nil, nil
		}
		el := make([]*ir.Const, t.Len)
		for i := range el {
			el[i] = scalarConst(it.Elem, comps[i])
		}
		return aggregateConst(it, el), comps[t.Len:]
	case t.IsMatrix():
		rows := make([]*ir.Const, t.Rows)
		rt := rowType(t)
		for r := range rows {
			var k *ir.Const
			k, comps = l.buildConst(rt, comps)
			if k == nil {
				return nil, nil
			}
			rows[r] = k
		}
		return aggregateConst(it, rows), comps
	case t.Kind == KindArray:
		el := make([]*ir.Const, t.Len)
		for i := range el {
			var k *ir.Const
			k, comps = l.buildConst(t.Elem, comps)
			if k == nil {
				return nil, nil
			}
			el[i] = k
		}
		return aggregateConst(it, el), comps
	case t.Kind == KindStruct:
		el := make([]*ir.Const, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			var k *ir.Const
			k, comps = l.buildConst(f.Type, comps)
			if k == nil {
				return nil, nil
			}
			el[i] = k
		}
		return aggregateConst(it, el), comps
	}
	return nil, nil
}

// aggregateConst is ConstAggregate, or zero when every element is zero.
func aggregateConst(t *ir.Type, el []*ir.Const) *ir.Const {
	for _, e := range el {
		if !e.IsZeroValue() {
			return ir.ConstAggregate(t, el)
		}
	}
	return ir.ConstZero(t)
}

// scalarConst converts a folded scalar to an IR constant of type t.
func scalarConst(t *ir.Type, k Const) *ir.Const {
	switch t.Kind {
	case ir.KBool:
		return ir.ConstBool(t, k.truth())
	case ir.KFloat:
		return ir.ConstFloat(t, k.asFloat())
	}
	return ir.ConstInt(t, k.asInt())
}

// constComponents returns the flattened scalar components of e, if e is
// a constant expression without side effects (each component has the
// scalar type of e's flattened type).
func constComponents(e Expr, depth int) ([]Const, bool) {
	t := e.Type()
	if t == nil || t.IsError() || depth > 64 || t.ComponentCount() > maxConstComponents {
		return nil, false
	}
	if t.IsScalar() && constTree(e, depth) {
		if k, ok := constEval(e); ok {
			return []Const{convertConst(k, t)}, true
		}
	}
	switch x := e.(type) {
	case *Ident:
		v := x.Var
		if v == nil || v.Init == nil || v.Mods&ModConst == 0 || v.Kind == VarGlobal && v.Mods&ModStatic == 0 || v.Kind == VarBufferField || v.Kind == VarParam {
			return nil, false
		}
		return constComponents(v.Init, depth+1)
	case *Construct:
		return constList(x.Args, t, depth)
	case *InitList:
		return constList(x.Elems, t, depth)
	case *ImplicitCast:
		return constCast(x.X, t, x.Kind, depth)
	case *Cast:
		return constCast(x.X, t, x.Kind, depth)
	case *Swizzle:
		src, ok := constComponents(x.X, depth+1)
		if !ok {
			return nil, false
		}
		out := make([]Const, len(x.Comps))
		for i, c := range x.Comps {
			if c >= len(src) {
				return nil, false
			}
			out[i] = src[c]
		}
		return out, true
	case *Unary:
		src, ok := constComponents(x.X, depth+1)
		if !ok {
			return nil, false
		}
		out := make([]Const, len(src))
		for i, k := range src {
			r, ok := foldUnary(x.Op, k, t.Scalar())
			if !ok {
				return nil, false
			}
			out[i] = r
		}
		return out, true
	case *Binary:
		if x.Op.IsLogical() {
			return nil, false
		}
		a, ok1 := constComponents(x.X, depth+1)
		b, ok2 := constComponents(x.Y, depth+1)
		if !ok1 || !ok2 || len(a) != len(b) {
			return nil, false
		}
		out := make([]Const, len(a))
		for i := range a {
			r, ok := foldBinary(x.Op, a[i], b[i], t.Scalar())
			if !ok {
				return nil, false
			}
			out[i] = r
		}
		return out, true
	}
	return nil, false
}

// constList folds the concatenated components of args, converted to the
// flattened scalar types of t.
func constList(args []Expr, t *Type, depth int) ([]Const, bool) {
	var out []Const
	for _, a := range args {
		c, ok := constComponents(a, depth+1)
		if !ok {
			return nil, false
		}
		out = append(out, c...)
	}
	want := t.FlatScalars(nil)
	if len(out) != len(want) {
		return nil, false
	}
	for i, s := range want {
		out[i] = convertConst(out[i], s)
	}
	return out, true
}

// constCast folds a one-step conversion of x to t.
func constCast(x Expr, t *Type, kind CastKind, depth int) ([]Const, bool) {
	src, ok := constComponents(x, depth+1)
	if !ok {
		return nil, false
	}
	from := x.Type()
	want := t.FlatScalars(nil)
	var out []Const
	switch {
	case kind == CastToVoid:
		return nil, false
	case len(src) == 1 && len(want) >= 1:
		out = make([]Const, len(want))
		for i := range out {
			out[i] = src[0]
		}
	case from.IsMatrix() && t.IsMatrix() && (from.Rows != t.Rows || from.Cols != t.Cols):
		// Upper-left block.
		for r := 0; r < t.Rows; r++ {
			for c := 0; c < t.Cols; c++ {
				out = append(out, src[r*from.Cols+c])
			}
		}
	default:
		if len(src) < len(want) {
			return nil, false
		}
		out = src[:len(want)]
	}
	if len(out) != len(want) {
		return nil, false
	}
	res := make([]Const, len(out))
	for i, s := range want {
		res[i] = convertConst(out[i], s)
	}
	return res, true
}

// foldUnary folds a componentwise unary operator on one component.
func foldUnary(op UnaryOp, k Const, rt *Type) (Const, bool) {
	switch op {
	case OpPlus:
		return convertConst(k, rt), true
	case OpNeg:
		if k.Type.Kind == KindFloat {
			return convertConst(Const{Type: TypeFloat, Float: -k.Float}, rt), true
		}
		return convertConst(Const{Type: TypeInt, Int: -k.Int}, rt), true
	case OpNot:
		return Const{Type: TypeBool, Int: b2i(!k.truth())}, true
	case OpBitNot:
		if k.Type.Kind == KindFloat {
			return Const{}, false
		}
		return convertConst(Const{Type: TypeInt, Int: ^k.Int}, rt), true
	}
	return Const{}, false
}

// constTree reports whether the scalar expression e is made only of
// literals, constants, conversions and operators (no side effects, no
// variable reads), so constEval's value is the whole story.
func constTree(e Expr, depth int) bool {
	if depth > 64 {
		return false
	}
	switch x := e.(type) {
	case *IntLit, *FloatLit, *BoolLit:
		return true
	case *Ident:
		return x.Var != nil && x.Var.Const != nil
	case *ImplicitCast:
		return x.Kind != CastToVoid && constTree(x.X, depth+1)
	case *Cast:
		return x.Kind != CastToVoid && constTree(x.X, depth+1)
	case *Construct:
		return len(x.Args) == 1 && constTree(x.Args[0], depth+1)
	case *Unary:
		return x.Op <= OpBitNot && constTree(x.X, depth+1)
	case *Binary:
		return constTree(x.X, depth+1) && constTree(x.Y, depth+1)
	case *Cond:
		return constTree(x.C, depth+1) && constTree(x.A, depth+1) && constTree(x.B, depth+1)
	case *Swizzle:
		return constTree(x.X, depth+1)
	}
	return false
}
