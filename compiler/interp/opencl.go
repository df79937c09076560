package interp

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// This file executes calls of OpenCL C built-in functions that a kernel
// compiled without a device library leaves as declarations
// (`clang -x cl -target amdgcn-amd-amdhsa -nogpulib` calls
// @_Z13get_global_idj for get_global_id(uint)): the work-item functions,
// barriers and fences, and the cl_khr_subgroups collectives, whose
// sub-group is the wave. A call of any other function without a body is
// an ErrUnsupported error naming it.

// clBuiltin is a recognized OpenCL built-in: its name and the Itanium
// codes of its parameters ("j" for uint, "i" for int, "f" for float).
type clBuiltin struct {
	name   string
	params string
}

// demangleCL reads an Itanium-mangled OpenCL built-in name: _Z, the name's
// length and the name, then the parameter codes.
func demangleCL(s string) (clBuiltin, bool) {
	if len(s) < 4 || s[:2] != "_Z" {
		return clBuiltin{}, false
	}
	i := 2
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(s[2:i])
	if err != nil || n <= 0 || i+n > len(s) {
		return clBuiltin{}, false
	}
	return clBuiltin{name: s[i : i+n], params: s[i+n:]}, true
}

// clSyncBarriers are the built-ins that synchronize the work-group.
var clSyncBarriers = map[string]bool{"barrier": true, "work_group_barrier": true}

// clNoOps order memory only (memory is coherent here) or synchronize a
// sub-group, which a wave's lanes do by running together.
var clNoOps = map[string]bool{"mem_fence": true, "read_mem_fence": true, "write_mem_fence": true,
	"atomic_work_item_fence": true, "sub_group_barrier": true}

// isCLSyncBarrier reports whether in calls a synchronizing OpenCL barrier.
func isCLSyncBarrier(in *ir.Instr) bool {
	if in.Op != ir.OpCall || in.Callee == nil || !in.Callee.IsDeclaration() {
		return false
	}
	b, ok := demangleCL(in.Callee.Name())
	return ok && clSyncBarriers[b.name]
}

// builtinCall executes a call of a declaration for the lanes of mask.
func (w *wave) builtinCall(fr *frame, ic *icode, mask uint64) error {
	callee := ic.in.Callee
	b, ok := demangleCL(callee.Name())
	if ok {
		if handled, err := w.clAtomic(fr, ic, mask, b); handled {
			return err
		}
		if f, found := clMath(b); found {
			return w.elementwise(fr, ic, mask, f)
		}
	}
	if !ok || !w.clWorkItem(fr, ic, mask, b) && !w.clSubGroup(fr, ic, mask, b) && !clNoOps[b.name] {
		return fmt.Errorf("%w: call of @%s, a function without a body (of the OpenCL built-ins only those docs/run.md lists run; link the definition or inline it)", ErrUnsupported, ir.QuoteName(callee.Name()))
	}
	if clNoOps[b.name] || len(b.name) > 10 && b.name[:10] == "sub_group_" {
		w.traceOp(fr, ic, mask)
	}
	return nil
}

