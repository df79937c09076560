package spirv

import (
	"fmt"
	"sort"
	"strings"

	"passlens/compiler/ir"
	"passlens/compiler/target"
	"passlens/internal/guard"
)

func init() {
	target.Register(target.SPIRV, Emit)
}

// Options control Assemble.
type Options struct {
	// Entry selects one entry point by name ("" emits every entry point of
	// the module and the functions they call).
	Entry string
	// StripNames omits OpName/OpMemberName debug names.
	StripNames bool
	// PreserveDenorms leaves the float32 denormal mode to the driver.
	// Otherwise entry points whose code computes on float32 declare
	// DenormFlushToZero 32 (SPV_KHR_float_controls), D3D's fp32 rule and
	// the interpreter's default mode.
	PreserveDenorms bool
	// NoNonUniformIndexing: the device cannot index a resource array
	// with an index that differs between lanes (no descriptor indexing,
	// as lavapipe in Mesa 22.3); NoImageArrayIndexing: it cannot index
	// an array of images with any dynamic index. Such an index selects
	// between the elements instead (resarray.go).
	NoNonUniformIndexing, NoImageArrayIndexing bool
	// UnboundedArrayLen, when positive, declares unbounded resource
	// arrays (ir.UnboundedArray) with that many elements (OpTypeArray)
	// instead of OpTypeRuntimeArray, for a device without
	// runtimeDescriptorArray that binds that many.
	UnboundedArrayLen int
}

// Emit is the "spirv" target: the module's entry points as a SPIR-V 1.3
// (Vulkan 1.1) binary and its spirv-dis text.
func Emit(m *ir.Module) (*target.Output, error) {
	words, err := Assemble(m, Options{})
	if err != nil {
		return nil, err
	}
	text, err := Disassemble(words)
	if err != nil {
		return nil, fmt.Errorf("spirv: disassembling the emitted module: %v", err)
	}
	return &target.Output{Text: text, Binary: Bytes(words), Lang: "spvasm", Ext: ".spvasm", BinExt: ".spv"}, nil
}

// Error is a construct the back end cannot translate, located in the IR
// and, where the IR records one, in the source.
type Error struct {
	File      string // the module's name (usually its source file)
	Line, Col int    // source position (0 when unknown)
	Func      string // function name without @ ("" for module-level problems)
	Block     string // block name without % ("" if not in a block)
	Instr     string // the instruction as printed ("" if none)
	Msg       string
}

// at records a source position (ignored when unknown).
func (e *Error) at(file string, l ir.Loc) *Error {
	if l.Line > 0 {
		e.File, e.Line, e.Col = file, int(l.Line), int(l.Col)
	}
	return e
}

func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString("spirv: ")
	if e.Line > 0 {
		if e.File != "" {
			sb.WriteString(e.File + ":")
		}
		fmt.Fprintf(&sb, "%d:%d: ", e.Line, e.Col)
	}
	if e.Func != "" {
		sb.WriteString("@" + ir.QuoteName(e.Func))
		if e.Block != "" {
			sb.WriteString(" %" + ir.QuoteName(e.Block))
		}
		if e.Instr != "" {
			sb.WriteString(": `" + e.Instr + "`")
		}
		sb.WriteString(": ")
	}
	sb.WriteString(e.Msg)
	return sb.String()
}

// section is a growing list of instruction words.
type section []uint32

func (s *section) inst(op uint16, operands ...uint32) {
	*s = append(*s, uint32(len(operands)+1)<<16|uint32(op))
	*s = append(*s, operands...)
}

// enc is the state of one module being assembled.
type enc struct {
	ftz bool // entry points declare DenormFlushToZero 32
	// rte16: entry points declare RoundingModeRTE 16 (the module has
	// 16-bit floats).
	rte16 bool
	// pushConstant is the module's [[vk::push_constant]] buffer, if any.
	pushConstant *ir.Global
	// resArrays are the variables of resource arrays (resarray.go).
	resArrays map[resArrayKey]*arrayVar
	m         *ir.Module
	opts      Options
	next      uint32 // next free id

	caps    map[uint32]bool
	glslExt uint32 // GLSL.std.450 import id (0 until used)

	entries   section // OpEntryPoint
	modes     section // OpExecutionMode
	names     section // OpName, OpMemberName
	annots    section // OpDecorate, OpMemberDecorate
	globals   section // types, constants, global variables
	functions section

	types    map[typeKey]uint32
	roots    map[*ir.Global]uint32 // Block struct of a buffer global
	consts   map[string]uint32
	undefs   map[uint32]uint32
	fnTypes  map[string]uint32
	gvars    map[*ir.Global]*gvar
	builtins map[uint32]uint32 // built-in -> variable created by the back end
	funcIDs  map[*ir.Function]uint32
	fnInfo   map[*ir.Function]*funcUse
	bindings map[[2]int]bool
	// onlyPixel: every emitted entry point is a pixel shader, so the back
	// end's own integer built-in inputs must be Flat.
	onlyPixel bool
	depthMode uint32 // DepthGreater/DepthLess from SV_DepthGreaterEqual/LessEqual (0: none)
	wrappers  map[wrapKey]uint32
	// views64 and aliased: the 64-bit views of byte address buffers and
	// the buffers decorated Aliased because of them (bufword64.go).
	views64 map[view64Key]uint32
	aliased map[*ir.Global]bool
	images  map[imageKey]uint32 // image, sampler and sampled-image types (texture.go)
}

