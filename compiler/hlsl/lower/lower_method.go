package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Member functions (hlsl/struct_decl.go) are ordinary IR functions named
// Struct.method whose first parameter, for a non-static one, is the
// object 'this', passed inout: the object is copied in and, when the
// receiver can be written (a local, a parameter, a static or groupshared
// variable, an element of a writable buffer), copied back after the call.
// A receiver that cannot be written (a global resource struct, a constant
// buffer member, an element of a read-only buffer, an rvalue) is passed as
// a copy, so writes to its fields inside the method stay local to the
// call.

// funcName is the IR name of a user function.
func funcName(fd *hlsl.FuncDecl) string {
	if fd.Owner != nil && fd.Owner.Name != "" {
		return fd.Owner.Name + "." + fd.Name
	}
	return fd.Name
}

// writableObject reports whether a method's object e can be written back.
func (fl *fnLowerer) writableObject(e hlsl.Expr) bool {
	if !fl.addressable(e) {
		return false
	}
	x := stripNoop(e)
	for {
		switch y := x.(type) {
		case *hlsl.Member:
			x = stripNoop(y.X)
			continue
		case *hlsl.Swizzle:
			x = stripNoop(y.X)
			continue
		case *hlsl.Index:
			if t := y.X.Type(); t.Kind == hlsl.KindResource {
				return t.Resource.Writable()
			}
			x = stripNoop(y.X)
			continue
		case *hlsl.Ident:
			v := y.Var
			if v == nil || v.Buffer != nil || v.Mods&hlsl.ModConst != 0 {
				return false
			}
			if v.Kind == hlsl.VarParam && v.Mods&hlsl.ModUniform != 0 {
				return false
			}
			return v.Kind != hlsl.VarGlobal || v.Mods&(hlsl.ModStatic|hlsl.ModGroupshared) != 0
		}
		return false
	}
}

// baseView passes derived object a to a member function of its base
// struct bt: a temporary holding a's first fields (the base's, which come
// first in a derived struct). When a can be written back, the returned
// outArg copies the temporary's fields back into a after the call.
func (fl *fnLowerer) baseView(a hlsl.Expr, bt *hlsl.Type) (ir.Value, *outArg) {
	fl.atNode(a)
	obj := fl.rv(a)
	var v ir.Value = ir.ConstUndef(fl.irType(bt))
	for i := range bt.Struct.Fields {
		v = fl.b.InsertValue(v, fl.b.ExtractValue(obj, []int{i}, "base.f"), []int{i}, "base")
	}
	tmp := fl.alloca(bt, "this.base")
	fl.b.Store(v, tmp)
	if !fl.writableObject(a) {
		return tmp, nil
	}
	pl, at := fl.outPlace(a)
	return tmp, &outArg{pl: pl, tmp: tmp, pt: bt, at: at, base: true}
}

// mergeBase writes base value v (of struct bt) into the first fields of
// derived value obj.
func (fl *fnLowerer) mergeBase(obj, v ir.Value, bt *hlsl.Type) ir.Value {
	for i := range bt.Struct.Fields {
		obj = fl.b.InsertValue(obj, fl.b.ExtractValue(v, []int{i}, "base.f"), []int{i}, "derived")
	}
	return obj
}
