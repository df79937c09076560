package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// cbufferArrayValue is the whole value of cbs[i], an element of an array
// of ConstantBuffer<T> chosen by a dynamic index (a local ConstantBuffer<T>
// initialized from it, hlsl/cbuffer_local.go): each element's value is
// loaded from its own buffer and a chain of selects picks one, the last
// for an out-of-range index. Selecting values, not buffers, keeps SPIR-V
// legal (a uniform buffer cannot be selected per lane). nil when x is not
// such an expression or its index is constant (the element's place is
// used then).
func (fl *fnLowerer) cbufferArrayValue(x *hlsl.Index) ir.Value {
	id, ok := stripNoop(x.X).(*hlsl.Ident)
	if !ok || id.Var == nil || len(id.Var.Elements) == 0 {
		return nil
	}
	if _, isConst := hlsl.ConstEval(x.Index); isConst {
		return nil
	}
	els := id.Var.Elements
	idx := fl.convert(fl.rv(x.Index), x.Index.Type(), hlsl.TypeUint)
	vals := make([]ir.Value, len(els))
	for k, m := range els {
		info := fl.local(m)
		if info == nil || info.buf == nil {
			fl.errorf(x, "cannot lower the ConstantBuffer array element '%s'", m.Name)
			return ir.ConstUndef(fl.irType(x.Type()))
		}
		fl.atNode(x)
		p := fl.b.Access(info.buf, []ir.Value{ir.ConstInt(ir.I32, int64(info.field))}, m.Name)
		vals[k] = fl.load(&place{ptr: p, t: info.t, mem: true, name: m.Name})
	}
	v := vals[len(vals)-1]
	for k := len(vals) - 2; k >= 0; k-- {
		is := fl.b.Cmp(ir.PredEQ, idx, ir.ConstInt(ir.U32, int64(k)), "cb.is")
		v = fl.b.Select(is, vals[k], v, id.Var.Name)
	}
	return v
}
