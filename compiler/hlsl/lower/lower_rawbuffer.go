package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Load<T>/Store<T> on byte address buffers (hlsl/rawbuffer.go). T's
// components are placed as in a StructuredBuffer: each at the next offset
// aligned to its size (bool as a 32-bit 0 or 1), a struct or array
// aligned to its largest component, matrices in their memory orientation.
// The buffer is an array of 32-bit words:
//
//   - a 32-bit component is the word at (addr + offset) / 4 (bitcast, or
//     compared with 0 for bool);
//   - a 64-bit one is two words, low first;
//   - a 16-bit one is the half of the word at (addr + offset) / 4 that
//     bit 1 of addr + offset selects (little-endian). Storing one clears
//     and sets its half with two atomics (and, or), so that lanes writing
//     the two halves of one word do not clobber each other.
//
// A load inserts each component into an undef T; a store extracts each.

// rawLeaf is one component of T: its extractvalue/insertvalue path in the
// logical IR value, its HLSL scalar type and its byte offset in T.
type rawLeaf struct {
	path []int
	t    *hlsl.Type
	off  int
}

// rawLeaves lists the components of t, placed from byte offset base, in
// memory order.
func rawLeaves(t *hlsl.Type, path []int, base int, out []rawLeaf) []rawLeaf {
	at := func(i ...int) []int { return append(append([]int(nil), path...), i...) }
	switch t.Kind {
	case hlsl.KindVector:
		s, _ := structuredSize(t.Elem)
		if t.Len == 1 {
			return append(out, rawLeaf{path, t.Elem, base}) // a 1-vector is its scalar in the IR
		}
		for i := 0; i < t.Len; i++ {
			out = append(out, rawLeaf{at(i), t.Elem, base + i*s})
		}
	case hlsl.KindMatrix:
		s, _ := structuredSize(t.Elem)
		k := 0
		if t.RowMajor {
			for r := 0; r < t.Rows; r++ {
				for c := 0; c < t.Cols; c++ {
					out = append(out, rawLeaf{at(r, c), t.Elem, base + k*s})
					k++
				}
			}
		} else {
			for c := 0; c < t.Cols; c++ {
				for r := 0; r < t.Rows; r++ {
					out = append(out, rawLeaf{at(r, c), t.Elem, base + k*s})
					k++
				}
			}
		}
	case hlsl.KindArray:
		s, a := structuredSize(t.Elem)
		stride := (s + a - 1) / a * a
		for i := 0; i < t.Len; i++ {
			out = rawLeaves(t.Elem, at(i), base+i*stride, out)
		}
	case hlsl.KindStruct:
		off := 0
		for i, f := range t.Struct.Fields {
			s, a := structuredSize(f.Type)
			off = (off + a - 1) / a * a
			out = rawLeaves(f.Type, at(i), base+off, out)
			off += s
		}
	default:
		out = append(out, rawLeaf{path, t, base})
	}
	return out
}

