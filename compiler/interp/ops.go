package interp

import (
	"fmt"
	"math"
	"math/bits"

	"passlens/compiler/ir"
)

// This file gives ordinary instructions their meaning, lane by lane.
//
// Integers wrap around at their width. Division by zero is defined the way
// D3D defines udiv: the quotient and the remainder are all ones
// (0xFFFFFFFF), for signed division too (SPIR-V and DXIL leave it
// undefined). INT_MIN / -1 wraps to INT_MIN and INT_MIN % -1 is 0. Shift
// amounts use only their low log2(width) bits (D3D/DXIL). Float-to-integer
// conversions truncate toward zero and saturate at the target range, NaN
// becoming 0 (D3D's rule). frem is C fmod.

// exec runs one non-terminator instruction for the lanes of mask.
func (w *wave) exec(fr *frame, ic *icode, mask uint64) error {
	in := ic.in
	op := in.Op
	switch {
	case op.IsBinary():
		t := ic.args[0].typ
		sc := t.Scalar()
		b := w.fenv().fbits(sc)
		isFloat := sc.Kind == ir.KFloat
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			x, y, r := w.arg(fr, &ic.args[0], l), w.arg(fr, &ic.args[1], l), w.dst(fr, ic.res, l)
			for i := range r {
				xi, yi := pick(x, i), pick(y, i)
				if isFloat {
					r[i] = floatBinary(op, xi, yi, b)
				} else {
					r[i] = intBinary(op, xi, yi, b)
				}
			}
		}
		return nil
	case op.IsUnary():
		sc := ic.args[0].typ.Scalar()
		b := w.fenv().fbits(sc)
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			x, r := w.arg(fr, &ic.args[0], l), w.dst(fr, ic.res, l)
			for i := range r {
				xi := pick(x, i)
				switch op {
				case ir.OpNot:
					r[i] = ^xi & widthMask(b)
				case ir.OpNeg:
					r[i] = -xi & widthMask(b)
				case ir.OpFNeg:
					r[i] = xi ^ signBit(b)
				}
			}
		}
		return nil
	case op == ir.OpICmp || op == ir.OpFCmp:
		sc := ic.args[0].typ.Scalar()
		b := w.fenv().fbits(sc)
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			x, y, r := w.arg(fr, &ic.args[0], l), w.arg(fr, &ic.args[1], l), w.dst(fr, ic.res, l)
			for i := range r {
				var ok bool
				if op == ir.OpFCmp {
					ok = fcmp(in.Pred, toF64(pick(x, i), b), toF64(pick(y, i), b))
				} else {
					ok = icmp(in.Pred, pick(x, i), pick(y, i), b)
				}
				r[i] = b2u(ok)
			}
		}
		return nil
	case op == ir.OpSelect:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			c, x, y, r := w.arg(fr, &ic.args[0], l), w.arg(fr, &ic.args[1], l), w.arg(fr, &ic.args[2], l), w.dst(fr, ic.res, l)
			for i := range r {
				if pick(c, i)&1 != 0 {
					r[i] = pick(x, i)
				} else {
					r[i] = pick(y, i)
				}
			}
		}
		return nil
	case op.IsCast():
		return w.cast(fr, ic, mask)
	}
	switch op {
	case ir.OpConstruct:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			r := w.dst(fr, ic.res, l)
			off := 0
			for i := range ic.args {
				off += copy(r[off:], w.arg(fr, &ic.args[i], l))
			}
		}
	case ir.OpCopy:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			copy(w.dst(fr, ic.res, l), w.arg(fr, &ic.args[0], l))
		}
	case ir.OpExtractElem:
		it := ic.args[1].typ
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			v, r := w.arg(fr, &ic.args[0], l), w.dst(fr, ic.res, l)
			i, ok := index(w.arg(fr, &ic.args[1], l)[0], it)
			if ok && (i+1)*ic.w <= len(v) {
				copy(r, v[i*ic.w:(i+1)*ic.w])
			} else {
				clear(r) // out-of-range index: zero
			}
		}
	case ir.OpInsertElem:
		it := ic.args[2].typ
		ew := ic.args[1].w
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			r := w.dst(fr, ic.res, l)
			copy(r, w.arg(fr, &ic.args[0], l))
			i, ok := index(w.arg(fr, &ic.args[2], l)[0], it)
			if ok && (i+1)*ew <= len(r) {
				copy(r[i*ew:], w.arg(fr, &ic.args[1], l))
			}
		}
	case ir.OpShuffle:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			a, b, r := w.arg(fr, &ic.args[0], l), w.arg(fr, &ic.args[1], l), w.dst(fr, ic.res, l)
			for i := range r {
				r[i] = 0
				if i >= len(in.Idx) {
					continue
				}
				switch j := in.Idx[i]; {
				case j >= 0 && j < len(a):
					r[i] = a[j]
				case j >= len(a) && j-len(a) < len(b):
					r[i] = b[j-len(a)]
				}
			}
		}
	case ir.OpExtractValue:
		off, _, _ := pathOffset(ic.args[0].typ, in.Idx)
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			copy(w.dst(fr, ic.res, l), w.arg(fr, &ic.args[0], l)[off:])
		}
	case ir.OpInsertValue:
		off, _, _ := pathOffset(ic.args[0].typ, in.Idx)
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			r := w.dst(fr, ic.res, l)
			copy(r, w.arg(fr, &ic.args[0], l))
			e := w.arg(fr, &ic.args[1], l)
			if off+len(e) <= len(r) {
				copy(r[off:], e)
			}
		}
	case ir.OpAlloca, ir.OpLoad, ir.OpStore, ir.OpAccess, ir.OpMemcpy, ir.OpMemset, ir.OpAtomic:
		return w.memOp(fr, ic, mask)
	case ir.OpIntrinsic:
		if err := w.intrinsic(fr, ic, mask); err != nil {
			return err
		}
		if in.Intr.Attrs.Has(ir.AttrWave) || in.Intr.Attrs.Has(ir.AttrConvergent) {
			w.traceOp(fr, ic, mask)
		}
	case ir.OpPhi:
		return fmt.Errorf("%w: phi after a non-phi instruction", ErrMalformed)
	default:
		return fmt.Errorf("%w: opcode %s", ErrUnsupported, op)
	}
	return nil
}

