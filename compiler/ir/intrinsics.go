package ir

import (
	"sort"
	"sync"
)

// Attr is a set of intrinsic attributes.
type Attr uint16

const (
	// AttrPure: no side effects; removable when unused, CSE-able (unless convergent).
	AttrPure Attr = 1 << iota
	// AttrConvergent: the result or effect depends on which lanes execute it
	// together (wave ops, barriers). Never moved across control flow or merged.
	AttrConvergent
	// AttrAlwaysUniform: the result is the same in every lane of the wave
	// whatever the operands (WaveActiveSum, WaveReadLaneFirst, ...).
	AttrAlwaysUniform
	// AttrDivergenceSource: the result differs between lanes even with
	// uniform operands (WaveGetLaneIndex, thread ids, WavePrefixSum, ...).
	AttrDivergenceSource
	// AttrElementwise: applied independently to each vector component; the
	// scalarizer splits it into per-component calls.
	AttrElementwise
	// AttrReduction: takes vectors, returns a scalar combining components
	// (dot, length, any, all, distance); the scalarizer expands it.
	AttrReduction
	// AttrBarrier: a memory/execution barrier.
	AttrBarrier
	// AttrWave: a wave (subgroup) operation.
	AttrWave
)

// Has reports whether all bits of x are set.
func (a Attr) Has(x Attr) bool { return a&x == x }

// Intrinsic describes a built-in operation called with OpIntrinsic. The
// result type is carried by the instruction; the table gives semantics.
type Intrinsic struct {
	Name    string
	Attrs   Attr
	MinArgs int
	MaxArgs int
	Doc     string
}

var (
	intrinsicMu    sync.RWMutex
	intrinsicTable = map[string]*Intrinsic{}
)

func def(name string, attrs Attr, minArgs, maxArgs int, doc string) {
	intrinsicTable[name] = &Intrinsic{Name: name, Attrs: attrs, MinArgs: minArgs, MaxArgs: maxArgs, Doc: doc}
}

const (
	pureEW  = AttrPure | AttrElementwise
	waveRed = AttrConvergent | AttrAlwaysUniform | AttrWave
)

