package interp

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"passlens/compiler/ir"
)

// This file implements the HLSL math intrinsics of ir/intrinsics.go with
// HLSL semantics. Transcendental functions (sin, exp, pow, ...) are computed
// in float64 and rounded to the operand width once, so they are correctly
// rounded or nearly so: more precise than GPUs, whose results differ in the
// last bits. Compound operations (mad, lerp, smoothstep, dot, mul, ...)
// round after every step, in the order written in their definitions below.

// ewFn computes one component of an elementwise intrinsic: a holds the
// component of each operand; at is the operands' arithmetic (from the first
// operand), rt the result's.
type ewFn func(a []uint64, at, rt arith) uint64

func unaryF(f func(float64) float64) ewFn {
	return func(a []uint64, at, rt arith) uint64 { return rt.from(f(at.f(a[0]))) }
}

var elementwise = map[string]ewFn{
	"abs": func(a []uint64, at, rt arith) uint64 {
		switch at.k {
		case ir.KFloat:
			return a[0] &^ signBit(at.b)
		case ir.KInt:
			if sext(a[0], at.b) < 0 {
				return -a[0] & widthMask(at.b)
			}
		}
		return a[0]
	},
	"acos":  unaryF(math.Acos),
	"asin":  unaryF(math.Asin),
	"atan":  unaryF(math.Atan),
	"ceil":  unaryF(math.Ceil),
	"cos":   unaryF(math.Cos),
	"cosh":  unaryF(math.Cosh),
	"exp":   unaryF(math.Exp),
	"exp2":  unaryF(math.Exp2),
	"floor": unaryF(math.Floor),
	"log":   unaryF(math.Log),
	"log10": unaryF(math.Log10),
	"log2":  unaryF(math.Log2),
	"round": unaryF(roundEven),
	"sin":   unaryF(math.Sin),
	"sinh":  unaryF(math.Sinh),
	"sqrt":  unaryF(math.Sqrt),
	"tan":   unaryF(math.Tan),
	"tanh":  unaryF(math.Tanh),
	"trunc": unaryF(math.Trunc),
	"rsqrt": unaryF(func(x float64) float64 { return 1 / math.Sqrt(x) }),
	// degrees/radians multiply by the float32-rounded constant, as
	// compilers expand them.
	"degrees": func(a []uint64, at, rt arith) uint64 {
		return rt.from(at.f(a[0]) * roundTo(180/math.Pi, rt.b))
	},
	"radians": func(a []uint64, at, rt arith) uint64 {
		return rt.from(at.f(a[0]) * roundTo(math.Pi/180, rt.b))
	},
	// frac(x) = x - floor(x).
	"frac": func(a []uint64, at, rt arith) uint64 {
		x := at.f(a[0])
		return rt.from(x - math.Floor(x))
	},
	// rcp(x) = 1 / x.
	"rcp": func(a []uint64, at, rt arith) uint64 { return rt.from(1 / at.f(a[0])) },
	// saturate clamps to [0, 1]; NaN becomes 0 (D3D).
	"saturate": func(a []uint64, at, rt arith) uint64 {
		x := at.f(a[0])
		switch {
		case math.IsNaN(x) || x <= 0:
			return rt.from(0)
		case x >= 1:
			return rt.from(1)
		}
		return rt.from(x)
	},
	// sign returns -1, 0 or 1 (in the result type, int for HLSL); NaN gives 0.
	"sign": func(a []uint64, at, rt arith) uint64 {
		x := at.f(a[0])
		switch {
		case x > 0:
			return rt.from(1)
		case x < 0:
			return rt.from(-1)
		}
		return rt.from(0)
	},
	"isinf": func(a []uint64, at, rt arith) uint64 { return b2u(math.IsInf(at.f(a[0]), 0)) },
	"isnan": func(a []uint64, at, rt arith) uint64 { return b2u(math.IsNaN(at.f(a[0]))) },
	"countbits": func(a []uint64, at, rt arith) uint64 {
		return uint64(bits.OnesCount64(a[0] & widthMask(at.b)))
	},
	// firstbithigh: index (from bit 0) of the highest set bit; for signed
	// operands of the highest bit that differs from the sign bit; all ones
	// when there is none.
	"firstbithigh": func(a []uint64, at, rt arith) uint64 {
		x := a[0] & widthMask(at.b)
		if at.k == ir.KInt && sext(x, at.b) < 0 {
			x = ^x & widthMask(at.b)
		}
		if x == 0 {
			return widthMask(rt.b)
		}
		return uint64(63 - bits.LeadingZeros64(x))
	},
	"firstbitlow": func(a []uint64, at, rt arith) uint64 {
		x := a[0] & widthMask(at.b)
		if x == 0 {
			return widthMask(rt.b)
		}
		return uint64(bits.TrailingZeros64(x))
	},
	"reversebits": func(a []uint64, at, rt arith) uint64 {
		return bits.Reverse64(a[0]) >> uint(64-at.b)
	},
	// f16tof32 reads the low 16 bits as a half; f32tof16 returns the half's
	// bits in the low 16 bits of a uint.
	"f16tof32": func(a []uint64, at, rt arith) uint64 {
		return rt.from(float64(halfToF32(uint16(a[0]))))
	},
	"f32tof16": func(a []uint64, at, rt arith) uint64 {
		return uint64(f32ToHalf(float32(at.f(a[0]))))
	},
	"atan2": func(a []uint64, at, rt arith) uint64 { return rt.from(math.Atan2(at.f(a[0]), at.f(a[1]))) },
	// fmod is C fmod: the result has the sign of x.
	"fmod": func(a []uint64, at, rt arith) uint64 { return rt.from(math.Mod(at.f(a[0]), at.f(a[1]))) },
	// ldexp(x, e) = x * exp2(e), both rounded.
	"ldexp": func(a []uint64, at, rt arith) uint64 {
		e := roundTo(math.Exp2(at.f(a[1])), rt.b)
		return rt.from(at.f(a[0]) * e)
	},
	"max": func(a []uint64, at, rt arith) uint64 { return at.max(a[0], a[1]) },
	"min": func(a []uint64, at, rt arith) uint64 { return at.min(a[0], a[1]) },
	"pow": func(a []uint64, at, rt arith) uint64 { return rt.from(math.Pow(at.f(a[0]), at.f(a[1]))) },
	// step(y, x) = x >= y ? 1 : 0.
	"step": func(a []uint64, at, rt arith) uint64 {
		return rt.from(b2f(at.f(a[1]) >= at.f(a[0])))
	},
	// clamp(x, lo, hi) = min(max(x, lo), hi).
	"clamp": func(a []uint64, at, rt arith) uint64 { return at.min(at.max(a[0], a[1]), a[2]) },
	// lerp(x, y, s) = x + s * (y - x).
	"lerp": func(a []uint64, at, rt arith) uint64 {
		return at.add(a[0], at.mul(a[2], at.sub(a[1], a[0])))
	},
	// mad(a, b, c) = a * b + c, not fused.
	"mad": func(a []uint64, at, rt arith) uint64 { return at.add(at.mul(a[0], a[1]), a[2]) },
	// fma rounds once (HLSL allows it on doubles only).
	"fma": func(a []uint64, at, rt arith) uint64 {
		return rt.from(math.FMA(at.f(a[0]), at.f(a[1]), at.f(a[2])))
	},
	// smoothstep(lo, hi, x): t = saturate((x - lo) / (hi - lo)); t*t*(3 - 2*t).
	"smoothstep": func(a []uint64, at, rt arith) uint64 {
		t := at.div(at.sub(a[2], a[0]), at.sub(a[1], a[0]))
		tf := at.f(t)
		switch {
		case math.IsNaN(tf) || tf <= 0:
			t = at.from(0)
		case tf >= 1:
			t = at.from(1)
		}
		two, three := at.from(2), at.from(3)
		return at.mul(at.mul(t, t), at.sub(three, at.mul(two, t)))
	},
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// intrinsic executes an intrinsic call for the lanes of mask.
func (w *wave) intrinsic(fr *frame, ic *icode, mask uint64) error {
	name := ic.name
	if name == "sm3.rep" {
		// sm3-lower's loop marker: it annotates the loop for the SM3 back
		// end and has no effect when executed.
		return nil
	}
	if _, ok := wholeValue[name]; ok && ic.res < 0 {
		return fmt.Errorf("%w: %s must have a result", ErrMalformed, name)
	}
	if f, ok := elementwise[name]; ok {
		return w.elementwise(fr, ic, mask, f)
	}
	if ir.IsQuadOp(name) {
		return w.quadIntrinsic(fr, ic, mask)
	}
	if name == ir.Demote {
		return w.demote(mask)
	}
	if name == "tex.read" || name == "tex.write" || name == "tex.texel" {
		return w.rwTexIntrinsic(fr, ic, mask)
	}
	if strings.HasPrefix(name, "tex.") {
		return w.texIntrinsic(fr, ic, mask)
	}
	if name == "buf.length" {
		return w.bufLength(fr, ic, mask)
	}
	if name == ir.BufWord64 {
		return w.bufWord64(fr, ic, mask)
	}
	if name == ir.ResIndex {
		return w.resIndex(fr, ic, mask)
	}
	if f, ok := llvmElementwise[name]; ok {
		return w.elementwise(fr, ic, mask, f)
	}
	if ok, err := w.llvmIntrinsic(fr, ic, mask, name); ok {
		return err
	}
	if f, ok := wholeValue[name]; ok {
		at := make([]*ir.Type, len(ic.args))
		for i := range ic.args {
			at[i] = ic.args[i].typ
		}
		args := make([][]uint64, len(ic.args))
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			for i := range ic.args {
				args[i] = w.arg(fr, &ic.args[i], l)
			}
			if err := f(w.fenv(), args, at, ic.in.Type(), w.dst(fr, ic.res, l)); err != nil {
				return err
			}
		}
		return nil
	}
	return w.waveIntrinsic(fr, ic, mask)
}