// clWorkItem computes the work-item functions; false when b is not one.
func (w *wave) clWorkItem(fr *frame, ic *icode, mask uint64, b clBuiltin) bool {
	mc := w.mc
	nt, d := mc.numThreads, mc.dispatch
	// dim reads the dimension operand; out-of-range dimensions give def.
	dim := func(l int) (int, bool) {
		if len(ic.args) == 0 {
			return 0, false
		}
		v := w.arg(fr, &ic.args[0], l)[0] & 0xFFFFFFFF
		return int(v), v < 3
	}
	var f func(l int, inv *invocation) uint64
	switch b.name {
	case "get_global_id", "get_local_id", "get_group_id", "get_global_offset":
		f = func(l int, inv *invocation) uint64 {
			k, ok := dim(l)
			if !ok {
				return 0
			}
			switch b.name {
			case "get_global_id":
				return uint64(inv.dispatch[k])
			case "get_local_id":
				return uint64(inv.groupThread[k])
			case "get_group_id":
				return uint64(inv.group[k])
			}
			return 0
		}
	case "get_local_size", "get_enqueued_local_size", "get_global_size", "get_num_groups":
		f = func(l int, inv *invocation) uint64 {
			k, ok := dim(l)
			if !ok {
				return 1
			}
			switch b.name {
			case "get_global_size":
				return uint64(nt[k] * d[k])
			case "get_num_groups":
				return uint64(d[k])
			}
			return uint64(nt[k])
		}
	case "get_work_dim":
		f = func(int, *invocation) uint64 {
			switch {
			case nt[2] > 1 || d[2] > 1:
				return 3
			case nt[1] > 1 || d[1] > 1:
				return 2
			}
			return 1
		}
	case "get_global_linear_id":
		f = func(_ int, inv *invocation) uint64 {
			gx, gy := nt[0]*d[0], nt[1]*d[1]
			g := inv.dispatch
			return uint64((g[2]*gy+g[1])*gx + g[0])
		}
	case "get_local_linear_id":
		f = func(_ int, inv *invocation) uint64 { return uint64(inv.groupIndex) }
	case "get_sub_group_size":
		// The last wave of a group may be partly filled.
		f = func(_ int, inv *invocation) uint64 {
			per := nt[0] * nt[1] * nt[2]
			return uint64(min(w.size, per-inv.wave*w.size))
		}
	case "get_max_sub_group_size":
		f = func(int, *invocation) uint64 { return uint64(w.size) }
	case "get_num_sub_groups", "get_enqueued_num_sub_groups":
		f = func(int, *invocation) uint64 { return uint64((nt[0]*nt[1]*nt[2] + w.size - 1) / w.size) }
	case "get_sub_group_id":
		f = func(_ int, inv *invocation) uint64 { return uint64(inv.wave) }
	case "get_sub_group_local_id":
		f = func(_ int, inv *invocation) uint64 { return uint64(inv.lane) }
	default:
		return false
	}
	if ic.res < 0 {
		return true
	}
	rb := bitsOf(ic.in.Type())
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		if inv := w.inv[l]; inv != nil {
			w.dst(fr, ic.res, l)[0] = f(l, inv) & widthMask(rb)
		}
	}
	return true
}

// clParamCode is the Itanium code of a built-in's first parameter's
// scalar type: "i" for int, "j" for uint, "f" for float; a vector
// (Dv4_f) gives its element's.
func clParamCode(params string) string {
	if rest, ok := strings.CutPrefix(params, "Dv"); ok {
		if i := strings.IndexByte(rest, '_'); i >= 0 {
			params = rest[i+1:]
		}
	}
	if params == "" {
		return ""
	}
	return params[:1]
}

