package interp

import (
	"fmt"
	"math/bits"

	"passlens/compiler/ir"
)

// This file implements wave (subgroup) operations, barriers and the AMDGPU
// intrinsics of the LLVM bridge. A wave operation sees exactly the lanes of
// the executing group that are not helper lanes: its active lanes. Reductions and prefixes combine
// values in ascending lane order (so float sums are reproducible), per
// vector component. WaveReadLaneAt of an inactive or out-of-range lane
// returns zero. Memory barriers without group sync are no-ops (memory is
// always coherent here); synchronizing barriers are handled by exec.go.

func (w *wave) waveIntrinsic(fr *frame, ic *icode, all uint64) error {
	// Helper lanes (quad.go) are not active lanes of wave operations: they
	// contribute nothing, and receive the result computed without them.
	mask := all &^ w.helper
	in := ic.in
	name := ic.name
	if n, ok := amdgpuArgs[name]; ok && len(ic.args) < n {
		return fmt.Errorf("%w: %s needs %d operands, has %d", ErrMalformed, name, n, len(ic.args))
	}
	if ic.res < 0 && !isBarrier(in.Intr) {
		return fmt.Errorf("%w: %s must have a result", ErrMalformed, name)
	}
	first := bits.TrailingZeros64(mask)
	forLanes := func(f func(l int, r []uint64)) {
		for m := all; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			f(l, w.dst(fr, ic.res, l))
		}
	}
	arg := func(i, l int) []uint64 { return w.arg(fr, &ic.args[i], l) }
	var at arith
	if len(ic.args) > 0 {
		at = w.fenv().arith(ic.args[0].typ)
	}
	// fold combines the operand over lanes (ascending) into out, per component.
	fold := func(lanes uint64, out []uint64, id uint64, op func(x, y uint64) uint64) {
		started := false
		for m := lanes; m != 0; m &= m - 1 {
			v := arg(0, bits.TrailingZeros64(m))
			for i := range out {
				if !started {
					out[i] = pick(v, i)
				} else {
					out[i] = op(out[i], pick(v, i))
				}
			}
			started = true
		}
		if !started {
			for i := range out {
				out[i] = id
			}
		}
	}
	reduce := func(id uint64, op func(x, y uint64) uint64) {
		tmp := make([]uint64, ic.w)
		fold(mask, tmp, id, op)
		forLanes(func(l int, r []uint64) { copy(r, tmp) })
	}
	prefix := func(id uint64, op func(x, y uint64) uint64) {
		forLanes(func(l int, r []uint64) {
			fold(mask&(1<<uint(l)-1), r, id, op)
		})
	}
	bitOp := func(op ir.Op) func(x, y uint64) uint64 {
		return func(x, y uint64) uint64 { return intBinary(op, x, y, at.b) }
	}
	switch name {
	case "WaveGetLaneIndex":
		forLanes(func(l int, r []uint64) { r[0] = uint64(l) })
	case "WaveGetLaneCount":
		forLanes(func(l int, r []uint64) { r[0] = uint64(w.size) })
	case "WaveIsFirstLane":
		forLanes(func(l int, r []uint64) { r[0] = b2u(l == first) })
	case "WaveActiveSum":
		reduce(at.zero(), at.add)
	case "WaveActiveProduct":
		reduce(at.one(), at.mul)
	case "WaveActiveMin":
		reduce(0, at.min)
	case "WaveActiveMax":
		reduce(0, at.max)
	case "WaveActiveBitAnd":
		reduce(widthMask(at.b), bitOp(ir.OpAnd))
	case "WaveActiveBitOr":
		reduce(0, bitOp(ir.OpOr))
	case "WaveActiveBitXor":
		reduce(0, bitOp(ir.OpXor))
	case "WavePrefixSum":
		prefix(at.zero(), at.add)
	case "WavePrefixProduct":
		prefix(at.one(), at.mul)
	case "WaveActiveAllTrue", "WaveActiveAnyTrue":
		all, any := true, false
		for m := mask; m != 0; m &= m - 1 {
			t := arg(0, bits.TrailingZeros64(m))[0]&1 != 0
			all = all && t
			any = any || t
		}
		res := any
		if name == "WaveActiveAllTrue" {
			res = all
		}
		forLanes(func(l int, r []uint64) { r[0] = b2u(res) })
	case "WaveActiveAllEqual":
		// Per component when the result is a vector, else over all components.
		n := ic.args[0].w
		eq := make([]bool, n)
		for i := range eq {
			eq[i] = true
		}
		ref := arg(0, first)
		for m := mask; m != 0; m &= m - 1 {
			v := arg(0, bits.TrailingZeros64(m))
			for i := range eq {
				if !at.eq(v[i], ref[i]) {
					eq[i] = false
				}
			}
		}
		forLanes(func(l int, r []uint64) {
			if len(r) == n {
				for i := range r {
					r[i] = b2u(eq[i])
				}
				return
			}
			all := true
			for _, e := range eq {
				all = all && e
			}
			r[0] = b2u(all)
		})
	case "WaveActiveCountBits":
		var n uint64
		for m := mask; m != 0; m &= m - 1 {
			n += arg(0, bits.TrailingZeros64(m))[0] & 1
		}
		forLanes(func(l int, r []uint64) { r[0] = n })
	case "WavePrefixCountBits":
		forLanes(func(l int, r []uint64) {
			var n uint64
			for m := mask & (1<<uint(l) - 1); m != 0; m &= m - 1 {
				n += arg(0, bits.TrailingZeros64(m))[0] & 1
			}
			r[0] = n
		})
	case "WaveActiveBallot":
		var b uint64
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			if arg(0, l)[0]&1 != 0 {
				b |= 1 << uint(l)
			}
		}
		forLanes(func(l int, r []uint64) {
			clear(r)
			for i := range r {
				if i < 2 {
					r[i] = (b >> uint(32*i)) & 0xFFFFFFFF
				}
			}
		})
	case "WaveReadLaneFirst", "llvm.amdgcn.readfirstlane":
		v := append([]uint64(nil), arg(0, first)...)
		forLanes(func(l int, r []uint64) { copy(r, v) })
	case "WaveReadLaneAt", "llvm.amdgcn.readlane":
		it := ic.args[1].typ
		forLanes(func(l int, r []uint64) {
			src, ok := index(arg(1, l)[0], it)
			if !ok || src >= w.size || mask&(1<<uint(src)) == 0 {
				clear(r)
				return
			}
			copy(r, arg(0, src))
		})
	case "GroupMemoryBarrier", "DeviceMemoryBarrier", "AllMemoryBarrier":
		// No execution sync and memory is coherent: nothing to do.
	case "llvm.amdgcn.workitem.id.x", "llvm.amdgcn.workitem.id.y", "llvm.amdgcn.workitem.id.z":
		c := int(name[len(name)-1] - 'x')
		forLanes(func(l int, r []uint64) {
			if inv := w.inv[l]; inv != nil {
				r[0] = uint64(inv.groupThread[c])
			}
		})
	case "llvm.amdgcn.workgroup.id.x", "llvm.amdgcn.workgroup.id.y", "llvm.amdgcn.workgroup.id.z":
		c := int(name[len(name)-1] - 'x')
		forLanes(func(l int, r []uint64) { r[0] = uint64(w.mc.groupID[c]) })
	case "llvm.amdgcn.mbcnt.lo", "llvm.amdgcn.mbcnt.hi":
		// mbcnt.lo(mask, acc) = acc + popcount(mask & lanes below l among 0..31);
		// mbcnt.hi does the same for lanes 32..63.
		hi := name == "llvm.amdgcn.mbcnt.hi"
		forLanes(func(l int, r []uint64) {
			k := l
			if hi {
				k = l - 32
			}
			k = max(0, min(k, 32))
			below := arg(0, l)[0] & (1<<uint(k) - 1)
			r[0] = (uint64(bits.OnesCount64(below)) + arg(1, l)[0]) & 0xFFFFFFFF
		})
	case "llvm.amdgcn.ballot":
		var b uint64
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			if arg(0, l)[0]&1 != 0 {
				b |= 1 << uint(l)
			}
		}
		rb := bitsOf(in.Type())
		forLanes(func(l int, r []uint64) { r[0] = b & widthMask(rb) })
	case "llvm.amdgcn.icmp", "llvm.amdgcn.fcmp":
		var b uint64
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			p := int(arg(2, l)[0])
			var ok bool
			if name == "llvm.amdgcn.icmp" {
				ok = icmp(llvmICmpPred(p), arg(0, l)[0], arg(1, l)[0], at.b)
			} else {
				ok = fcmp(llvmFCmpPred(p), at.f(arg(0, l)[0]), at.f(arg(1, l)[0]))
			}
			if ok {
				b |= 1 << uint(l)
			}
		}
		rb := bitsOf(in.Type())
		forLanes(func(l int, r []uint64) { r[0] = b & widthMask(rb) })
	case "llvm.amdgcn.s.getpc":
		forLanes(func(l int, r []uint64) { r[0] = 0 })
	case "llvm.amdgcn.wave.reduce.umin", "llvm.amdgcn.wave.reduce.umax":
		ua := arith{ir.KUint, at.b}
		if name == "llvm.amdgcn.wave.reduce.umin" {
			reduce(widthMask(at.b), ua.min)
		} else {
			reduce(0, ua.max)
		}
	case "llvm.amdgcn.wave.reduce.min", "llvm.amdgcn.wave.reduce.max":
		sa := arith{ir.KInt, at.b}
		if name == "llvm.amdgcn.wave.reduce.min" {
			reduce(widthMask(at.b)>>1, sa.min)
		} else {
			reduce(1<<uint(at.b-1), sa.max)
		}
	case "llvm.amdgcn.wave.reduce.add":
		reduce(0, bitOp(ir.OpAdd))
	case "llvm.amdgcn.wave.reduce.and":
		reduce(widthMask(at.b), bitOp(ir.OpAnd))
	case "llvm.amdgcn.wave.reduce.or":
		reduce(0, bitOp(ir.OpOr))
	case "llvm.amdgcn.wave.reduce.xor":
		reduce(0, bitOp(ir.OpXor))
	case "llvm.amdgcn.ds.bpermute":
		// ds_bpermute(addr, data): lane l reads data from lane
		// (addr >> 2) mod the wave size; an inactive source lane gives 0.
		forLanes(func(l int, r []uint64) {
			src := int(arg(0, l)[0]>>2) & (w.size - 1)
			if mask&(1<<uint(src)) == 0 {
				clear(r)
				return
			}
			copy(r, arg(1, src))
		})
	case "llvm.amdgcn.ds.swizzle":
		// ds_swizzle(data, offset): offset bit 15 set is quad mode (lane
		// i of each quad reads lane offset>>(2*i) & 3 of it); otherwise
		// bit-mask mode within groups of 32 lanes: the source is
		// ((i & and) | or) ^ xor, with and, or, xor the offset's bits 0-4,
		// 5-9 and 10-14. An inactive source lane gives 0.
		off := arg(1, first)[0] & 0xFFFF
		forLanes(func(l int, r []uint64) {
			var src int
			if off&0x8000 != 0 {
				src = l&^3 | int(off>>(2*uint(l&3)))&3
			} else {
				and, or, xor := int(off&0x1F), int(off>>5&0x1F), int(off>>10&0x1F)
				src = l&^31 | ((l&31)&and | or) ^ xor
			}
			if src >= w.size || mask&(1<<uint(src)) == 0 {
				clear(r)
				return
			}
			copy(r, arg(0, src))
		})
	case "llvm.amdgcn.permlane64":
		// Lane i reads lane i^32 (the other half of a wave of 64); in a
		// smaller wave every lane reads itself. An inactive source gives 0.
		forLanes(func(l int, r []uint64) {
			src := l
			if w.size == 64 {
				src = l ^ 32
			}
			if mask&(1<<uint(src)) == 0 {
				clear(r)
				return
			}
			copy(r, arg(0, src))
		})
	case "llvm.amdgcn.writelane":
		// writelane(value, lane, old): old everywhere except in lane `lane`.
		it := ic.args[1].typ
		tgt, ok := index(arg(1, first)[0], it)
		v := append([]uint64(nil), arg(0, first)...)
		forLanes(func(l int, r []uint64) {
			if ok && l == tgt {
				copy(r, v)
			} else {
				copy(r, arg(2, l))
			}
		})
	default:
		return fmt.Errorf("%w: intrinsic %s", ErrUnsupported, in.Intr.Name)
	}
	return nil
}

