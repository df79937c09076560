package llvm

import (
	"strings"

	"passlens/compiler/ir"
)

// Divergence is how AMDGPU's uniformity analysis treats the result of an
// operation, independent of control flow.
type Divergence uint8

const (
	// Propagates: divergent iff an operand is divergent (ordinary
	// instructions, generic llvm.* intrinsics such as llvm.sqrt).
	Propagates Divergence = iota
	// Source: divergent whatever the operands (thread ids, atomics, calls).
	Source
	// AlwaysUniform: uniform whatever the operands (readfirstlane, ballot).
	AlwaysUniform
)

func (d Divergence) String() string {
	switch d {
	case Source:
		return "source of divergence"
	case AlwaysUniform:
		return "always uniform"
	}
	return "propagates operand divergence"
}

// Fact is one rule of AMDGPU's divergence model, as LLVM's
// GCNTTIImpl::isSourceOfDivergence / isAlwaysUniform and opt-22's
// print<uniformity> apply it, and how passlens represents it after Import.
type Fact struct {
	Subject  string // what the rule is about
	LLVM     string // what opt-22 does
	Passlens string // how an imported module carries it
}

// DivergenceFacts lists the rules the uniformity analysis must follow to
// agree with opt-22 on imported modules. Every rule was checked against
// opt-22 (see facts_test.go); docs/llvm-bridge.md renders this table.
var DivergenceFacts = []Fact{
	{"kernel arguments (amdgpu_kernel, spir_kernel)",
		"uniform, inreg or not",
		"ir.Param.Uniform = true"},
	{"shader arguments (amdgpu_ps, amdgpu_vs, amdgpu_gs, amdgpu_hs, amdgpu_ls, amdgpu_es, amdgpu_cs, amdgpu_cs_chain*, amdgpu_gfx)",
		"uniform iff inreg (byval is not allowed on these conventions)",
		"ir.Param.Uniform = inreg"},
	{"arguments of other functions (default C convention)",
		"uniform iff inreg (opt-22 honours inreg here too)",
		"ir.Param.Uniform = inreg"},
	{"load from flat (0) or private (5) memory",
		"source of divergence: lanes may read different scratch",
		"load through ptr<private, T> or ptr<function, T>: LoadIsDivergent"},
	{"load from global (1), LDS (3) or constant (4) memory",
		"propagates the pointer's divergence",
		"load through ptr<storage|groupshared|uniform, T>"},
	{"atomicrmw, cmpxchg",
		"source of divergence (each lane sees the previous lane's write)",
		"ir.OpAtomic: always divergent"},
	{"call of a non-intrinsic function",
		"source of divergence, even a void call",
		"ir.OpCall: always divergent"},
	{"call of a function with the nodivergencesource attribute",
		"uniform even with divergent arguments (LLVM marks this FIXME)",
		"ir.OpIntrinsic whose Intrinsic has AttrAlwaysUniform"},
	{"llvm.amdgcn.* intrinsics in the AMDGPU SourcesOfDivergence table (workitem.id, mbcnt, interp, atomics, dpp, permlane, writelane, mfma/wmma, if/else/loop, ps.live, ...)",
		"source of divergence",
		"ir.Intrinsic with AttrDivergenceSource"},
	{"llvm.amdgcn readfirstlane, readlane, ballot, icmp, fcmp, if.break",
		"always uniform",
		"ir.Intrinsic with AttrAlwaysUniform"},
	{"extractvalue index 1 (the exec mask) of llvm.amdgcn.if / llvm.amdgcn.else",
		"always uniform although the call itself is divergent",
		"ExtractIsAlwaysUniform"},
	{"other intrinsics (llvm.sqrt, llvm.amdgcn.wave.reduce.*, workgroup.id, s.getpc, ...)",
		"propagates operand divergence",
		"ir.Intrinsic with neither attribute"},
	{"inline asm",
		"source of divergence iff an output is not an SGPR; otherwise always uniform",
		"opaque operation llvm.opaque.asm.divergent / llvm.opaque.asm.uniform"},
	{"callbr, invoke",
		"the terminator is divergent (from the operands; invoke always), the value never",
		"opaque uniform value, then a switch on an opaque selector (propagating; a source for invoke)"},
	{"instructions on types passlens lacks (i33, <2 x ptr>, tokens, unknown address spaces), constant expressions",
		"propagate operand divergence; constants are uniform",
		"opaque operations llvm.opaque.OPCODE on the same operands; constants materialised in the entry block"},
}