func init() {
	// HLSL math (elementwise over vectors unless noted).
	for _, n := range []string{"abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "degrees", "exp", "exp2",
		"floor", "frac", "log", "log10", "log2", "radians", "rcp", "round", "rsqrt", "saturate", "sign",
		"sin", "sinh", "sqrt", "tan", "tanh", "trunc", "isinf", "isnan", "countbits", "firstbithigh",
		"firstbitlow", "reversebits", "f16tof32", "f32tof16"} {
		def(n, pureEW, 1, 1, "HLSL "+n+", per component")
	}
	for _, n := range []string{"atan2", "fmod", "ldexp", "max", "min", "pow", "step"} {
		def(n, pureEW, 2, 2, "HLSL "+n+", per component")
	}
	for _, n := range []string{"clamp", "lerp", "mad", "smoothstep"} {
		def(n, pureEW, 3, 3, "HLSL "+n+", per component")
	}
	def("dot", AttrPure|AttrReduction, 2, 2, "dot product of two vectors")
	def("length", AttrPure|AttrReduction, 1, 1, "Euclidean length of a vector")
	def("distance", AttrPure|AttrReduction, 2, 2, "length(a - b)")
	def("any", AttrPure|AttrReduction, 1, 1, "true if any component is non-zero")
	def("all", AttrPure|AttrReduction, 1, 1, "true if every component is non-zero")
	def("determinant", AttrPure, 1, 1, "determinant of a square matrix")
	def("cross", AttrPure, 2, 2, "cross product of two 3-vectors")
	def("normalize", AttrPure, 1, 1, "v / length(v)")
	def("reflect", AttrPure, 2, 2, "i - 2 * dot(n, i) * n")
	def("refract", AttrPure, 3, 3, "refraction vector")
	def("mul", AttrPure, 2, 2, "matrix/vector product (HLSL mul)")
	def("transpose", AttrPure, 1, 1, "matrix transpose")

	// Wave operations (HLSL SM6 names).
	def("WaveGetLaneIndex", AttrPure|AttrDivergenceSource|AttrWave, 0, 0, "index of this lane in the wave")
	def("WaveGetLaneCount", AttrPure|AttrAlwaysUniform|AttrWave, 0, 0, "number of lanes in the wave")
	def("WaveIsFirstLane", AttrConvergent|AttrDivergenceSource|AttrWave, 0, 0, "true in the lowest active lane")
	for _, n := range []string{"WaveActiveSum", "WaveActiveProduct", "WaveActiveMin", "WaveActiveMax",
		"WaveActiveBitAnd", "WaveActiveBitOr", "WaveActiveBitXor"} {
		def(n, waveRed, 1, 1, "reduction over the active lanes")
	}
	def("WaveActiveAllTrue", waveRed, 1, 1, "true if the operand is true in every active lane")
	def("WaveActiveAnyTrue", waveRed, 1, 1, "true if the operand is true in any active lane")
	def("WaveActiveAllEqual", waveRed, 1, 1, "true if the operand is equal in every active lane")
	def("WaveActiveCountBits", waveRed, 1, 1, "number of active lanes where the operand is true")
	def("WaveActiveBallot", waveRed, 1, 1, "uint4 mask of active lanes where the operand is true")
	def("WaveReadLaneFirst", waveRed, 1, 1, "the operand's value in the lowest active lane")
	def("WaveReadLaneAt", AttrConvergent|AttrWave, 2, 2, "the operand's value in the given lane (uniform if the lane index is)")
	for _, n := range []string{"WavePrefixSum", "WavePrefixProduct", "WavePrefixCountBits"} {
		def(n, AttrConvergent|AttrDivergenceSource|AttrWave, 1, 1, "exclusive prefix over the active lanes below this one")
	}

	// Barriers.
	for _, n := range []string{"GroupMemoryBarrierWithGroupSync", "GroupMemoryBarrier", "DeviceMemoryBarrier",
		"DeviceMemoryBarrierWithGroupSync", "AllMemoryBarrier", "AllMemoryBarrierWithGroupSync"} {
		def(n, AttrConvergent|AttrBarrier, 0, 0, "HLSL "+n)
	}

	// LLVM AMDGPU intrinsics used by the LLVM bridge (llvm.amdgcn.*).
	for _, n := range []string{"llvm.amdgcn.workitem.id.x", "llvm.amdgcn.workitem.id.y", "llvm.amdgcn.workitem.id.z",
		"llvm.amdgcn.mbcnt.lo", "llvm.amdgcn.mbcnt.hi"} {
		def(n, AttrPure|AttrDivergenceSource, 0, 2, "AMDGPU "+n)
	}
	for _, n := range []string{"llvm.amdgcn.workgroup.id.x", "llvm.amdgcn.workgroup.id.y", "llvm.amdgcn.workgroup.id.z"} {
		def(n, AttrPure, 0, 0, "AMDGPU "+n)
	}
	for _, n := range []string{"llvm.amdgcn.readfirstlane", "llvm.amdgcn.readlane", "llvm.amdgcn.ballot",
		"llvm.amdgcn.icmp", "llvm.amdgcn.fcmp", "llvm.amdgcn.s.getpc"} {
		def(n, AttrConvergent|AttrAlwaysUniform, 0, 3, "AMDGPU "+n)
	}
	// opt-22 passes the operand's divergence through wave.reduce (it is not
	// in AMDGPU's always-uniform list).
	for _, n := range []string{"llvm.amdgcn.wave.reduce.umin", "llvm.amdgcn.wave.reduce.umax"} {
		def(n, AttrConvergent, 0, 3, "AMDGPU "+n)
	}
	for _, n := range []string{"llvm.amdgcn.writelane", "llvm.amdgcn.permlane16", "llvm.amdgcn.permlanex16",
		"llvm.amdgcn.ds.swizzle", "llvm.amdgcn.mov.dpp", "llvm.amdgcn.update.dpp", "llvm.amdgcn.interp.p1",
		"llvm.amdgcn.interp.p2", "llvm.amdgcn.interp.mov"} {
		def(n, AttrConvergent|AttrDivergenceSource, 0, 8, "AMDGPU "+n)
	}
	def("llvm.amdgcn.s.barrier", AttrConvergent|AttrBarrier, 0, 0, "AMDGPU workgroup barrier")

	// sm3-lower's loop marker (compiler/target/sm3/sm3lower). Not pure, so
	// DCE keeps it; it has no effect when executed.
	def("sm3.rep", 0, 2, 2, "sm3.rep(i32 count, bool done): marks the enclosing loop header as an SM3 rep loop of count iterations; done is true when the count is exhausted (no effect when executed)")
}

// LookupIntrinsic finds an intrinsic by name.
func LookupIntrinsic(name string) *Intrinsic {
	intrinsicMu.RLock()
	defer intrinsicMu.RUnlock()
	return intrinsicTable[name]
}

// RegisterIntrinsic adds an intrinsic (e.g. an unknown LLVM intrinsic the
// importer treats conservatively). It returns the existing entry if present.
func RegisterIntrinsic(name string, attrs Attr, minArgs, maxArgs int, doc string) *Intrinsic {
	intrinsicMu.Lock()
	defer intrinsicMu.Unlock()
	if in, ok := intrinsicTable[name]; ok {
		return in
	}
	def(name, attrs, minArgs, maxArgs, doc)
	return intrinsicTable[name]
}

// Intrinsics returns every intrinsic sorted by name (for docs and help).
func Intrinsics() []*Intrinsic {
	intrinsicMu.RLock()
	defer intrinsicMu.RUnlock()
	out := make([]*Intrinsic, 0, len(intrinsicTable))
	for _, in := range intrinsicTable {
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