// rawTemplate lowers buf.Load<T>(addr) or buf.Store<T>(addr, v); buf is
// the buffer's pointer.
func (fl *fnLowerer) rawTemplate(x *hlsl.MethodCall, buf ir.Value, args []ir.Value) ir.Value {
	t := x.Method.Raw
	name := exprName(x.Recv)
	leaves := rawLeaves(t, nil, 0, nil)
	// at is the byte address of a component and the pointer to its word.
	at := func(off int) (ir.Value, ir.Value) {
		a := args[0]
		if off != 0 {
			a = fl.b.Binary(ir.OpAdd, a, ir.ConstInt(ir.U32, int64(off)), "raw.addr")
		}
		w := fl.b.Binary(ir.OpLShr, a, ir.ConstInt(ir.U32, 2), "word")
		return a, fl.b.Access(buf, []ir.Value{w}, name+".p")
	}
	next := func(p ir.Value) ir.Value {
		i := p.(*ir.Instr).Args[1]
		return fl.b.Access(buf, []ir.Value{fl.b.Binary(ir.OpAdd, i, ir.ConstInt(ir.U32, 1), "word")}, name+".p")
	}
	// half is the shift of a 16-bit component's half in its word.
	half := func(a ir.Value) ir.Value {
		return fl.b.Binary(ir.OpShl, fl.b.Binary(ir.OpAnd, a, ir.ConstInt(ir.U32, 2), "raw.half"), ir.ConstInt(ir.U32, 3), "raw.shift")
	}
	if x.Method.Name == "Load" {
		var v ir.Value = ir.ConstUndef(fl.irType(t))
		for _, lf := range leaves {
			a, p := at(lf.off)
			w := fl.b.Load(p, "raw")
			var s ir.Value
			st := fl.irType(lf.t)
			switch {
			case lf.t.Kind == hlsl.KindBool:
				s = fl.b.Cmp(ir.PredNE, w, ir.ConstInt(ir.U32, 0), "raw.bool")
			case lf.t.Width() == 64:
				hi := fl.b.Load(next(p), "raw.hi")
				lo64 := fl.b.Cast(ir.OpZExt, w, ir.U64, "raw.lo")
				hi64 := fl.b.Binary(ir.OpShl, fl.b.Cast(ir.OpZExt, hi, ir.U64, "raw.hi"), ir.ConstInt(ir.U64, 32), "raw.hi")
				s = fl.b.Binary(ir.OpOr, lo64, hi64, "raw.bits")
				if st != ir.U64 {
					s = fl.b.Cast(ir.OpBitcast, s, st, "raw.bits")
				}
			case lf.t.Width() == 16:
				s = fl.b.Cast(ir.OpTrunc, fl.b.Binary(ir.OpLShr, w, half(a), "raw.half"), ir.U16, "raw.bits")
				if st != ir.U16 {
					s = fl.b.Cast(ir.OpBitcast, s, st, "raw.bits")
				}
			case st == ir.U32:
				s = w
			default:
				s = fl.b.Cast(ir.OpBitcast, w, st, "raw.bits")
			}
			if len(lf.path) == 0 {
				return s
			}
			v = fl.b.InsertValue(v, s, lf.path, "raw.load")
		}
		return v
	}
	val := args[1]
	for _, lf := range leaves {
		s := val
		if len(lf.path) > 0 {
			s = fl.b.ExtractValue(val, lf.path, "raw.elem")
		}
		a, p := at(lf.off)
		st := fl.irType(lf.t)
		switch {
		case lf.t.Kind == hlsl.KindBool:
			fl.b.Store(fl.convert(s, hlsl.TypeBool, hlsl.TypeUint), p)
		case lf.t.Width() == 64:
			if st != ir.U64 {
				s = fl.b.Cast(ir.OpBitcast, s, ir.U64, "raw.bits")
			}
			fl.b.Store(fl.b.Cast(ir.OpTrunc, s, ir.U32, "raw.lo"), p)
			hi := fl.b.Binary(ir.OpLShr, s, ir.ConstInt(ir.U64, 32), "raw.hi")
			fl.b.Store(fl.b.Cast(ir.OpTrunc, hi, ir.U32, "raw.hi"), next(p))
		case lf.t.Width() == 16:
			if st != ir.U16 {
				s = fl.b.Cast(ir.OpBitcast, s, ir.U16, "raw.bits")
			}
			sh := half(a)
			bits := fl.b.Binary(ir.OpShl, fl.b.Cast(ir.OpZExt, s, ir.U32, "raw.bits"), sh, "raw.bits")
			mask := fl.b.Binary(ir.OpXor, fl.b.Binary(ir.OpShl, ir.ConstInt(ir.U32, 0xFFFF), sh, "raw.mask"), ir.ConstInt(ir.U32, -1), "raw.keep")
			fl.b.Atomic(ir.AtomicAnd, p, mask, nil, "raw.clear")
			fl.b.Atomic(ir.AtomicOr, p, bits, nil, "raw.set")
		default:
			if st != ir.U32 {
				s = fl.b.Cast(ir.OpBitcast, s, ir.U32, "raw.bits")
			}
			fl.b.Store(s, p)
		}
	}
	return nil
}