// LoadIsDivergent reports whether AMDGPU treats a load through a pointer
// in passlens space s as a source of divergence (flat and private memory).
func LoadIsDivergent(s ir.AddrSpace) bool {
	return s == ir.SpacePrivate || s == ir.SpaceFunction
}

// ExtractIsAlwaysUniform reports whether an extractvalue of path idx from
// the result of intrinsic intr is uniform regardless of its operand: the
// exec-mask half of llvm.amdgcn.if and llvm.amdgcn.else.
func ExtractIsAlwaysUniform(intr *ir.Intrinsic, idx []int) bool {
	if intr == nil || len(idx) != 1 || idx[0] != 1 {
		return false
	}
	base := intrinsicBase(intr.Name)
	return base == "llvm.amdgcn.if" || base == "llvm.amdgcn.else"
}

// kernelCCs are the calling conventions whose arguments are all uniform.
var kernelCCs = map[string]bool{"amdgpu_kernel": true, "spir_kernel": true}

// ArgIsUniform reports whether opt-22 treats an argument of a function with
// calling convention cc ("" for the default) as uniform.
func ArgIsUniform(cc string, inreg bool) bool {
	return kernelCCs[cc] || inreg
}

// amdgcnSources are llvm.amdgcn intrinsics (base names, without overload
// suffixes) that are sources of divergence.
var amdgcnSources = setOf(
	"workitem.id.x", "workitem.id.y", "workitem.id.z",
	"interp.mov", "interp.p1", "interp.p2", "interp.p1.f16", "interp.p2.f16",
	"interp.inreg.p10", "interp.inreg.p2", "interp.inreg.p10.f16", "interp.inreg.p2.f16",
	"lds.direct.load", "lds.param.load",
	"mbcnt.hi", "mbcnt.lo",
	"atomic.inc", "atomic.dec", "global.atomic.csub", "buffer.atomic.csub",
	"ds.fadd", "ds.fmin", "ds.fmax", "ds.ordered.add", "ds.ordered.swap", "ds.swizzle",
	"ds.bpermute", "ds.permute",
	"ps.live", "live.mask", "wqm.helper", "inverse.ballot",
	"permlane16", "permlanex16", "permlane16.var", "permlanex16.var", "permlane64",
	"mov.dpp", "mov.dpp8", "update.dpp", "writelane", "set.inactive",
	"if", "else", "loop",
	"ds.read.tr4.b64", "ds.read.tr8.b64", "ds.read.tr6.b96", "ds.read.tr16.b64",
	// Not here, to match opt-22 (LLVM main lists some of them since):
	// global.load.tr*, addrspacecast.nonnull, mfma.*.scaled.
)

// amdgcnSourcePrefixes are families of llvm.amdgcn intrinsics that are all
// sources of divergence (matrix ops and memory atomics).
var amdgcnSourcePrefixes = []string{
	"mfma.", "smfmac.", "wmma.", "swmmac.",
	"raw.buffer.atomic.", "struct.buffer.atomic.",
	"raw.ptr.buffer.atomic.", "struct.ptr.buffer.atomic.",
	"image.atomic.", "global.atomic.", "flat.atomic.", "ds.atomic.",
	"rts.", "swc.",
}

// amdgcnUniform are llvm.amdgcn intrinsics whose result is always uniform.
var amdgcnUniform = setOf(
	"readfirstlane", "readlane", "ballot", "icmp", "fcmp", "if.break",
)

// amdgcnConvergent are llvm.amdgcn intrinsics that depend on the set of
// active lanes (never moved across control flow).
var amdgcnConvergent = setOf(
	"readfirstlane", "readlane", "ballot", "icmp", "fcmp", "if.break", "if", "else", "loop",
	"inverse.ballot", "writelane", "permlane16", "permlanex16", "permlane16.var", "permlanex16.var",
	"permlane64", "mov.dpp", "mov.dpp8", "update.dpp", "ds.swizzle", "ds.bpermute", "ds.permute",
	"s.barrier", "s.barrier.signal", "s.barrier.wait", "wave.barrier", "set.inactive",
	"wave.reduce.umin", "wave.reduce.umax", "wave.reduce.add", "wave.reduce.sub",
	"wave.reduce.min", "wave.reduce.max", "wave.reduce.and", "wave.reduce.or", "wave.reduce.xor",
	"live.mask", "ps.live", "wqm", "softwqm", "strict.wqm", "wwm", "strict.wwm",
	"waterfall.begin", "waterfall.readfirstlane", "waterfall.end",
)

