package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Calls of user functions follow the convention of passes/inline.go: an
// `in` argument is passed by value; an `out` or `inout` argument gets a
// temporary alloca in the caller (`%param.tmp`), filled from the argument
// before the call for inout (copy-in, converted to the parameter type),
// passed by pointer, and copied back to the argument after the call
// (copy-out, converted back to the argument's type). The argument's place
// is computed once, before the call. Buffers are passed as their
// pointers.

// outArg is an out/inout argument to copy back after a call.
type outArg struct {
	pl     *place
	tmp    ir.Value
	pt, at *hlsl.Type // parameter and argument types
	// base: the argument is a derived object passed as its base (pt), its
	// first fields (lower_method.go).
	base bool
}

// outPlace returns the place an out argument designates and its type:
// the argument without the conversions the checker wrapped around it.
func (fl *fnLowerer) outPlace(a hlsl.Expr) (*place, *hlsl.Type) {
	base := stripConv(a)
	return fl.lvalue(base), base.Type()
}

// userCall lowers a call of a user function.
func (fl *fnLowerer) userCall(x *hlsl.Call) ir.Value {
	fd := x.Func
	if fd != nil && fd.Def != nil {
		fd = fd.Def
	}
	f := fl.funcs[fd]
	if f == nil {
		fl.errorf(x, "cannot lower the call of '%s': the function has no definition", x.Name)
		return ir.ConstUndef(fl.irType(x.T))
	}
	args := make([]ir.Value, 0, len(x.Args))
	var outs []outArg
	for i, a := range x.Args {
		if i >= len(fd.Params) {
			break
		}
		p := fd.Params[i]
		switch {
		case p.Type.Kind == hlsl.KindResource && !hlsl.IsBufferResource(p.Type):
			args = append(args, fl.resourcePtr(a))
		case p.Dir == hlsl.DirIn:
			args = append(args, fl.convert(fl.rv(a), a.Type(), p.Type))
		case i == 0 && fd.Owner != nil && p.Name == "this" && !hlsl.Identical(a.Type(), p.Type):
			// A base's member function on a derived object (lower_method.go).
			tmp, out := fl.baseView(a, p.Type)
			args = append(args, tmp)
			if out != nil {
				outs = append(outs, *out)
			}
		case i == 0 && fd.Owner != nil && p.Name == "this" && !fl.writableObject(a):
			// The object of a member function that cannot be written
			// back (lower_method.go): passed as a copy.
			fl.atNode(a)
			tmp := fl.alloca(p.Type, "this.tmp")
			fl.b.Store(fl.rv(a), tmp)
			args = append(args, tmp)
		default:
			pl, at := fl.outPlace(a)
			fl.atNode(a)
			tmp := fl.alloca(p.Type, p.Name+".tmp")
			if pl != nil && p.Dir == hlsl.DirInOut {
				fl.b.Store(fl.convert(fl.load(pl), at, p.Type), tmp)
			}
			args = append(args, tmp)
			outs = append(outs, outArg{pl: pl, tmp: tmp, pt: p.Type, at: at})
		}
	}
	fl.atNode(x)
	call := fl.b.Call(f, args, "call")
	for _, o := range outs {
		if o.pl == nil {
			continue
		}
		v := fl.b.Load(o.tmp, "out")
		if o.base {
			fl.store(o.pl, fl.mergeBase(fl.load(o.pl), v, o.pt))
			continue
		}
		fl.store(o.pl, fl.convert(v, o.pt, o.at))
	}
	if f.Ret == ir.Void {
		return nil
	}
	return call
}

// storeOut writes v (of type t, an intrinsic's out parameter type) to the
// out argument a.
func (fl *fnLowerer) storeOut(a hlsl.Expr, v ir.Value, t *hlsl.Type) {
	pl, at := fl.outPlace(a)
	if pl == nil {
		return
	}
	fl.store(pl, fl.convert(v, t, at))
}
