package uniformity

import (
	"strings"

	"passlens/compiler/ir"
)

// This file is the divergence policy: which values are divergent by
// themselves (sources), which are uniform whatever their operands, and which
// operands do not carry divergence into their user. It plays the role of
// AMDGPU's TargetTransformInfo (isSourceOfDivergence, isAlwaysUniform) and
// is written so that IR imported from LLVM by compiler/llvm gets the same
// answers as opt-22 -mtriple=amdgcn--:
//
//   - A parameter is divergent unless Param.Uniform is set. The LLVM importer
//     sets Uniform exactly where AMDGPU passes the argument in an SGPR
//     (AMDGPU::isArgPassedInSGPR: every argument of amdgpu_kernel/spir_kernel,
//     `inreg`/`byval` arguments of shader calling conventions, `inreg`
//     arguments otherwise); the HLSL front end sets it for values that are
//     uniform by construction. Param.Uniform is the only source of truth.
//   - Calls of functions are divergent (opt assumes any call may return a
//     per-lane value); calls of intrinsics follow the intrinsic table:
//     AttrDivergenceSource is a source, AttrAlwaysUniform is uniform.
//   - Atomic read-modify-writes are divergent (each lane sees the value left
//     by the previous one).
//   - Loads are sources when the memory is per lane: function (allocas) and
//     private memory (AMDGPU's private and flat address spaces), stage
//     outputs, and stage inputs whose semantic is per lane. Loads from
//     uniform (cbuffer), storage and groupshared memory are uniform when the
//     address is; divergence of the address propagates as for any operand.
//
// Stage inputs: only SV_GroupID is the same for a whole wave. Thread ids
// (SV_DispatchThreadID, SV_GroupThreadID, SV_GroupIndex), SV_Position,
// interpolated or flat pixel inputs, vertex attributes, SV_VertexID,
// SV_InstanceID, SV_PrimitiveID, SV_IsFrontFace and SV_SampleIndex can all
// differ between the lanes of a wave, and so does any input we do not know.

// paramSource reports whether p is a divergence source and why.
func paramSource(p *ir.Param) (string, bool) {
	if p.Uniform {
		return "", false
	}
	return "parameter is not uniform (not passed in a scalar register)", true
}

// instrSource reports whether in is a divergence source and why.
func instrSource(in *ir.Instr) (string, bool) {
	switch in.Op {
	case ir.OpAtomic:
		return "atomic operation (each lane observes a different old value)", true
	case ir.OpCall:
		return "call of a function (its result may differ between lanes)", true
	case ir.OpIntrinsic:
		if in.Intr == nil {
			return "call of an unknown intrinsic", true
		}
		if in.Intr.Attrs.Has(ir.AttrDivergenceSource) {
			return "intrinsic " + in.Intr.Name + " is a divergence source", true
		}
	case ir.OpLoad:
		if len(in.Args) == 0 || in.Args[0].Type().Kind != ir.KPointer {
			return "load through a non-pointer", true
		}
		return loadSource(in.Args[0])
	}
	return "", false
}

// loadSource classifies a load from pointer ptr.
func loadSource(ptr ir.Value) (string, bool) {
	switch sp := ptr.Type().Space; sp {
	case ir.SpaceFunction:
		return "load from function memory (per-lane private storage)", true
	case ir.SpacePrivate:
		return "load from private memory (per-lane storage)", true
	case ir.SpaceOutput:
		return "load from a stage output (per lane)", true
	case ir.SpaceInput:
		g := baseGlobal(ptr)
		if g == nil {
			return "load from a stage input of unknown semantic", true
		}
		if uniformSemantic(g.Semantic) {
			return "", false
		}
		sem := g.Semantic
		if sem == "" {
			sem = "no semantic"
		}
		return "load from stage input @" + g.Name() + " (" + sem + ") which differs between lanes", true
	}
	return "", false
}

// uniformSemantic reports whether a stage input with this semantic holds
// the same value in every lane of a wave.
func uniformSemantic(sem string) bool {
	return strings.EqualFold(strings.TrimSpace(sem), "SV_GroupID")
}