// clMath returns the elementwise computation of an OpenCL integer or
// math built-in (scalars and vectors), with the signedness of its mangled
// parameter type; found is false for other names.
func clMath(b clBuiltin) (f ewFn, found bool) {
	code := clParamCode(b.params)
	kind := ir.Kind(0)
	switch code {
	case "c", "a", "s", "i", "l", "x":
		kind = ir.KInt
	case "h", "t", "j", "m", "y":
		kind = ir.KUint
	}
	adj := func(a arith) arith {
		if kind != 0 && a.k != ir.KFloat {
			a.k = kind
		}
		return a
	}
	name := strings.TrimPrefix(strings.TrimPrefix(b.name, "native_"), "half_")
	if g, ok := llvmElementwise["llvm."+name]; ok && !clIntOnly[name] {
		// sqrt, floor, exp2, sin, pow, fma, copysign, ...
		return g, true
	}
	switch name {
	case "min", "fmin":
		return func(a []uint64, at, rt arith) uint64 { return adj(at).min(a[0], a[1]) }, true
	case "max", "fmax":
		return func(a []uint64, at, rt arith) uint64 { return adj(at).max(a[0], a[1]) }, true
	case "clamp":
		return func(a []uint64, at, rt arith) uint64 {
			x := adj(at)
			return x.min(x.max(a[0], a[1]), a[2])
		}, true
	case "abs":
		if kind == ir.KUint {
			return func(a []uint64, at, rt arith) uint64 { return a[0] & widthMask(at.b) }, true
		}
		return llvmElementwise["llvm.abs"], true
	case "fabs":
		return llvmElementwise["llvm.fabs"], true
	case "abs_diff":
		return func(a []uint64, at, rt arith) uint64 {
			x := adj(at)
			if x.lt(a[0], a[1]) {
				return (a[1] - a[0]) & widthMask(at.b)
			}
			return (a[0] - a[1]) & widthMask(at.b)
		}, true
	case "popcount":
		return llvmElementwise["llvm.ctpop"], true
	case "clz":
		return llvmElementwise["llvm.ctlz"], true
	case "ctz":
		return llvmElementwise["llvm.cttz"], true
	case "rotate":
		return func(a []uint64, at, rt arith) uint64 {
			return llvmElementwise["llvm.fshl"]([]uint64{a[0], a[0], a[1]}, at, rt)
		}, true
	case "mul24":
		return func(a []uint64, at, rt arith) uint64 { return at.mul(a[0], a[1]) }, true
	case "mad24", "mad":
		// mad is a*b+c with the product rounded (not fused), like fmuladd.
		return func(a []uint64, at, rt arith) uint64 { return at.add(at.mul(a[0], a[1]), a[2]) }, true
	case "mul_hi":
		return func(a []uint64, at, rt arith) uint64 { return mulHi(a[0], a[1], adj(at)) }, true
	case "mad_hi":
		return func(a []uint64, at, rt arith) uint64 { return (mulHi(a[0], a[1], adj(at)) + a[2]) & widthMask(at.b) }, true
	case "add_sat", "sub_sat":
		sub := name == "sub_sat"
		return func(a []uint64, at, rt arith) uint64 { return satInt(a[0], a[1], at.b, adj(at).k == ir.KInt, sub) }, true
	case "rsqrt":
		return unaryF(func(x float64) float64 { return 1 / math.Sqrt(x) }), true
	case "fdim":
		return func(a []uint64, at, rt arith) uint64 {
			x, y := at.f(a[0]), at.f(a[1])
			if x > y {
				return at.sub(a[0], a[1])
			}
			if math.IsNaN(x) || math.IsNaN(y) {
				return rt.from(math.NaN())
			}
			return rt.from(0)
		}, true
	}
	return nil, false
}

// clIntOnly are LLVM intrinsic names that mean something else as OpenCL
// built-ins of the same name (OpenCL abs returns an unsigned value).
var clIntOnly = map[string]bool{"abs": true}

// mulHi is the high half of the double-width product of two b-bit
// integers, signed or unsigned as a says.
func mulHi(x, y uint64, a arith) uint64 {
	m := widthMask(a.b)
	if a.b < 64 {
		if a.k == ir.KInt {
			return uint64(sext(x, a.b)*sext(y, a.b)>>uint(a.b)) & m
		}
		return ((x & m) * (y & m) >> uint(a.b)) & m
	}
	hi, _ := bits.Mul64(x, y)
	if a.k == ir.KInt {
		// Signed: subtract the other operand for each negative one.
		if int64(x) < 0 {
			hi -= y
		}
		if int64(y) < 0 {
			hi -= x
		}
	}
	return hi
}

// clArith is the arithmetic of an Itanium parameter code: signed and
// unsigned integers of 8 to 64 bits, half, float and double.
func (w *wave) clArith(code string, t *ir.Type) arith {
	a := w.fenv().arith(t)
	switch code {
	case "c", "a", "s", "i", "l", "x":
		a.k = ir.KInt
	case "h", "t", "j", "m", "y":
		a.k = ir.KUint
	}
	return a
}

