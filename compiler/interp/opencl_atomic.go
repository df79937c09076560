package interp

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// This file executes the OpenCL atomic built-ins (opencl.go) on buffer
// memory, lane by lane in ascending order.

// clAtomicKinds maps the OpenCL atomic functions (OpenCL 1.x atomic_* and
// atom_*, OpenCL 2.0 atomic_fetch_*[_explicit] and atomic_exchange) to
// read-modify-write kinds; inc and dec add and subtract 1.
var clAtomicKinds = map[string]ir.AtomicKind{
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