// amdgcnPure are llvm.amdgcn intrinsics without side effects.
var amdgcnPure = setOf(
	"workitem.id.x", "workitem.id.y", "workitem.id.z",
	"workgroup.id.x", "workgroup.id.y", "workgroup.id.z",
	"mbcnt.lo", "mbcnt.hi", "wavefrontsize", "s.getpc",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// CallDivergence classifies a call of the LLVM function or intrinsic name
// as opt-22 does. fnAttrs are the callee's function attributes (such as
// nodivergencesource) and matter only for non-intrinsic callees.
func CallDivergence(name string, fnAttrs map[string]bool) Divergence {
	if !strings.HasPrefix(name, "llvm.") {
		if fnAttrs["nodivergencesource"] || fnAttrs["alwaysuniform"] {
			return AlwaysUniform
		}
		return Source
	}
	if strings.HasPrefix(name, "llvm.passlens.") {
		return Propagates // the exporter's stand-ins for pure passlens intrinsics
	}
	rest, ok := strings.CutPrefix(name, "llvm.amdgcn.")
	if !ok {
		if strings.HasPrefix(name, "llvm.read_register") || strings.HasPrefix(name, "llvm.read_volatile_register") {
			return Source // divergent when reading a VGPR; conservatively always
		}
		return Propagates
	}
	// Names LLVM 22 does not know as intrinsics (removed buffer.atomic.*,
	// waterfall.*) and intrinsics opt-22's tables do not list follow their
	// operands there.
	if strings.HasPrefix(rest, "buffer.atomic.") || strings.HasPrefix(rest, "waterfall.") ||
		strings.HasPrefix(rest, "global.load.tr") || strings.HasPrefix(rest, "addrspacecast.nonnull") ||
		strings.HasPrefix(rest, "mfma.") && strings.Contains(rest, ".scaled") {
		return Propagates
	}
	for _, p := range amdgcnSourcePrefixes {
		if strings.HasPrefix(rest, p) {
			return Source
		}
	}
	if b, ok := lookupBase(rest, amdgcnUniform); ok && b != "" {
		// A more specific source entry ("if" vs "if.break") wins by length.
		if s, ok := lookupBase(rest, amdgcnSources); ok && len(s) > len(b) {
			return Source
		}
		return AlwaysUniform
	}
	if _, ok := lookupBase(rest, amdgcnSources); ok {
		return Source
	}
	if known, _ := lookupBase(rest, amdgcnKnownPropagating); known != "" {
		return Propagates
	}
	// An llvm.amdgcn intrinsic the table does not know: assume the worst.
	return Source
}

// amdgcnKnownPropagating are llvm.amdgcn intrinsics known to follow their
// operands (so an unknown name can default to Source).
var amdgcnKnownPropagating = setOf(
	"workgroup.id.x", "workgroup.id.y", "workgroup.id.z", "wavefrontsize", "s.getpc",
	"wave.reduce.umin", "wave.reduce.umax", "wave.reduce.add", "wave.reduce.sub",
	"wave.reduce.min", "wave.reduce.max", "wave.reduce.and", "wave.reduce.or", "wave.reduce.xor",
	"s.barrier", "s.barrier.signal", "s.barrier.wait", "wave.barrier", "s.buffer.load",
	"raw.buffer.load", "struct.buffer.load", "raw.ptr.buffer.load", "struct.ptr.buffer.load",
	"raw.buffer.store", "struct.buffer.store", "raw.ptr.buffer.store", "struct.ptr.buffer.store",
	"image.load.1d", "image.load.2d", "image.sample.2d", "exp", "kill", "wqm", "softwqm",
	"strict.wqm", "wwm", "strict.wwm", "fract", "rcp", "rsq", "sqrt", "sin", "cos", "ldexp",
	"fmed3", "cvt.pkrtz", "ubfe", "sbfe", "div.scale", "div.fmas", "div.fixup", "class",
	"waterfall.end", "cluster.workgroup.id.x", "cluster.workgroup.id.y", "cluster.workgroup.id.z",
	"cluster.workgroup.max.id.x", "cluster.workgroup.max.id.y", "cluster.workgroup.max.id.z",
	"cluster.workgroup.max.flat.id", "s.mov.from.global", "s.swap.to.global",
	"dispatch.ptr", "implicitarg.ptr", "kernarg.segment.ptr", "queue.ptr", "dispatch.id",
	"groupstaticsize", "s.memtime", "s.memrealtime", "s.sleep", "s.waitcnt", "s.sethalt",
	"sched.barrier", "sched.group.barrier", "s.setprio", "s.ttracedata", "exp.compr",
	"lds.kernel.id", "s.get.waveid.in.workgroup", "rts.trace.ray.nonblock",
)

// lookupBase finds the longest dotted prefix of name (name itself, then
// name without its last .component, ...) present in set.
func lookupBase(name string, set map[string]bool) (string, bool) {
	for n := name; n != ""; {
		if set[n] {
			return n, true
		}
		i := strings.LastIndexByte(n, '.')
		if i < 0 {
			break
		}
		n = n[:i]
	}
	return "", false
}

// intrinsicBase strips overload suffixes from an llvm.amdgcn name when the
// stripped name is a known intrinsic ("llvm.amdgcn.if.i64" -> "llvm.amdgcn.if").
func intrinsicBase(name string) string {
	rest, ok := strings.CutPrefix(name, "llvm.amdgcn.")
	if !ok {
		return name
	}
	for _, set := range []map[string]bool{amdgcnSources, amdgcnUniform, amdgcnConvergent, amdgcnPure, amdgcnKnownPropagating} {
		if b, ok := lookupBase(rest, set); ok {
			// Prefer the longest base over all tables.
			best := b
			for _, s2 := range []map[string]bool{amdgcnSources, amdgcnUniform, amdgcnConvergent, amdgcnPure, amdgcnKnownPropagating} {
				if b2, ok := lookupBase(rest, s2); ok && len(b2) > len(best) {
					best = b2
				}
			}
			return "llvm.amdgcn." + best
		}
	}
	return name
}

// IntrinsicAttrs returns the passlens attributes for an imported call of
// the LLVM function name: the divergence class from CallDivergence, plus
// convergent and pure from the declaration's attributes (fnAttrs: readnone,
// memory(none), convergent) and the known llvm.amdgcn tables.
func IntrinsicAttrs(name string, fnAttrs map[string]bool) ir.Attr {
	var a ir.Attr
	switch CallDivergence(name, fnAttrs) {
	case Source:
		a |= ir.AttrDivergenceSource
	case AlwaysUniform:
		a |= ir.AttrAlwaysUniform
	}
	if fnAttrs["convergent"] {
		a |= ir.AttrConvergent
	}
	if fnAttrs["readnone"] || fnAttrs["memory(none)"] {
		a |= ir.AttrPure
	}
	if rest, ok := strings.CutPrefix(name, "llvm.amdgcn."); ok {
		if _, ok := lookupBase(rest, amdgcnConvergent); ok {
			a |= ir.AttrConvergent
		}
		if _, ok := lookupBase(rest, amdgcnPure); ok {
			a |= ir.AttrPure
		}
		if strings.HasPrefix(rest, "wave.") || strings.HasPrefix(rest, "readfirstlane") ||
			strings.HasPrefix(rest, "readlane") || strings.HasPrefix(rest, "ballot") {
			a |= ir.AttrWave
		}
		if strings.Contains(rest, "barrier") {
			a |= ir.AttrBarrier | ir.AttrConvergent
		}
	}
	return a
}

// passlensPrefix names the declarations the exporter makes for passlens
// intrinsics without an LLVM equivalent (llvm.passlens.NAME.SIG). LLVM
// accepts unknown llvm.* names outside target namespaces and treats their
// calls as ordinary operations, so divergence simply propagates.
const passlensPrefix = "llvm.passlens."