// clSubGroup computes the cl_khr_subgroups collectives over the wave's
// active lanes, in ascending lane order; false when b is not one.
func (w *wave) clSubGroup(fr *frame, ic *icode, mask uint64, b clBuiltin) bool {
	var op string
	var scan, inclusive bool
	switch b.name {
	case "sub_group_reduce_add", "sub_group_reduce_min", "sub_group_reduce_max":
		op = b.name[len("sub_group_reduce_"):]
	case "sub_group_scan_inclusive_add", "sub_group_scan_inclusive_min", "sub_group_scan_inclusive_max":
		op, scan, inclusive = b.name[len("sub_group_scan_inclusive_"):], true, true
	case "sub_group_scan_exclusive_add", "sub_group_scan_exclusive_min", "sub_group_scan_exclusive_max":
		op, scan = b.name[len("sub_group_scan_exclusive_"):], true
	case "sub_group_broadcast", "sub_group_any", "sub_group_all":
	default:
		return false
	}
	if ic.res < 0 || len(ic.args) == 0 {
		return true
	}
	code := b.params
	if len(code) > 0 {
		code = code[:1]
	}
	a := w.clArith(code, ic.args[0].typ)
	val := func(l int) uint64 { return w.arg(fr, &ic.args[0], l)[0] }
	set := func(l int, v uint64) { w.dst(fr, ic.res, l)[0] = v }
	switch b.name {
	case "sub_group_broadcast":
		// The source lane is uniform; an inactive or out-of-range lane gives 0.
		var v uint64
		if len(ic.args) > 1 {
			src := int(w.arg(fr, &ic.args[1], bits.TrailingZeros64(mask))[0] & 0xFFFFFFFF)
			if src < w.size && mask&(1<<uint(src)) != 0 {
				v = val(src)
			}
		}
		for m := mask; m != 0; m &= m - 1 {
			set(bits.TrailingZeros64(m), v)
		}
		return true
	case "sub_group_any", "sub_group_all":
		any, all := false, true
		for m := mask; m != 0; m &= m - 1 {
			nz := val(bits.TrailingZeros64(m))&widthMask(a.b) != 0
			any, all = any || nz, all && nz
		}
		r := b2u(any)
		if b.name == "sub_group_all" {
			r = b2u(all)
		}
		for m := mask; m != 0; m &= m - 1 {
			set(bits.TrailingZeros64(m), r)
		}
		return true
	}
	var combine func(x, y uint64) uint64
	var id uint64
	switch op {
	case "add":
		combine, id = a.add, 0
	case "min":
		combine = a.min
		switch a.k {
		case ir.KFloat:
			id = a.from(math.Inf(1))
		case ir.KInt:
			id = widthMask(a.b) >> 1
		default:
			id = widthMask(a.b)
		}
	case "max":
		combine = a.max
		switch a.k {
		case ir.KFloat:
			id = a.from(math.Inf(-1))
		case ir.KInt:
			id = 1 << uint(a.b-1)
		default:
			id = 0
		}
	}
	acc, started := id, false
	total := func() uint64 {
		for m := mask; m != 0; m &= m - 1 {
			v := val(bits.TrailingZeros64(m))
			if !started {
				acc, started = v, true
			} else {
				acc = combine(acc, v)
			}
		}
		return acc
	}
	if !scan {
		r := total()
		for m := mask; m != 0; m &= m - 1 {
			set(bits.TrailingZeros64(m), r)
		}
		return true
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		v := val(l)
		if !inclusive {
			set(l, acc)
		}
		if !started {
			acc, started = v, true
		} else {
			acc = combine(acc, v)
		}
		if inclusive {
			set(l, acc)
		}
	}
	return true
}

// clAtomicKinds maps the OpenCL atomic functions (OpenCL 1.x atomic_* and
// atom_*, OpenCL 2.0 atomic_fetch_*[_explicit] and atomic_exchange) to
// read-modify-write kinds; inc and dec add and subtract 1.
var clAtomicKinds = map[string]ir.Pred{
	"add": ir.AtomicAdd, "sub": ir.AtomicAdd, "inc": ir.AtomicAdd, "dec": ir.AtomicAdd,
	"xchg": ir.AtomicXchg, "exchange": ir.AtomicXchg, "min": ir.AtomicMin, "max": ir.AtomicMax,
	"and": ir.AtomicAnd, "or": ir.AtomicOr, "xor": ir.AtomicXor, "cmpxchg": ir.AtomicCmpXchg,
}