// funcUse records what a function's body references: interface variables
// (for OpEntryPoint) and callees.
type funcUse struct {
	iface   map[uint32]bool
	callees []*ir.Function
}

type typeKey struct {
	t    *ir.Type
	rule layoutRule
}

func (e *enc) id() uint32 {
	e.next++
	return e.next - 1
}

func (e *enc) capability(c uint32) {
	e.caps[c] = true
	if c >= CapGroupNonUniformVote && c <= CapGroupNonUniformShuffle || c == CapGroupNonUniformQuad {
		e.caps[CapGroupNonUniform] = true
	}
}

func (e *enc) name(id uint32, n string) {
	if e.opts.StripNames || n == "" {
		return
	}
	e.names.inst(OpName, append([]uint32{id}, encodeString(n)...)...)
}

func (e *enc) memberName(id uint32, i int, n string) {
	if e.opts.StripNames || n == "" {
		return
	}
	e.names.inst(OpMemberName, append([]uint32{id, uint32(i)}, encodeString(n)...)...)
}

func (e *enc) glsl() uint32 {
	if e.glslExt == 0 {
		e.glslExt = e.id()
	}
	return e.glslExt
}

// Assemble translates the module's entry points (or the one named in
// opts) to a SPIR-V 1.3 binary for Vulkan 1.1. The module is expected to
// have gone through the "spirv" pipeline: structured control flow with
// merge annotations (missing selection merges are derived from
// post-dominators), no switch fallthrough that needs lowering. Problems
// are reported as *Error naming the function, block and instruction.
func Assemble(m *ir.Module, opts Options) (words []uint32, err error) {
	defer guard.Handle("spirv.Assemble", func(e *guard.Error) { words, err = nil, e })
	e := &enc{m: m, opts: opts, next: 1, caps: map[uint32]bool{CapShader: true},
		types: map[typeKey]uint32{}, roots: map[*ir.Global]uint32{}, consts: map[string]uint32{},
		undefs: map[uint32]uint32{}, fnTypes: map[string]uint32{}, gvars: map[*ir.Global]*gvar{},
		builtins: map[uint32]uint32{}, funcIDs: map[*ir.Function]uint32{}, fnInfo: map[*ir.Function]*funcUse{},
		bindings: map[[2]int]bool{}, wrappers: map[wrapKey]uint32{}, views64: map[view64Key]uint32{}, aliased: map[*ir.Global]bool{}, images: map[imageKey]uint32{}}
	entries, err := e.pickEntries()
	if err != nil {
		return nil, err
	}
	funcs, err := e.reachableFuncs(entries)
	if err != nil {
		return nil, err
	}
	if err := e.declareGlobals(entries, funcs); err != nil {
		return nil, err
	}
	for _, f := range funcs {
		e.funcIDs[f] = e.id()
	}
	for _, f := range funcs {
		if err := e.function(f); err != nil {
			return nil, err
		}
	}
	e.ftz = !opts.PreserveDenorms && usesF32(funcs)
	// Conversions to half round to nearest even (D3D's and the IR's
	// rule); without RoundingModeRTE 16 the rounding of OpFConvert to a
	// 16-bit float is the driver's choice (llvmpipe truncates).
	e.rte16 = e.caps[CapFloat16]
	for _, f := range entries {
		e.entryPoint(f)
	}
	return e.finish(), nil
}

// usesF32 reports whether an instruction of funcs takes or yields float32
// values (then the denormal mode matters).
func usesF32(funcs []*ir.Function) bool {
	isF32 := func(t *ir.Type) bool {
		s := t.Scalar()
		return s != nil && s.Kind == ir.KFloat && s.Bits == 32
	}
	for _, f := range funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.HasResult() && isF32(in.Type()) {
					return true
				}
				for _, a := range in.Args {
					if isF32(a.Type()) {
						return true
					}
				}
			}
		}
	}
	return false
}

// pickEntries returns the entry points to emit.
func (e *enc) pickEntries() ([]*ir.Function, error) {
	if e.opts.Entry != "" {
		f := e.m.Func(e.opts.Entry)
		if f == nil {
			return nil, &Error{Msg: fmt.Sprintf("no function @%s", e.opts.Entry)}
		}
		if f.Entry == nil {
			return nil, &Error{Msg: fmt.Sprintf("@%s is not an entry point", e.opts.Entry)}
		}
		return []*ir.Function{f}, nil
	}
	eps := e.m.EntryPoints()
	if len(eps) == 0 {
		return nil, &Error{Msg: "the module has no entry point (SPIR-V needs a compute, pixel or vertex entry point)"}
	}
	return eps, nil
}

