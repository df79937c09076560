package interp

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"passlens/compiler/ir"
)

// This file runs the LLVM intrinsics of imported `.ll` modules. The
// importer keeps an intrinsic's exact LLVM name, overload suffix included
// (llvm.smax.i32, llvm.umin.v2i32, llvm.amdgcn.ballot.i64); the
// interpreter strips the suffix (llvmBase) and looks the base name up
// here, in intrinsics.go (HLSL names) or in wave.go (llvm.amdgcn wave
// operations). Generic intrinsics are elementwise over vectors; integer
// ones choose their signedness by name (smax vs umax), not by the operand
// type, since LLVM integers carry none.

// llvmBase strips an LLVM intrinsic name's overload suffixes: trailing
// components that spell a type (i32, f16, bf16, v4f32, p1, v2p0).
// Other names are returned unchanged.
func llvmBase(name string) string {
	if !strings.HasPrefix(name, "llvm.") {
		return name
	}
	for {
		i := strings.LastIndexByte(name, '.')
		if i <= len("llvm") || !isTypeSuffix(name[i+1:]) {
			return name
		}
		name = name[:i]
	}
}

// isTypeSuffix reports whether s spells an overload type: an optional
// vector prefix vN, then iN, fN, bf16 or pN.
func isTypeSuffix(s string) bool {
	digits := func(s string) bool {
		if s == "" {
			return false
		}
		for _, c := range s {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	if len(s) > 1 && s[0] == 'v' {
		j := 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == 1 {
			return false
		}
		s = s[j:]
	}
	switch {
	case s == "bf16":
		return true
	case s != "" && (s[0] == 'i' || s[0] == 'f' || s[0] == 'p'):
		return digits(s[1:])
	}
	return false
}

func signed(a arith) arith   { return arith{ir.KInt, a.b} }
func unsigned(a arith) arith { return arith{ir.KUint, a.b} }

// llvmElementwise are the generic LLVM intrinsics computed per component.
// Operands beyond the values (abs's and ctlz's "is poison" flag) are
// ignored: poison has no meaning here, the defined result is given.
var llvmElementwise = map[string]ewFn{
	"llvm.smax": func(a []uint64, at, rt arith) uint64 { return signed(at).max(a[0], a[1]) },
	"llvm.smin": func(a []uint64, at, rt arith) uint64 { return signed(at).min(a[0], a[1]) },
	"llvm.umax": func(a []uint64, at, rt arith) uint64 { return unsigned(at).max(a[0], a[1]) },
	"llvm.umin": func(a []uint64, at, rt arith) uint64 { return unsigned(at).min(a[0], a[1]) },
	"llvm.abs": func(a []uint64, at, rt arith) uint64 {
		if sext(a[0], at.b) < 0 {
			return -a[0] & widthMask(at.b)
		}
		return a[0] & widthMask(at.b)
	},
	"llvm.fabs":      func(a []uint64, at, rt arith) uint64 { return a[0] &^ signBit(at.b) },
	"llvm.sqrt":      unaryF(math.Sqrt),
	"llvm.floor":     unaryF(math.Floor),
	"llvm.ceil":      unaryF(math.Ceil),
	"llvm.trunc":     unaryF(math.Trunc),
	"llvm.rint":      unaryF(math.RoundToEven),
	"llvm.nearbyint": unaryF(math.RoundToEven),
	"llvm.roundeven": unaryF(math.RoundToEven),
	"llvm.round":     unaryF(math.Round), // half away from zero
	"llvm.exp":       unaryF(math.Exp),
	"llvm.exp2":      unaryF(math.Exp2),
	"llvm.exp10":     unaryF(func(x float64) float64 { return math.Pow(10, x) }),
	"llvm.log":       unaryF(math.Log),
	"llvm.log2":      unaryF(math.Log2),
	"llvm.log10":     unaryF(math.Log10),
	"llvm.sin":       unaryF(math.Sin),
	"llvm.cos":       unaryF(math.Cos),
	"llvm.tan":       unaryF(math.Tan),
	"llvm.pow":       func(a []uint64, at, rt arith) uint64 { return rt.from(math.Pow(at.f(a[0]), at.f(a[1]))) },
	"llvm.minnum":    func(a []uint64, at, rt arith) uint64 { return at.min(a[0], a[1]) },
	"llvm.maxnum":    func(a []uint64, at, rt arith) uint64 { return at.max(a[0], a[1]) },
	// minimum/maximum propagate NaNs and order -0 below +0.
	"llvm.minimum": func(a []uint64, at, rt arith) uint64 { return ieeeMinMax(a[0], a[1], at, false) },
	"llvm.maximum": func(a []uint64, at, rt arith) uint64 { return ieeeMinMax(a[0], a[1], at, true) },
	"llvm.copysign": func(a []uint64, at, rt arith) uint64 {
		s := signBit(at.b)
		return a[0]&^s | a[1]&s
	},
	// fma is fused: one rounding (through float64, exact for f16/f32
	// products); fmuladd is not fused here (LLVM lets the target choose),
	// so it rounds the product and the sum, like the rest of the
	// interpreter.
	"llvm.fma": func(a []uint64, at, rt arith) uint64 {
		return rt.from(math.FMA(at.f(a[0]), at.f(a[1]), at.f(a[2])))
	},
	"llvm.fmuladd":      func(a []uint64, at, rt arith) uint64 { return at.add(at.mul(a[0], a[1]), a[2]) },
	"llvm.canonicalize": func(a []uint64, at, rt arith) uint64 { return rt.from(at.f(a[0])) },
	"llvm.ldexp": func(a []uint64, at, rt arith) uint64 {
		return rt.from(math.Ldexp(at.f(a[0]), int(sext(a[1], 32))))
	},
	"llvm.ctpop": func(a []uint64, at, rt arith) uint64 { return uint64(bits.OnesCount64(a[0] & widthMask(at.b))) },
	"llvm.ctlz": func(a []uint64, at, rt arith) uint64 {
		return uint64(bits.LeadingZeros64(a[0]&widthMask(at.b)) - (64 - at.b))
	},
	"llvm.cttz": func(a []uint64, at, rt arith) uint64 {
		x := a[0] & widthMask(at.b)
		if x == 0 {
			return uint64(at.b)
		}
		return uint64(bits.TrailingZeros64(x))
	},
	"llvm.bitreverse": func(a []uint64, at, rt arith) uint64 { return bits.Reverse64(a[0]) >> uint(64-at.b) },
	"llvm.bswap": func(a []uint64, at, rt arith) uint64 {
		return bits.ReverseBytes64(a[0]) >> uint(64-at.b)
	},
	// fshl(a, b, s): the high half of (a:b) << (s mod width); fshr the low
	// half of (a:b) >> (s mod width).
	"llvm.fshl": func(a []uint64, at, rt arith) uint64 {
		w := uint64(at.b)
		s := a[2] % w
		m := widthMask(at.b)
		if s == 0 {
			return a[0] & m
		}
		return (a[0]<<s | (a[1]&m)>>(w-s)) & m
	},
	"llvm.fshr": func(a []uint64, at, rt arith) uint64 {
		w := uint64(at.b)
		s := a[2] % w
		m := widthMask(at.b)
		if s == 0 {
			return a[1] & m
		}
		return (a[0]<<(w-s) | (a[1]&m)>>s) & m
	},
	"llvm.sadd.sat": func(a []uint64, at, rt arith) uint64 { return satInt(a[0], a[1], at.b, true, false) },
	"llvm.ssub.sat": func(a []uint64, at, rt arith) uint64 { return satInt(a[0], a[1], at.b, true, true) },
	"llvm.uadd.sat": func(a []uint64, at, rt arith) uint64 { return satInt(a[0], a[1], at.b, false, false) },
	"llvm.usub.sat": func(a []uint64, at, rt arith) uint64 { return satInt(a[0], a[1], at.b, false, true) },
	"llvm.expect":   func(a []uint64, at, rt arith) uint64 { return a[0] },
}

// llvmNoOps are intrinsics without an effect on the interpreter's state:
// optimization hints, lifetime markers, scheduling and waits.
var llvmNoOps = map[string]bool{
	"llvm.lifetime.start": true, "llvm.lifetime.end": true, "llvm.assume": true,
	"llvm.experimental.noalias.scope.decl": true, "llvm.dbg.value": true, "llvm.dbg.declare": true,
	"llvm.dbg.assign": true, "llvm.donothing": true, "llvm.sideeffect": true,
	"llvm.amdgcn.s.waitcnt": true, "llvm.amdgcn.sched.barrier": true, "llvm.amdgcn.s.sleep": true,
	"llvm.amdgcn.s.setprio": true, "llvm.amdgcn.wave.barrier": true, "llvm.amdgcn.sched.group.barrier": true, "llvm.amdgcn.s.nop": true,
}

// llvmIntrinsic runs the LLVM intrinsics that are neither elementwise nor
// wave operations; false when name is none of them.
func (w *wave) llvmIntrinsic(fr *frame, ic *icode, mask uint64, name string) (bool, error) {
	if llvmNoOps[name] {
		return true, nil
	}
	if op, ok := strings.CutPrefix(ic.in.Intr.Name, "llvm.opaque."); ok {
		// The importer's stand-in for an LLVM construct passlens IR does
		// not model: its name is the construct plus a divergence tag.
		op = strings.TrimSuffix(strings.TrimSuffix(op, ".divergent"), ".uniform")
		if kind, ok := strings.CutPrefix(op, "atomicrmw."); ok {
			if done, err := w.opaqueAtomic(fr, ic, mask, kind); done {
				return true, err
			}
		}
		return true, fmt.Errorf("%w: this is LLVM `%s`, which passlens IR does not model (imported as an opaque operation, see docs/llvm-bridge.md); it can be analysed but not run", ErrUnsupported, op)
	}
	var p uint64
	switch name {
	case "llvm.amdgcn.dispatch.ptr":
		p = w.mc.dispatchPtr
	case "llvm.amdgcn.implicitarg.ptr":
		p = w.mc.implicitPtr
	case "llvm.amdgcn.wavefrontsize":
		for m := mask; m != 0; m &= m - 1 {
			w.dst(fr, ic.res, bits.TrailingZeros64(m))[0] = uint64(w.size)
		}
		return true, nil
	default:
		return false, nil
	}
	if ic.res < 0 {
		return true, fmt.Errorf("%w: %s must have a result", ErrMalformed, name)
	}
	for m := mask; m != 0; m &= m - 1 {
		w.dst(fr, ic.res, bits.TrailingZeros64(m))[0] = p
	}
	return true, nil
}

// packet creates a read-only byte object of n bytes filled by fill (the
// dispatch packet, the hidden arguments).
func (mc *machine) packet(n int, fill func(b []byte)) uint64 {
	b := make([]byte, n)
	fill(b)
	p := mc.mem.allocCells(n, ir.Array(ir.I8, -1), ir.SpaceUniform, "dispatch packet")
	o := mc.mem.objs[ptrObj(p)]
	o.ro, o.bytes = true, true
	for i, c := range b {
		o.cells[i] = uint64(c)
	}
	return p
}

func put16(b []byte, off int, v int) { b[off], b[off+1] = byte(v), byte(v>>8) }
func put32(b []byte, off int, v int) {
	put16(b, off, v)
	put16(b, off+2, v>>16)
}

// workDim is the number of dimensions of the run (1 to 3).
func (mc *machine) workDim() int {
	nt, d := mc.numThreads, mc.dispatch
	switch {
	case nt[2] > 1 || d[2] > 1:
		return 3
	case nt[1] > 1 || d[1] > 1:
		return 2
	}
	return 1
}

// dispatchPacket fills an hsa_kernel_dispatch_packet_t (HSA runtime
// specification): setup (dimensions) at 2, workgroup_size_x/y/z (u16) at
// 4, 6, 8, grid_size_x/y/z (u32, in work-items) at 12, 16, 20; the rest
// (header, segment sizes, kernel object, kernarg address, signal) is zero.
func (mc *machine) dispatchPacket(b []byte) {
	put16(b, 2, mc.workDim())
	for i := 0; i < 3; i++ {
		put16(b, 4+2*i, mc.numThreads[i])
		put32(b, 12+4*i, mc.numThreads[i]*mc.dispatch[i])
	}
}

// implicitArgs fills the hidden kernel arguments of code object version 5
// (AMDGPU back end documentation, "Amdhsa Code Object V5 Hidden
// Arguments"): block_count_x/y/z (u32) at 0, 4, 8, group_size_x/y/z (u16)
// at 12, 14, 16, remainder_x/y/z (u16) at 18, 20, 22 (zero: every group is
// whole), global_offset_x/y/z (u64) at 40, 48, 56 (zero) and grid_dims
// (u16) at 64.
func (mc *machine) implicitArgs(b []byte) {
	for i := 0; i < 3; i++ {
		put32(b, 4*i, mc.dispatch[i])
		put16(b, 12+2*i, mc.numThreads[i])
	}
	put16(b, 64, mc.workDim())
}

// ieeeMinMax is LLVM's minimum/maximum: a NaN operand gives NaN, and -0
// is less than +0.
func ieeeMinMax(x, y uint64, a arith, isMax bool) uint64 {
	fx, fy := a.f(x), a.f(y)
	switch {
	case math.IsNaN(fx):
		return x
	case math.IsNaN(fy):
		return y
	case fx == fy:
		// Equal values: they differ at most in the sign of a zero.
		neg := x&signBit(a.b) != 0
		if neg == isMax {
			return y
		}
		return x
	case (fx < fy) != isMax:
		return x
	}
	return y
}

// satInt adds or subtracts b-bit integers, saturating at the signed or
// unsigned range.
func satInt(x, y uint64, b int, isSigned, sub bool) uint64 {
	m := widthMask(b)
	if !isSigned {
		x, y = x&m, y&m
		if sub {
			if y > x {
				return 0
			}
			return x - y
		}
		if s := x + y; s <= m && s >= x {
			return s
		}
		return m
	}
	sx, sy := sext(x, b), sext(y, b)
	lo, hi := -int64(1)<<uint(b-1), int64(1)<<uint(b-1)-1
	var r int64
	var overflow bool
	if sub {
		r = sx - sy
		overflow = (sx^sy) < 0 && (sx^r) < 0
	} else {
		r = sx + sy
		overflow = (sx^sy) >= 0 && (sx^r) < 0
	}
	if overflow { // only at 64 bits: narrower sums fit an int64
		if sx < 0 {
			return uint64(lo) & m
		}
		return uint64(hi) & m
	}
	return uint64(max(lo, min(hi, r))) & m
}

// opaqueAtomic runs an atomicrmw the importer kept as opaque
// (llvm.opaque.atomicrmw.OP: float operations, sub, nand, the wrapping
// ones, and integer ones on types passlens's atomics do not take) on a
// scalar, lane by lane in ascending order, returning the old value; done
// is false for operations or types it does not know.
func (w *wave) opaqueAtomic(fr *frame, ic *icode, mask uint64, kind string) (done bool, err error) {
	if len(ic.args) != 2 || ic.res < 0 || ic.args[0].typ.Kind != ir.KPointer {
		return false, nil
	}
	t := ic.args[1].typ
	if !t.IsScalar() || ic.in.Type() != t {
		return false, nil
	}
	a := w.fenv().arith(t)
	m := widthMask(bitsOf(t))
	var f func(old, v uint64) uint64
	switch kind {
	case "fadd":
		f = a.add
	case "fsub":
		f = a.sub
	case "fmax":
		f = a.max
	case "fmin":
		f = a.min
	case "fmaximum", "fminimum":
		f = func(old, v uint64) uint64 { return ieeeMinMax(old, v, a, kind == "fmaximum") }
	case "xchg":
		f = func(_, v uint64) uint64 { return v }
	case "add", "sub", "and", "or", "xor", "nand", "max", "min", "umax", "umin":
		b := bitsOf(t)
		f = func(old, v uint64) uint64 {
			switch kind {
			case "add":
				return (old + v) & m
			case "sub":
				return (old - v) & m
			case "and":
				return old & v & m
			case "or":
				return (old | v) & m
			case "xor":
				return (old ^ v) & m
			case "nand":
				return ^(old & v) & m
			case "max":
				return signed(arith{ir.KInt, b}).max(old, v) & m
			case "min":
				return signed(arith{ir.KInt, b}).min(old, v) & m
			case "umax":
				return max(old&m, v&m)
			}
			return min(old&m, v&m)
		}
	case "uinc_wrap":
		f = func(old, v uint64) uint64 {
			if old&m >= v&m {
				return 0
			}
			return (old + 1) & m
		}
	case "udec_wrap":
		f = func(old, v uint64) uint64 {
			if old&m == 0 || old&m > v&m {
				return v & m
			}
			return (old - 1) & m
		}
	case "usub_cond":
		f = func(old, v uint64) uint64 {
			if old&m >= v&m {
				return (old - v) & m
			}
			return old & m
		}
	case "usub_sat":
		f = func(old, v uint64) uint64 {
			if old&m >= v&m {
				return (old - v) & m
			}
			return 0
		}
	default:
		return false, nil
	}
	if a.isFloat() != (kind[0] == 'f') && kind != "xchg" {
		return false, nil
	}
	mem := w.mc.mem
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		o, c := mem.resolve(w.arg(fr, &ic.args[0], l)[0], 1)
		if o != nil && o.ro {
			return true, fmt.Errorf("%w: atomicrmw %s on read-only %s %s", ErrReadOnly, kind, o.space, o.name)
		}
		r := w.dst(fr, ic.res, l)
		if c == nil {
			r[0] = 0
			continue
		}
		old := c[0]
		c[0] = f(old, w.arg(fr, &ic.args[1], l)[0])
		r[0] = old
	}
	w.traceOp(fr, ic, mask)
	return true, nil
}
