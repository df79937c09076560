package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Compile-time constants: static initializers become global initializers,
// and constant expressions (literals, their conversions, constructors of
// constants, arithmetic on them) become IR constants instead of
// instructions.

// maxConstComponents bounds the size of folded aggregates.
const maxConstComponents = 4096

// constValue folds e, converted to type t, to an IR constant.
func (l *lowerer) constValue(e hlsl.Expr, t *hlsl.Type) (*ir.Const, bool) {
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
		comps[i] = hlsl.ConvertConst(comps[i], s)
	}
	k, rest := l.buildConst(t, comps)
	if k == nil || len(rest) != len(comps)-len(want) {
		return nil, false
	}
	return k, true
}

// buildConst builds the constant of type t from the leading flattened
// components and returns the unused rest.
func (l *lowerer) buildConst(t *hlsl.Type, comps []hlsl.Const) (*ir.Const, []hlsl.Const) {
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
	case t.Kind == hlsl.KindArray:
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
	case t.Kind == hlsl.KindStruct:
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
func scalarConst(t *ir.Type, k hlsl.Const) *ir.Const {
	switch t.Kind {
	case ir.KBool:
		return ir.ConstBool(t, k.Truth())
	case ir.KFloat:
		return ir.ConstFloat(t, k.AsFloat())
	}
	return ir.ConstInt(t, k.AsInt())
}

// constComponents returns the flattened scalar components of e, if e is
// a constant expression without side effects (each component has the
// scalar type of e's flattened type).
func constComponents(e hlsl.Expr, depth int) ([]hlsl.Const, bool) {
	t := e.Type()
	if t == nil || t.IsError() || depth > 64 || t.ComponentCount() > maxConstComponents {
		return nil, false
	}
	if t.IsScalar() && constTree(e, depth) {
		if k, ok := hlsl.ConstEval(e); ok {
			return []hlsl.Const{hlsl.ConvertConst(k, t)}, true
		}
	}
	switch x := e.(type) {
	case *hlsl.Ident:
		v := x.Var
		if v == nil || v.Init == nil || v.Mods&hlsl.ModConst == 0 || v.Kind == hlsl.VarGlobal && v.Mods&hlsl.ModStatic == 0 || v.Kind == hlsl.VarBufferField || v.Kind == hlsl.VarParam {
			return nil, false
		}
		return constComponents(v.Init, depth+1)
	case *hlsl.Construct:
		return constList(x.Args, t, depth)
	case *hlsl.InitList:
		return constList(x.Elems, t, depth)
	case *hlsl.ImplicitCast:
		return constCast(x.X, t, x.Kind, depth)
	case *hlsl.Cast:
		return constCast(x.X, t, x.Kind, depth)
	case *hlsl.Swizzle:
		src, ok := constComponents(x.X, depth+1)
		if !ok {
			return nil, false
		}
		out := make([]hlsl.Const, len(x.Comps))
		for i, c := range x.Comps {
			if c >= len(src) {
				return nil, false
			}
			out[i] = src[c]
		}
		return out, true
	case *hlsl.Unary:
		src, ok := constComponents(x.X, depth+1)
		if !ok {
			return nil, false
		}
		out := make([]hlsl.Const, len(src))
		for i, k := range src {
			r, ok := foldUnary(x.Op, k, t.Scalar())
			if !ok {
				return nil, false
			}
			out[i] = r
		}
		return out, true
	case *hlsl.Binary:
		if x.Op.IsLogical() {
			return nil, false
		}
		a, ok1 := constComponents(x.X, depth+1)
		b, ok2 := constComponents(x.Y, depth+1)
		if !ok1 || !ok2 || len(a) != len(b) {
			return nil, false
		}
		out := make([]hlsl.Const, len(a))
		for i := range a {
			r, ok := hlsl.FoldBinary(x.Op, a[i], b[i], t.Scalar())
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
func constList(args []hlsl.Expr, t *hlsl.Type, depth int) ([]hlsl.Const, bool) {
	var out []hlsl.Const
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
		out[i] = hlsl.ConvertConst(out[i], s)
	}
	return out, true
}

// constCast folds a one-step conversion of x to t.
func constCast(x hlsl.Expr, t *hlsl.Type, kind hlsl.CastKind, depth int) ([]hlsl.Const, bool) {
	src, ok := constComponents(x, depth+1)
	if !ok {
		return nil, false
	}
	from := x.Type()
	want := t.FlatScalars(nil)
	var out []hlsl.Const
	switch {
	case kind == hlsl.CastToVoid:
		return nil, false
	case len(src) == 1 && len(want) >= 1:
		out = make([]hlsl.Const, len(want))
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
	res := make([]hlsl.Const, len(out))
	for i, s := range want {
		res[i] = hlsl.ConvertConst(out[i], s)
	}
	return res, true
}

// foldUnary folds a componentwise unary operator on one component.
func foldUnary(op hlsl.UnaryOp, k hlsl.Const, rt *hlsl.Type) (hlsl.Const, bool) {
	switch op {
	case hlsl.OpPlus:
		return hlsl.ConvertConst(k, rt), true
	case hlsl.OpNeg:
		if k.Type.Kind == hlsl.KindFloat {
			return hlsl.ConvertConst(hlsl.Const{Type: hlsl.TypeFloat, Float: -k.Float}, rt), true
		}
		return hlsl.ConvertConst(hlsl.Const{Type: hlsl.TypeInt, Int: -k.Int}, rt), true
	case hlsl.OpNot:
		return hlsl.Const{Type: hlsl.TypeBool, Int: hlsl.BoolInt(!k.Truth())}, true
	case hlsl.OpBitNot:
		if k.Type.Kind == hlsl.KindFloat {
			return hlsl.Const{}, false
		}
		return hlsl.ConvertConst(hlsl.Const{Type: hlsl.TypeInt, Int: ^k.Int}, rt), true
	}
	return hlsl.Const{}, false
}

// constTree reports whether the scalar expression e is made only of
// literals, constants, conversions and operators (no side effects, no
// variable reads), so constEval's value is the whole story.
func constTree(e hlsl.Expr, depth int) bool {
	if depth > 64 {
		return false
	}
	switch x := e.(type) {
	case *hlsl.IntLit, *hlsl.FloatLit, *hlsl.BoolLit:
		return true
	case *hlsl.Ident:
		return x.Var != nil && x.Var.Const != nil
	case *hlsl.ImplicitCast:
		return x.Kind != hlsl.CastToVoid && constTree(x.X, depth+1)
	case *hlsl.Cast:
		return x.Kind != hlsl.CastToVoid && constTree(x.X, depth+1)
	case *hlsl.Construct:
		return len(x.Args) == 1 && constTree(x.Args[0], depth+1)
	case *hlsl.Unary:
		return x.Op <= hlsl.OpBitNot && constTree(x.X, depth+1)
	case *hlsl.Binary:
		return constTree(x.X, depth+1) && constTree(x.Y, depth+1)
	case *hlsl.Cond:
		return constTree(x.C, depth+1) && constTree(x.A, depth+1) && constTree(x.B, depth+1)
	case *hlsl.Swizzle:
		return constTree(x.X, depth+1)
	}
	return false
}