// clElemCode is the Itanium code of the pointee of an atomic built-in's
// first parameter: pointer, qualifier and address-space prefixes skipped
// (PU3AS1Vi is a volatile global int*, "i").
func clElemCode(params string) string {
	for i := 0; i < len(params); {
		switch c := params[i]; {
		case c == 'P' || c == 'V' || c == 'K' || c == 'r':
			i++
		case c == 'U':
			j := i + 1
			for j < len(params) && params[j] >= '0' && params[j] <= '9' {
				j++
			}
			n, _ := strconv.Atoi(params[i+1 : j])
			i = j + n
		default:
			return params[i : i+1]
		}
	}
	return ""
}

// clAtomic executes an OpenCL atomic built-in on its first argument's
// memory, lane by lane in ascending order; handled is false when b is not
// one.
func (w *wave) clAtomic(fr *frame, ic *icode, mask uint64, b clBuiltin) (handled bool, err error) {
	op, ok := strings.CutPrefix(b.name, "atomic_")
	if !ok {
		op, ok = strings.CutPrefix(b.name, "atom_")
	}
	if !ok {
		return false, nil
	}
	op = strings.TrimSuffix(strings.TrimPrefix(op, "fetch_"), "_explicit")
	kind, isRMW := clAtomicKinds[op]
	if !isRMW && op != "load" && op != "store" && op != "init" {
		return false, nil
	}
	if len(ic.args) == 0 || ic.args[0].typ.Kind != ir.KPointer {
		return true, fmt.Errorf("%w: %s needs a pointer operand", ErrMalformed, b.name)
	}
	// The value's type: the result's, else the stored operand's.
	t := ic.in.Type()
	if ic.res < 0 && len(ic.args) > 1 {
		t = ic.args[1].typ
	}
	if !t.IsScalar() {
		return true, fmt.Errorf("%w: %s on %s (scalars only)", ErrUnsupported, b.name, t)
	}
	a := w.clArith(clElemCode(b.params), t)
	st := t
	if a.k == ir.KUint {
		// Unsigned min and max; the other kinds ignore signedness.
		switch kind {
		case ir.AtomicMin:
			kind = ir.AtomicUMin
		case ir.AtomicMax:
			kind = ir.AtomicUMax
		}
	}
	mem := w.mc.mem
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		o, c := mem.resolve(w.arg(fr, &ic.args[0], l)[0], 1)
		if o != nil && o.ro && op != "load" {
			return true, fmt.Errorf("%w: %s on read-only %s %s", ErrReadOnly, b.name, o.space, o.name)
		}
		var old uint64
		if c != nil {
			old = c[0]
		}
		operand := func(i int) uint64 {
			if i < len(ic.args) {
				return w.arg(fr, &ic.args[i], l)[0]
			}
			return 0
		}
		nv := old
		switch op {
		case "load":
		case "store", "init":
			nv = operand(1)
		case "inc":
			nv = atomicOp(kind, st, a.b, old, 1, 0)
		case "dec", "sub":
			d := uint64(1)
			if op == "sub" {
				d = operand(1)
			}
			nv = atomicOp(kind, st, a.b, old, -d&widthMask(a.b), 0)
		case "cmpxchg":
			nv = atomicOp(kind, st, a.b, old, operand(2), operand(1))
		default:
			nv = atomicOp(kind, st, a.b, old, operand(1), 0)
		}
		if c != nil {
			c[0] = nv & widthMask(a.b)
		}
		if ic.res >= 0 {
			w.dst(fr, ic.res, l)[0] = old & widthMask(a.b)
		}
	}
	w.traceOp(fr, ic, mask)
	return true, nil
}