// pick returns component i of a value, broadcasting a scalar.
func pick(x []uint64, i int) uint64 {
	if len(x) == 1 {
		return x[0]
	}
	if i < len(x) {
		return x[i]
	}
	return 0
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// index decodes a dynamic index operand (signed for i32); ok is false for
// negative values.
func index(v uint64, t *ir.Type) (int, bool) {
	b := bitsOf(t)
	if t.Kind == ir.KInt {
		x := sext(v, b)
		if x < 0 || x > math.MaxInt32 {
			return 0, false
		}
		return int(x), true
	}
	x := v & widthMask(b)
	if x > math.MaxInt32 {
		return 0, false
	}
	return int(x), true
}

// intBinary computes an integer (or bool) binary operation at width b.
func intBinary(op ir.Op, x, y uint64, b int) uint64 {
	m := widthMask(b)
	x, y = x&m, y&m
	sh := uint(y & uint64(shiftMask(b)))
	switch op {
	case ir.OpAdd:
		return (x + y) & m
	case ir.OpSub:
		return (x - y) & m
	case ir.OpMul:
		return (x * y) & m
	case ir.OpUDiv:
		if y == 0 {
			return m
		}
		return x / y
	case ir.OpURem:
		if y == 0 {
			return m
		}
		return x % y
	case ir.OpSDiv:
		if y == 0 {
			return m
		}
		sx, sy := sext(x, b), sext(y, b)
		if sy == -1 {
			return uint64(-sx) & m
		}
		return uint64(sx/sy) & m
	case ir.OpSRem:
		if y == 0 {
			return m
		}
		sx, sy := sext(x, b), sext(y, b)
		if sy == -1 {
			return 0
		}
		return uint64(sx%sy) & m
	case ir.OpShl:
		return (x << sh) & m
	case ir.OpLShr:
		return x >> sh
	case ir.OpAShr:
		return uint64(sext(x, b)>>sh) & m
	case ir.OpAnd:
		return x & y
	case ir.OpOr:
		return x | y
	case ir.OpXor:
		return x ^ y
	}
	return 0
}

// shiftMask is the mask applied to shift amounts: width-1 for power-of-two
// widths (D3D uses the low 5 bits for 32-bit shifts).
func shiftMask(b int) int {
	if b&(b-1) == 0 {
		return b - 1
	}
	return 63
}

// floatBinary computes a float binary operation rounded to width b.
func floatBinary(op ir.Op, x, y uint64, b int) uint64 {
	fx, fy := toF64(x, b), toF64(y, b)
	var r float64
	switch op {
	case ir.OpFAdd:
		r = fx + fy
	case ir.OpFSub:
		r = fx - fy
	case ir.OpFMul:
		r = fx * fy
	case ir.OpFDiv:
		r = fx / fy
	case ir.OpFRem:
		r = math.Mod(fx, fy)
	default:
		return 0
	}
	return fromF64(r, b)
}

func icmp(p ir.CmpPred, x, y uint64, b int) bool {
	m := widthMask(b)
	x, y = x&m, y&m
	sx, sy := sext(x, b), sext(y, b)
	switch p {
	case ir.PredEQ:
		return x == y
	case ir.PredNE:
		return x != y
	case ir.PredSLT:
		return sx < sy
	case ir.PredSLE:
		return sx <= sy
	case ir.PredSGT:
		return sx > sy
	case ir.PredSGE:
		return sx >= sy
	case ir.PredULT:
		return x < y
	case ir.PredULE:
		return x <= y
	case ir.PredUGT:
		return x > y
	case ir.PredUGE:
		return x >= y
	}
	return false
}

func fcmp(p ir.CmpPred, x, y float64) bool {
	uno := math.IsNaN(x) || math.IsNaN(y)
	switch p {
	case ir.PredOEQ:
		return !uno && x == y
	case ir.PredONE:
		return !uno && x != y
	case ir.PredOLT:
		return !uno && x < y
	case ir.PredOLE:
		return !uno && x <= y
	case ir.PredOGT:
		return !uno && x > y
	case ir.PredOGE:
		return !uno && x >= y
	case ir.PredORD:
		return !uno
	case ir.PredUNO:
		return uno
	case ir.PredUEQ:
		return uno || x == y
	case ir.PredUNE:
		return uno || x != y
	case ir.PredFULT:
		return uno || x < y
	case ir.PredFULE:
		return uno || x <= y
	case ir.PredFUGT:
		return uno || x > y
	case ir.PredFUGE:
		return uno || x >= y
	}
	return false
}

// cast executes a conversion, component by component.
func (w *wave) cast(fr *frame, ic *icode, mask uint64) error {
	op := ic.in.Op
	from := ic.args[0].typ
	to := ic.in.Type()
	if op == ir.OpBitcast {
		src := leafTypes(from, 0, nil)
		dst := leafTypes(to, 0, nil)
		sb, db := 0, 0
		for _, t := range src {
			sb += bitsOf(t)
		}
		for _, t := range dst {
			db += bitsOf(t)
		}
		if sb != db {
			return fmt.Errorf("%w: bitcast from %s (%d bits) to %s (%d bits)", ErrMalformed, from, sb, to, db)
		}
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			bitcast(w.arg(fr, &ic.args[0], l), src, w.dst(fr, ic.res, l), dst)
		}
		return nil
	}
	fs, ts := from.Scalar(), to.Scalar()
	fb, tb := w.fenv().fbits(fs), w.fenv().fbits(ts)
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		x, r := w.arg(fr, &ic.args[0], l), w.dst(fr, ic.res, l)
		for i := range r {
			r[i] = convert(op, pick(x, i), fb, tb)
		}
	}
	return nil
}