// amdgpuArgs is the operand count the AMDGPU intrinsics need (the table in
// ir/intrinsics.go is permissive for them).
var amdgpuArgs = map[string]int{
	"llvm.amdgcn.readfirstlane": 1, "llvm.amdgcn.readlane": 2, "llvm.amdgcn.ballot": 1,
	"llvm.amdgcn.icmp": 3, "llvm.amdgcn.fcmp": 3, "llvm.amdgcn.wave.reduce.umin": 1,
	"llvm.amdgcn.wave.reduce.umax": 1, "llvm.amdgcn.writelane": 3, "llvm.amdgcn.mbcnt.lo": 2,
	"llvm.amdgcn.mbcnt.hi": 2, "llvm.amdgcn.wave.reduce.min": 1, "llvm.amdgcn.wave.reduce.max": 1,
	"llvm.amdgcn.wave.reduce.add": 1, "llvm.amdgcn.wave.reduce.and": 1, "llvm.amdgcn.wave.reduce.or": 1,
	"llvm.amdgcn.wave.reduce.xor": 1, "llvm.amdgcn.ds.bpermute": 2, "llvm.amdgcn.ds.swizzle": 2,
	"llvm.amdgcn.permlane64": 1,
}

func isBarrier(it *ir.Intrinsic) bool { return it.Attrs.Has(ir.AttrBarrier) }

