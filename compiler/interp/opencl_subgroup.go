package interp

import (
	"math"
	"math/bits"

	"passlens/compiler/ir"
)

// This file computes the cl_khr_subgroups collectives (opencl.go): the
// sub-group is the wave, and its active lanes take part.

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