func (w *wave) elementwise(fr *frame, ic *icode, mask uint64, f ewFn) error {
	if ic.res < 0 || len(ic.args) == 0 {
		return fmt.Errorf("%w: %s needs operands and a result", ErrMalformed, ic.name)
	}
	env := w.fenv()
	at := env.arith(ic.args[0].typ)
	rt := env.arith(ic.in.Type())
	comp := make([]uint64, len(ic.args))
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		r := w.dst(fr, ic.res, l)
		for i := range r {
			for j := range ic.args {
				comp[j] = pick(w.arg(fr, &ic.args[j], l), i)
			}
			r[i] = f(comp, at, rt)
		}
	}
	return nil
}

// wholeFn computes an intrinsic on whole values (vectors, matrices).
type wholeFn func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error

var wholeValue = map[string]wholeFn{
	"dot": func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		r[0] = env.arith(at[0]).dot(args[0], args[1])
		return nil
	},
	// length(v) = sqrt(dot(v, v)).
	"length": func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		a := env.arith(at[0])
		r[0] = a.from(math.Sqrt(a.f(a.dot(args[0], args[0]))))
		return nil
	},
	// distance(x, y) = length(x - y).
	"distance": func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		a := env.arith(at[0])
		d := make([]uint64, len(args[0]))
		for i := range d {
			d[i] = a.sub(args[0][i], pick(args[1], i))
		}
		r[0] = a.from(math.Sqrt(a.f(a.dot(d, d))))
		return nil
	},
	"any": func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		a := env.arith(at[0])
		r[0] = 0
		for _, x := range args[0] {
			if a.nonzero(x) {
				r[0] = 1
			}
		}
		return nil
	},
	"all": func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		a := env.arith(at[0])
		r[0] = 1
		for _, x := range args[0] {
			if !a.nonzero(x) {
				r[0] = 0
			}
		}
		return nil
	},
	"determinant": func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		t := at[0]
		if t.Kind != ir.KMatrix || t.Len != t.Cols {
			if t.IsScalar() {
				r[0] = args[0][0]
				return nil
			}
			return fmt.Errorf("%w: determinant of %s: needs a square matrix", ErrMalformed, t)
		}
		r[0] = determinant(env.arith(t), args[0], t.Len)
		return nil
	},
	// cross(a, b) = a.yzx * b.zxy - a.zxy * b.yzx.
	"cross": func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		x, y := args[0], args[1]
		if len(x) != 3 || len(y) != 3 || len(r) != 3 {
			return fmt.Errorf("%w: cross needs 3-vectors", ErrMalformed)
		}
		a := env.arith(at[0])
		r[0] = a.sub(a.mul(x[1], y[2]), a.mul(x[2], y[1]))
		r[1] = a.sub(a.mul(x[2], y[0]), a.mul(x[0], y[2]))
		r[2] = a.sub(a.mul(x[0], y[1]), a.mul(x[1], y[0]))
		return nil
	},
	// normalize(v) = v / length(v).
	"normalize": func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		a := env.arith(at[0])
		ln := a.from(math.Sqrt(a.f(a.dot(args[0], args[0]))))
		for i := range r {
			r[i] = a.div(pick(args[0], i), ln)
		}
		return nil
	},
	// reflect(i, n) = i - 2 * dot(n, i) * n.
	"reflect": func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		a := env.arith(at[0])
		i, n := args[0], args[1]
		t := a.mul(a.from(2), a.dot(n, i))
		for k := range r {
			r[k] = a.sub(pick(i, k), a.mul(t, pick(n, k)))
		}
		return nil
	},
	// refract(i, n, eta): d = dot(n, i); k = 1 - eta*eta*(1 - d*d);
	// k < 0 ? 0 : eta*i - (eta*d + sqrt(k)) * n.
	"refract": func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		a := env.arith(at[0])
		i, n, eta := args[0], args[1], args[2][0]
		one := a.one()
		d := a.dot(n, i)
		k := a.sub(one, a.mul(a.mul(eta, eta), a.sub(one, a.mul(d, d))))
		if a.f(k) < 0 {
			clear(r)
			return nil
		}
		s := a.add(a.mul(eta, d), a.from(math.Sqrt(a.f(k))))
		for j := range r {
			r[j] = a.sub(a.mul(eta, pick(i, j)), a.mul(s, pick(n, j)))
		}
		return nil
	},
	"mul":       mulIntrinsic,
	"transpose": transposeIntrinsic,
}