// baseGlobal follows access chains and copies back to the global a pointer
// is derived from (nil if it is not derived from one).
func baseGlobal(v ir.Value) *ir.Global {
	// Verified SSA has no cycle of access chains or copies; the bound only
	// guards against a caller passing unverified IR.
	for i := 0; i < 1<<24; i++ {
		switch x := v.(type) {
		case *ir.Global:
			return x
		case *ir.Instr:
			if (x.Op == ir.OpAccess || x.Op == ir.OpCopy || x.Op == ir.OpBitcast) && len(x.Args) > 0 {
				v = x.Args[0]
				continue
			}
		}
		return nil
	}
	return nil
}

// alwaysUniform reports whether in's result is uniform whatever its operands
// (LLVM's isAlwaysUniform): intrinsics such as wave reductions,
// readfirstlane and ballot, and the exec-mask half (index 1) of the result
// of llvm.amdgcn.if / llvm.amdgcn.else, which is divergent itself.
func alwaysUniform(in *ir.Instr) bool {
	switch in.Op {
	case ir.OpIntrinsic:
		return in.Intr != nil && in.Intr.Attrs.Has(ir.AttrAlwaysUniform) && !in.Intr.Attrs.Has(ir.AttrDivergenceSource)
	case ir.OpExtractValue:
		if len(in.Idx) != 1 || in.Idx[0] != 1 || len(in.Args) == 0 {
			return false
		}
		call, ok := in.Args[0].(*ir.Instr)
		if !ok || call.Op != ir.OpIntrinsic || call.Intr == nil {
			return false
		}
		return isAMDGPUIntrinsic(call.Intr.Name, "if") || isAMDGPUIntrinsic(call.Intr.Name, "else")
	}
	return false
}

// isAMDGPUIntrinsic reports whether name is llvm.amdgcn.BASE, possibly
// with overload suffixes (".i64"), but not a longer intrinsic name such as
// llvm.amdgcn.if.break.
func isAMDGPUIntrinsic(name, base string) bool {
	rest, ok := strings.CutPrefix(name, "llvm.amdgcn."+base)
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	if rest[0] != '.' {
		return false
	}
	// Overload suffixes are type names: i64, f32, v2i32, p1, ...
	for _, part := range strings.Split(rest[1:], ".") {
		if part == "" || !(part[0] == 'i' || part[0] == 'f' || part[0] == 'v' || part[0] == 'p') {
			return false
		}
	}
	return true
}

// ignoresOperandDivergence reports whether divergence of operand i of in
// does not make in divergent: WaveReadLaneAt(v, lane) reads one lane's v,
// so it is uniform exactly when the lane index is.
func ignoresOperandDivergence(in *ir.Instr, i int) bool {
	return in.Op == ir.OpIntrinsic && in.Intr != nil && in.Intr.Name == "WaveReadLaneAt" && i == 0
}

// isConstantOrUndefPhi reports whether every incoming value of phi, ignoring
// undef and the phi itself, is one and the same value (LLVM's
// PHINode::hasConstantOrUndefValue). Such a phi is not made divergent by
// sync dependence: whichever edge is taken, it yields the same value.
// Constants are compared by value, since passlens does not unique them.
func isConstantOrUndefPhi(phi *ir.Instr) bool {
	var first ir.Value
	for _, a := range phi.Args {
		if a == ir.Value(phi) {
			continue
		}
		if c, ok := a.(*ir.Const); ok && c.Undef {
			continue
		}
		if first == nil {
			first = a
			continue
		}
		if !sameValue(first, a) {
			return false
		}
	}
	return true
}

// sameValue reports whether a and b denote the same value: the same object,
// or constants of the same type with the same literal.
func sameValue(a, b ir.Value) bool {
	if a == b {
		return true
	}
	ca, ok1 := a.(*ir.Const)
	cb, ok2 := b.(*ir.Const)
	if !ok1 || !ok2 || ca.Type() != cb.Type() || ca.Undef || cb.Undef {
		return false
	}
	if ca.IsZeroValue() && cb.IsZeroValue() {
		return true
	}
	return ca.Literal() == cb.Literal()
}
