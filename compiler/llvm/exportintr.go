package llvm

import (
	"fmt"
	"strings"

	"passlens/compiler/ir"
)

// intrinsic writes a call of a passlens intrinsic so that opt-22 gives the
// result the same divergence as passlens does:
//
//   - intrinsics imported from LLVM (and the llvm.* entries of the passlens
//     table) are called by their LLVM name;
//   - WaveReadLaneFirst -> llvm.amdgcn.readfirstlane (always uniform);
//   - WaveGetLaneIndex -> llvm.amdgcn.mbcnt.lo/hi (source of divergence);
//   - WaveGetLaneCount -> llvm.amdgcn.wavefrontsize (uniform);
//   - WaveReadLaneAt(x, l) -> llvm.amdgcn.readlane, then a select on
//     (l == l) so that the result is divergent iff the lane index is;
//   - *WithGroupSync barriers -> llvm.amdgcn.s.barrier;
//   - other always-uniform intrinsics -> llvm.passlens.NAME then
//     readfirstlane of its result;
//   - other divergence sources -> a call of the external function
//     passlens.NAME (calls are divergent);
//   - everything else -> llvm.passlens.NAME, whose calls opt-22 treats as
//     ordinary operations (divergent iff an operand is).
func (fx *fnExporter) intrinsic(in *ir.Instr, rt string) error {
	it := in.Intr
	if it == nil {
		return fmt.Errorf("intrinsic call without an intrinsic")
	}
	args, err := fx.typedList(in.Args)
	if err != nil {
		return err
	}
	def := ""
	if in.HasResult() {
		def = fx.def(in)
	} else {
		rt = "void"
	}
	convergent := it.Attrs.Has(ir.AttrConvergent)
	call := func(dst, ret, name, args string, attrs ...string) {
		fx.declare(name, ret, in.Args, attrs...)
		fx.line("%scall %s @%s(%s)", dst, ret, llName(name), args)
	}
	var cattrs []string
	if convergent {
		cattrs = append(cattrs, "convergent")
	}
	if strings.HasPrefix(it.Name, opaquePrefix) {
		return fmt.Errorf("unsupported: %s stands for LLVM IR imported as opaque and cannot be exported", it.Name)
	}
	if strings.HasPrefix(it.Doc, importedDoc) || strings.HasPrefix(it.Name, "llvm.") {
		var attrs []string
		attrs = append(attrs, cattrs...)
		if !strings.HasPrefix(it.Name, "llvm.") && it.Attrs.Has(ir.AttrAlwaysUniform) {
			attrs = append(attrs, "nodivergencesource")
		}
		call(def, rt, it.Name, args, attrs...)
		return nil
	}
	sig := it.Name + "." + sigSuffix(in)
	switch {
	case it.Name == "WaveReadLaneFirst" && in.HasResult():
		call(def, rt, "llvm.amdgcn.readfirstlane."+mangle(in.Type()), args, "convergent")
	case it.Name == "WaveGetLaneIndex" && in.HasResult() && in.Type().IsIntegral() && in.Type().Bits == 32:
		lo := fx.helper(in, "lo")
		fx.declareRaw("llvm.amdgcn.mbcnt.lo", "declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)\n")
		fx.declareRaw("llvm.amdgcn.mbcnt.hi", "declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)\n")
		fx.line("%s = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)", lo)
		fx.line("%scall i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %s)", def, lo)
	case it.Name == "WaveGetLaneCount" && in.HasResult() && in.Type().IsIntegral() && in.Type().Bits == 32:
		fx.declareRaw("llvm.amdgcn.wavefrontsize", "declare i32 @llvm.amdgcn.wavefrontsize()\n")
		fx.line("%scall i32 @llvm.amdgcn.wavefrontsize()", def)
	case it.Name == "WaveReadLaneAt" && in.HasResult() && len(in.Args) == 2 &&
		in.Args[1].Type().IsIntegral() && in.Args[1].Type().Bits == 32:
		rl := fx.helper(in, "rl")
		lc := fx.helper(in, "lc")
		x, _ := fx.typed(in.Args[0])
		name := "llvm.amdgcn.readlane." + mangle(in.Type())
		fx.declareRaw(name, fmt.Sprintf("declare %s @%s(%s, i32)%s\n", rt, name, rt, fx.x.attrRef("convergent")))
		fx.line("%s = call %s @%s(%s, i32 %s)", rl, rt, name, x, fx.ref(in.Args[1]))
		fx.line("%s = icmp eq i32 %s, %s", lc, fx.ref(in.Args[1]), fx.ref(in.Args[1]))
		fx.line("%sselect i1 %s, %s %s, %s %s", def, lc, rt, rl, rt, rl)
	case strings.HasSuffix(it.Name, "WithGroupSync") && !in.HasResult():
		fx.declareRaw("llvm.amdgcn.s.barrier", "declare void @llvm.amdgcn.s.barrier()"+fx.x.attrRef("convergent")+"\n")
		fx.line("call void @llvm.amdgcn.s.barrier()")
	case it.Attrs.Has(ir.AttrAlwaysUniform) && in.HasResult():
		v := fx.helper(in, "v")
		call(v+" = ", rt, passlensPrefix+sig, args, cattrs...)
		name := "llvm.amdgcn.readfirstlane." + mangle(in.Type())
		fx.declareRaw(name, fmt.Sprintf("declare %s @%s(%s)%s\n", rt, name, rt, fx.x.attrRef("convergent")))
		fx.line("%scall %s @%s(%s %s)", def, rt, name, rt, v)
	case it.Attrs.Has(ir.AttrDivergenceSource):
		call(def, rt, "passlens."+sig, args, cattrs...)
	default:
		call(def, rt, passlensPrefix+sig, args, cattrs...)
	}
	return nil
}

// sigSuffix mangles an intrinsic call's result and argument types, so that
// each distinct signature gets its own declaration.
func sigSuffix(in *ir.Instr) string {
	parts := []string{mangle(in.Type())}
	if !in.HasResult() {
		parts[0] = "void"
	}
	for _, a := range in.Args {
		parts = append(parts, mangle(a.Type()))
	}
	return strings.Join(parts, ".")
}

// declare adds "declare RET @name(ARGS) #attrs" with the argument types of
// the call.
func (fx *fnExporter) declare(name, ret string, args []ir.Value, attrs ...string) {
	if _, ok := fx.x.decls[name]; ok {
		return
	}
	var ts []string
	for _, a := range args {
		t, err := fx.typeOf(a)
		if err != nil {
			t = "i32"
		}
		ts = append(ts, t)
	}
	fx.x.addDecl(name, fmt.Sprintf("declare %s @%s(%s)%s\n", ret, llName(name), strings.Join(ts, ", "), fx.x.attrRef(attrs...)))
}

func (fx *fnExporter) declareRaw(name, line string) { fx.x.addDecl(name, line) }