// llvmICmpPred maps LLVM's CmpInst predicate numbers (32 = eq ... 41 = sle).
func llvmICmpPred(p int) ir.CmpPred {
	switch p {
	case 32:
		return ir.PredEQ
	case 33:
		return ir.PredNE
	case 34:
		return ir.PredUGT
	case 35:
		return ir.PredUGE
	case 36:
		return ir.PredULT
	case 37:
		return ir.PredULE
	case 38:
		return ir.PredSGT
	case 39:
		return ir.PredSGE
	case 40:
		return ir.PredSLT
	case 41:
		return ir.PredSLE
	}
	return ir.PredNone
}

// llvmFCmpPred maps LLVM's FCmp predicate numbers (1 = oeq ... 14 = une).
func llvmFCmpPred(p int) ir.CmpPred {
	switch p {
	case 1:
		return ir.PredOEQ
	case 2:
		return ir.PredOGT
	case 3:
		return ir.PredOGE
	case 4:
		return ir.PredOLT
	case 5:
		return ir.PredOLE
	case 6:
		return ir.PredONE
	case 7:
		return ir.PredORD
	case 8:
		return ir.PredUNO
	case 9:
		return ir.PredUEQ
	case 10:
		return ir.PredFUGT
	case 11:
		return ir.PredFUGE
	case 12:
		return ir.PredFULT
	case 13:
		return ir.PredFULE
	case 14:
		return ir.PredUNE
	}
	return ir.PredNone
}