// mulIntrinsic is HLSL mul: scalar products are componentwise; vector x
// vector is a dot product; a vector on the left is a row vector, on the
// right a column vector; sums run in index order.
func mulIntrinsic(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
	x, y := args[0], args[1]
	tx, ty := at[0], at[1]
	a := env.arith(tx)
	switch {
	case tx.IsScalar() || ty.IsScalar():
		for i := range r {
			r[i] = a.mul(pick(x, i), pick(y, i))
		}
	case tx.Kind == ir.KVector && ty.Kind == ir.KVector:
		r[0] = a.dot(x, y)
	case tx.Kind == ir.KVector && ty.Kind == ir.KMatrix: // row vector * R x C
		rows, cols := ty.Len, ty.Cols
		if len(x) != rows || len(r) != cols {
			return fmt.Errorf("%w: mul(%s, %s): shapes do not match", ErrMalformed, tx, ty)
		}
		for j := 0; j < cols; j++ {
			acc := a.mul(x[0], y[j])
			for i := 1; i < rows; i++ {
				acc = a.add(acc, a.mul(x[i], y[i*cols+j]))
			}
			r[j] = acc
		}
	case tx.Kind == ir.KMatrix && ty.Kind == ir.KVector: // R x C * column vector
		rows, cols := tx.Len, tx.Cols
		if len(y) != cols || len(r) != rows {
			return fmt.Errorf("%w: mul(%s, %s): shapes do not match", ErrMalformed, tx, ty)
		}
		for i := 0; i < rows; i++ {
			r[i] = a.dot(x[i*cols:(i+1)*cols], y)
		}
	case tx.Kind == ir.KMatrix && ty.Kind == ir.KMatrix:
		n, k, m := tx.Len, tx.Cols, ty.Cols
		if ty.Len != k || len(r) != n*m {
			return fmt.Errorf("%w: mul(%s, %s): shapes do not match", ErrMalformed, tx, ty)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				acc := a.mul(x[i*k], y[j])
				for q := 1; q < k; q++ {
					acc = a.add(acc, a.mul(x[i*k+q], y[q*m+j]))
				}
				r[i*m+j] = acc
			}
		}
	default:
		return fmt.Errorf("%w: mul(%s, %s): unsupported operand types", ErrMalformed, tx, ty)
	}
	return nil
}

