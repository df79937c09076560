package interp

import (
	"math"
	"strings"

	"passlens/compiler/ir"
)

// This file computes the OpenCL collectives: the cl_khr_subgroups
// functions, whose sub-group is the wave and whose participants are its
// active lanes, and the OpenCL 2.0 work-group functions, which every
// work-item of the group reaches together like a barrier (exec.go stops
// each wave there; runGroup computes them once all waves have arrived).
// Participants combine in ascending order: lane order in a wave, local
// linear id order in a work-group.

// collKind is the shape of a collective.
type collKind uint8

const (
	collReduce collKind = iota + 1
	collInclusive
	collExclusive
	collAny
	collAll
	collBroadcast
)

// parseCollective reads PREFIX_reduce_OP, PREFIX_scan_inclusive_OP,
// PREFIX_scan_exclusive_OP (OP add, min or max), PREFIX_any, PREFIX_all
// and PREFIX_broadcast.
func parseCollective(name, prefix string) (k collKind, op string, ok bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, "", false
	}
	switch rest {
	case "any":
		return collAny, "", true
	case "all":
		return collAll, "", true
	case "broadcast":
		return collBroadcast, "", true
	}
	for _, f := range []struct {
		p string
		k collKind
	}{{"reduce_", collReduce}, {"scan_inclusive_", collInclusive}, {"scan_exclusive_", collExclusive}} {
		if op, ok := strings.CutPrefix(rest, f.p); ok && (op == "add" || op == "min" || op == "max") {
			return f.k, op, true
		}
	}
	return 0, "", false
}

// collect computes a reduction, scan, any or all over vals (the
// participants' values in order), one result per participant.
func collect(k collKind, op string, a arith, vals []uint64) []uint64 {
	out := make([]uint64, len(vals))
	switch k {
	case collAny, collAll:
		any, all := false, true
		for _, v := range vals {
			nz := v&widthMask(a.b) != 0
			any, all = any || nz, all && nz
		}
		r := b2u(any)
		if k == collAll {
			r = b2u(all)
		}
		for i := range out {
			out[i] = r
		}
		return out
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
	default:
		combine = a.max
		switch a.k {
		case ir.KFloat:
			id = a.from(math.Inf(-1))
		case ir.KInt:
			id = 1 << uint(a.b-1)
		}
	}
	acc := id
	for i, v := range vals {
		if k == collExclusive {
			out[i] = acc
		}
		if i == 0 {
			acc = v
		} else {
			acc = combine(acc, v)
		}
		if k == collInclusive {
			out[i] = acc
		}
	}
	if k == collReduce {
		for i := range out {
			out[i] = acc
		}
	}
	return out
}

// clSubGroup computes the cl_khr_subgroups collectives over the wave's
// active lanes; false when b is not one. sub_group_broadcast's source
// lane is uniform; an inactive or out-of-range one gives 0.
func (w *wave) clSubGroup(fr *frame, ic *icode, mask uint64, b clBuiltin) bool {
	k, op, ok := parseCollective(b.name, "sub_group_")
	if !ok {
		return false
	}
	if ic.res < 0 || len(ic.args) == 0 {
		return true
	}
	a := w.clArith(clParamCode(b.params), ic.args[0].typ)
	lanes := lanesOf(mask)
	vals := make([]uint64, len(lanes))
	for i, l := range lanes {
		vals[i] = w.arg(fr, &ic.args[0], l)[0]
	}
	var res []uint64
	if k == collBroadcast {
		var v uint64
		if len(ic.args) > 1 {
			src := int(w.arg(fr, &ic.args[1], lanes[0])[0] & 0xFFFFFFFF)
			if src < w.size && mask&(1<<uint(src)) != 0 {
				v = w.arg(fr, &ic.args[0], src)[0]
			}
		}
		res = make([]uint64, len(lanes))
		for i := range res {
			res[i] = v
		}
	} else {
		res = collect(k, op, a, vals)
	}
	for i, l := range lanes {
		w.dst(fr, ic.res, l)[0] = res[i]
	}
	return true
}

// isCLGroupCollective reports whether in calls an OpenCL work-group
// function (a declaration named work_group_reduce_add, ...).
func isCLGroupCollective(in *ir.Instr) bool {
	if in.Op != ir.OpCall || in.Callee == nil || !in.Callee.IsDeclaration() {
		return false
	}
	b, ok := demangleCL(in.Callee.Name())
	if !ok {
		return false
	}
	_, _, ok = parseCollective(b.name, "work_group_")
	return ok
}

// groupCollective computes the work-group function every wave of the
// group waits at (each wave's collFrame and collCode), over all live
// work-items in local linear id order, writes each its result and traces
// the operation per wave. work_group_broadcast(v, x[, y[, z]]) reads the
// work-item at local id (x, y, z); an id outside the group gives 0.
func (mc *machine) groupCollective(waves []*wave) error {
	type item struct {
		w *wave
		l int
	}
	var items []item
	var vals []uint64
	var ic *icode
	for _, w := range waves {
		if w.collCode == nil {
			continue
		}
		ic = w.collCode
		for _, l := range lanesOf(w.present &^ w.killed) {
			items = append(items, item{w, l})
			vals = append(vals, w.arg(w.collFrame, &ic.args[0], l)[0])
		}
	}
	if ic == nil || ic.res < 0 || len(ic.args) == 0 {
		return nil
	}
	b, _ := demangleCL(ic.in.Callee.Name())
	k, op, _ := parseCollective(b.name, "work_group_")
	first := items[0]
	a := first.w.clArith(clParamCode(b.params), ic.args[0].typ)
	var res []uint64
	if k == collBroadcast {
		var id [3]int
		for i := 1; i < len(ic.args) && i <= 3; i++ {
			id[i-1] = int(first.w.arg(first.w.collFrame, &ic.args[i], first.l)[0])
		}
		nt := mc.numThreads
		var v uint64
		if id[0] < nt[0] && id[1] < nt[1] && id[2] < nt[2] && id[0] >= 0 && id[1] >= 0 && id[2] >= 0 {
			src := (id[2]*nt[1]+id[1])*nt[0] + id[0]
			for i, it := range items {
				if it.w.inv[it.l] != nil && it.w.inv[it.l].groupIndex == src {
					v = vals[i]
				}
			}
		}
		res = make([]uint64, len(items))
		for i := range res {
			res[i] = v
		}
	} else {
		res = collect(k, op, a, vals)
	}
	for i, it := range items {
		it.w.dst(it.w.collFrame, ic.res, it.l)[0] = res[i]
	}
	for _, w := range waves {
		if w.collCode != nil {
			w.traceOp(w.collFrame, w.collCode, w.present&^w.killed)
			w.collCode, w.collFrame = nil, nil
		}
	}
	return nil
}