// convert applies one scalar conversion from width fb to width tb.
func convert(op ir.Op, x uint64, fb, tb int) uint64 {
	tm := widthMask(tb)
	switch op {
	case ir.OpTrunc, ir.OpZExt:
		return x & widthMask(fb) & tm
	case ir.OpSExt:
		return uint64(sext(x, fb)) & tm
	case ir.OpSIToFP:
		v := sext(x, fb) // LLVM semantics: sitofp of bool true is -1.0
		if (tb == 32 || tb == ftz32Format) && fb > 53 {
			return uint64(math.Float32bits(float32(v)))
		}
		return fromF64(float64(v), tb)
	case ir.OpUIToFP:
		v := x & widthMask(fb)
		if (tb == 32 || tb == ftz32Format) && fb > 53 {
			return uint64(math.Float32bits(float32(v)))
		}
		return fromF64(float64(v), tb)
	case ir.OpFPToSI:
		f := math.Trunc(toF64(x, fb))
		lo, hi := -math.Ldexp(1, tb-1), math.Ldexp(1, tb-1)
		switch {
		case math.IsNaN(f):
			return 0
		case f <= lo:
			return uint64(int64(-1)<<uint(tb-1)) & tm
		case f >= hi:
			return uint64(1<<uint(tb-1)-1) & tm
		}
		return uint64(int64(f)) & tm
	case ir.OpFPToUI:
		f := math.Trunc(toF64(x, fb))
		switch {
		case math.IsNaN(f) || f <= 0:
			return 0
		case f >= math.Ldexp(1, tb):
			return tm
		}
		return uint64(f) & tm
	case ir.OpFPTrunc, ir.OpFPExt:
		return fromF64(toF64(x, fb), tb)
	}
	return 0
}

// bitcast reinterprets the concatenated bits of src (little-endian, cell 0
// lowest) as the cells of dst.
func bitcast(src []uint64, st []*ir.Type, dst []uint64, dt []*ir.Type) {
	var acc []uint64 // bit string, 64 bits per word
	pos := 0
	put := func(v uint64, n int) {
		for n > 0 {
			word, bit := pos/64, pos%64
			if word >= len(acc) {
				acc = append(acc, 0)
			}
			take := min(64-bit, n)
			acc[word] |= (v & widthMask(take)) << uint(bit)
			v >>= uint(take)
			n -= take
			pos += take
		}
	}
	for i, t := range st {
		put(src[i], bitsOf(t))
	}
	pos = 0
	for i, t := range dt {
		n := bitsOf(t)
		var v uint64
		got := 0
		for got < n {
			word, bit := pos/64, pos%64
			take := min(64-bit, n-got)
			var part uint64
			if word < len(acc) {
				part = (acc[word] >> uint(bit)) & widthMask(take)
			}
			v |= part << uint(got)
			got += take
			pos += take
		}
		dst[i] = v
	}
}