func transposeIntrinsic(_ fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
	t := at[0]
	if t.Kind != ir.KMatrix {
		copy(r, args[0])
		return nil
	}
	rows, cols := t.Len, t.Cols
	if len(r) != rows*cols {
		return fmt.Errorf("%w: transpose of %s to %s", ErrMalformed, t, rt)
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			r[j*rows+i] = args[0][i*cols+j]
		}
	}
	return nil
}

// determinant expands along the first row (cofactors), recursively:
// det = sum_j (-1)^j * m[0][j] * det(minor(0, j)), accumulated in order.
func determinant(a arith, m []uint64, n int) uint64 {
	switch n {
	case 1:
		return m[0]
	case 2:
		return a.sub(a.mul(m[0], m[3]), a.mul(m[1], m[2]))
	}
	var acc uint64
	minor := make([]uint64, (n-1)*(n-1))
	for j := 0; j < n; j++ {
		k := 0
		for r := 1; r < n; r++ {
			for c := 0; c < n; c++ {
				if c != j {
					minor[k] = m[r*n+c]
					k++
				}
			}
		}
		term := a.mul(m[j], determinant(a, minor, n-1))
		switch {
		case j == 0:
			acc = term
		case j%2 == 1:
			acc = a.sub(acc, term)
		default:
			acc = a.add(acc, term)
		}
	}
	return acc
}