// reachableFuncs returns the functions the entries call, transitively, in
// module order, rejecting declarations and recursion.
func (e *enc) reachableFuncs(entries []*ir.Function) ([]*ir.Function, error) {
	seen := map[*ir.Function]bool{}
	state := map[*ir.Function]int{} // 1 on stack, 2 done
	var visit func(f *ir.Function, from *ir.Function) error
	visit = func(f *ir.Function, from *ir.Function) error {
		switch state[f] {
		case 1:
			return &Error{Func: from.Name(), Msg: fmt.Sprintf("recursive call of @%s: SPIR-V for Vulkan forbids recursion", f.Name())}
		case 2:
			return nil
		}
		if f.IsDeclaration() {
			return &Error{Func: from.Name(), Msg: fmt.Sprintf("call of @%s, which is only declared (no body to emit)", f.Name())}
		}
		if f.Module != e.m {
			return &Error{Func: from.Name(), Msg: fmt.Sprintf("call of @%s from another module", f.Name())}
		}
		state[f] = 1
		seen[f] = true
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCall && in.Callee != nil {
					if err := visit(in.Callee, f); err != nil {
						return err
					}
				}
			}
		}
		state[f] = 2
		return nil
	}
	for _, f := range entries {
		if err := visit(f, f); err != nil {
			return nil, err
		}
	}
	var out []*ir.Function
	for _, f := range e.m.Funcs {
		if seen[f] {
			out = append(out, f)
		}
	}
	return out, nil
}

// entryPoint writes OpEntryPoint and the execution modes of f.
func (e *enc) entryPoint(f *ir.Function) {
	model := map[ir.Stage]uint32{ir.StageCompute: ExecGLCompute, ir.StagePixel: ExecFragment, ir.StageVertex: ExecVertex}[f.Entry.Stage]
	fid := e.funcIDs[f]
	iface := map[uint32]bool{}
	seen := map[*ir.Function]bool{}
	var walk func(g *ir.Function)
	walk = func(g *ir.Function) {
		if seen[g] {
			return
		}
		seen[g] = true
		u := e.fnInfo[g]
		if u == nil {
			return
		}
		for id := range u.iface {
			iface[id] = true
		}
		for _, c := range u.callees {
			walk(c)
		}
	}
	walk(f)
	ids := make([]uint32, 0, len(iface))
	for id := range iface {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	ops := append([]uint32{model, fid}, encodeString(f.Name())...)
	e.entries.inst(OpEntryPoint, append(ops, ids...)...)
	if e.ftz {
		e.modes.inst(OpExecutionMode, fid, ModeDenormFlushToZero, 32)
	}
	if e.rte16 {
		e.modes.inst(OpExecutionMode, fid, ModeRoundingModeRTE, 16)
	}
	switch f.Entry.Stage {
	case ir.StageCompute:
		n := f.Entry.NumThreads
		e.modes.inst(OpExecutionMode, fid, ModeLocalSize, uint32(n[0]), uint32(n[1]), uint32(n[2]))
	case ir.StagePixel:
		e.modes.inst(OpExecutionMode, fid, ModeOriginUpperLeft)
		if id, ok := e.builtins[BuiltInFragDepth]; ok && iface[id] {
			e.modes.inst(OpExecutionMode, fid, ModeDepthReplacing)
			if e.depthMode != 0 {
				e.modes.inst(OpExecutionMode, fid, e.depthMode)
			}
		}
	}
}

// finish concatenates the sections in the order SPIR-V's logical layout
// requires.
func (e *enc) finish() []uint32 {
	out := []uint32{Magic, Version13, 0, e.next, 0}
	var head section
	caps := make([]uint32, 0, len(e.caps))
	for c := range e.caps {
		caps = append(caps, c)
	}
	if e.ftz {
		caps = append(caps, CapDenormFlushToZero)
	}
	if e.rte16 {
		caps = append(caps, CapRoundingModeRTE)
	}
	sort.Slice(caps, func(i, j int) bool { return caps[i] < caps[j] })
	for _, c := range caps {
		head.inst(OpCapability, c)
	}
	if e.ftz || e.rte16 {
		head.inst(OpExtension, encodeString("SPV_KHR_float_controls")...)
	}
	if e.caps[CapShaderViewportIndexLayer] {
		head.inst(OpExtension, encodeString("SPV_EXT_shader_viewport_index_layer")...)
	}
	if e.caps[CapShaderNonUniform] || e.caps[CapRuntimeDescriptorArray] {
		head.inst(OpExtension, encodeString("SPV_EXT_descriptor_indexing")...)
	}
	if e.caps[CapDemoteToHelperInvocation] {
		head.inst(OpExtension, encodeString(extDemoteToHelperInvocation)...)
	}
	if e.glslExt != 0 {
		head.inst(OpExtInstImport, append([]uint32{e.glslExt}, encodeString("GLSL.std.450")...)...)
	}
	head.inst(OpMemoryModel, 0, 1)
	out = append(out, head...)
	out = append(out, e.entries...)
	out = append(out, e.modes...)
	out = append(out, e.names...)
	out = append(out, e.annots...)
	out = append(out, e.globals...)
	out = append(out, e.functions...)
	return out
}
