package lower

import "passlens/compiler/hlsl"

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
