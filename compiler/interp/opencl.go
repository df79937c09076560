package interp

import (
	"fmt"
	"math/bits"
	"strconv"

	"passlens/compiler/ir"
)

// This file executes calls of OpenCL C built-in functions that a kernel
// compiled without a device library leaves as declarations
// (`clang -x cl -target amdgcn-amd-amdhsa -nogpulib` calls
// @_Z13get_global_idj for get_global_id(uint)): here the work-item
// functions, barriers and fences; the sub-group collectives, whose
// sub-group is the wave, and the work-group functions (opencl_subgroup.go); the atomics
// (opencl_atomic.go); the integer and math functions (opencl_math.go). A
// call of any other function without a body is an ErrUnsupported error
// naming it.

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
