package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Load<T>/Store<T> on byte address buffers (hlsl/rawbuffer.go): T's 32-bit
// components (bool as 0 or 1) are consecutive words from the address, in
// declaration order, matrices in their memory orientation. A load inserts
// each word (bitcast, or compared with 0 for bool) into an undef T; a store
// extracts each component and stores its bits.

// rawLeaf is one component of T: its extractvalue/insertvalue path in the
// logical IR value and its HLSL scalar type.
type rawLeaf struct {
	path []int
	t    *hlsl.Type
}

// rawLeaves lists the components of t in memory order.
func rawLeaves(t *hlsl.Type, path []int, out []rawLeaf) []rawLeaf {
	at := func(i ...int) []int { return append(append([]int(nil), path...), i...) }
	switch t.Kind {
	case hlsl.KindVector:
		if t.Len == 1 {
			return append(out, rawLeaf{path, t.Elem}) // a 1-vector is its scalar in the IR
		}
		for i := 0; i < t.Len; i++ {
			out = append(out, rawLeaf{at(i), t.Elem})
		}
	case hlsl.KindMatrix:
		if t.RowMajor {
			for r := 0; r < t.Rows; r++ {
				for c := 0; c < t.Cols; c++ {
					out = append(out, rawLeaf{at(r, c), t.Elem})
				}
			}
		} else {
			for c := 0; c < t.Cols; c++ {
				for r := 0; r < t.Rows; r++ {
					out = append(out, rawLeaf{at(r, c), t.Elem})
				}
			}
		}
	case hlsl.KindArray:
		for i := 0; i < t.Len; i++ {
			out = rawLeaves(t.Elem, at(i), out)
		}
	case hlsl.KindStruct:
		for i, f := range t.Struct.Fields {
			out = rawLeaves(f.Type, at(i), out)
		}
	default:
		out = append(out, rawLeaf{path, t})
	}
	return out
}

// rawTemplate lowers buf.Load<T>(addr) or buf.Store<T>(addr, v); word(addr,
// k) is the pointer to the k-th word from addr.
func (fl *fnLowerer) rawTemplate(x *hlsl.MethodCall, args []ir.Value, word func(ir.Value, int) ir.Value) ir.Value {
	t := x.Method.Raw
	leaves := rawLeaves(t, nil, nil)
	if x.Method.Name == "Load" {
		var v ir.Value = ir.ConstUndef(fl.irType(t))
		for k, lf := range leaves {
			w := fl.b.Load(word(args[0], k), "raw")
			var s ir.Value
			switch lf.t.Kind {
			case hlsl.KindBool:
				s = fl.b.Cmp(ir.PredNE, w, ir.ConstInt(ir.U32, 0), "raw.bool")
			case hlsl.KindUint:
				s = w
			default:
				s = fl.b.Cast(ir.OpBitcast, w, fl.irType(lf.t), "raw.bits")
			}
			if len(lf.path) == 0 {
				return s
			}
			v = fl.b.InsertValue(v, s, lf.path, "raw.load")
		}
		return v
	}
	val := args[1]
	for k, lf := range leaves {
		s := val
		if len(lf.path) > 0 {
			s = fl.b.ExtractValue(val, lf.path, "raw.elem")
		}
		switch lf.t.Kind {
		case hlsl.KindBool:
			s = fl.convert(s, hlsl.TypeBool, hlsl.TypeUint)
		case hlsl.KindUint:
		default:
			s = fl.b.Cast(ir.OpBitcast, s, ir.U32, "raw.bits")
		}
		fl.b.Store(s, word(args[0], k))
	}
	return nil
}
