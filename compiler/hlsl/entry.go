package hlsl

import (
	"fmt"
	"strings"
)

// Stage is a shader stage.
type Stage uint8

// Shader stages. StageUnknown in Options means "infer".
const (
	StageUnknown Stage = iota
	StageVertex
	StagePixel
	StageCompute
)

func (s Stage) String() string {
	return [...]string{"unknown", "vertex", "pixel", "compute"}[s]
}

// SysValue identifies a system-value semantic.
type SysValue uint8

// System values. SVNone is a user (interpolated) semantic.
const (
	SVNone SysValue = iota
	SVPosition
	SVTarget
	SVDepth
	SVDepthGreaterEqual
	SVDepthLessEqual
	SVCoverage
	SVStencilRef
	SVIsFrontFace
	SVSampleIndex
	SVPrimitiveID
	SVVertexID
	SVInstanceID
	SVClipDistance
	SVCullDistance
	SVRenderTargetArrayIndex
	SVViewportArrayIndex
	SVDispatchThreadID
	SVGroupThreadID
	SVGroupID
	SVGroupIndex
)

var sysValueNames = map[string]SysValue{
	"SV_POSITION": SVPosition, "SV_TARGET": SVTarget, "SV_DEPTH": SVDepth,
	"SV_DEPTHGREATEREQUAL": SVDepthGreaterEqual, "SV_DEPTHLESSEQUAL": SVDepthLessEqual,
	"SV_COVERAGE": SVCoverage, "SV_STENCILREF": SVStencilRef, "SV_ISFRONTFACE": SVIsFrontFace,
	"SV_SAMPLEINDEX": SVSampleIndex, "SV_PRIMITIVEID": SVPrimitiveID, "SV_VERTEXID": SVVertexID,
	"SV_INSTANCEID": SVInstanceID, "SV_CLIPDISTANCE": SVClipDistance, "SV_CULLDISTANCE": SVCullDistance,
	"SV_RENDERTARGETARRAYINDEX": SVRenderTargetArrayIndex, "SV_VIEWPORTARRAYINDEX": SVViewportArrayIndex,
	"SV_DISPATCHTHREADID": SVDispatchThreadID, "SV_GROUPTHREADID": SVGroupThreadID,
	"SV_GROUPID": SVGroupID, "SV_GROUPINDEX": SVGroupIndex,
}

// EntryIO is one input or output of the entry point after flattening
// structs: where its value comes from (Param, or the return value when
// Param is nil) and the field path inside it.
type EntryIO struct {
	Semantic string // as written, e.g. "SV_Target1", "TEXCOORD"
	Name     string // upper-cased base: "SV_TARGET", "TEXCOORD"
	Index    int    // semantic index (SV_Target1 -> 1; arrays use Index..Index+Len-1)
	SysValue SysValue
	Type     *Type
	Param    *VarDecl // nil for the return value
	Path     []int    // field indices from the parameter/return type down to this value
	Interp   Modifiers
	Pos      Pos
}

// EntryPoint describes the checked entry function.
type EntryPoint struct {
	Func       *FuncDecl
	Stage      Stage
	NumThreads [3]int // compute only
	// WaveSize is n of [WaveSize(n)] (0 without it): the wave size the
	// shader requires, which the interpreter runs at by default.
	WaveSize int
	// RootSignature is the parsed [RootSignature("…")] (nil without it);
	// like DXC for SPIR-V, nothing is laid out by it.
	RootSignature *RootSignature
	Inputs        []*EntryIO
	Outputs       []*EntryIO
	// Uniforms are entry parameters declared 'uniform'. Like global
	// uniforms they are members of the implicit $Globals buffer (after
	// the global ones, with Buffer and Offset set).
	Uniforms []*VarDecl
}

// checkEntry finds and validates the entry point.
func (c *checker) checkEntry() {
	name := c.opts.Entry
	if name == "" {
		name = "main"
	}
	var f *FuncDecl
	for _, g := range c.funcs[name] {
		if g.Def != nil {
			if f != nil && f.Def != g.Def {
				c.rep.errorf(g.NamePos, g.NamePos.advance(len(name)), "entry point '%s' is overloaded", name)
				return
			}
			f = g.Def
		}
	}
	if f == nil {
		if len(c.funcs[name]) > 0 {
			g := c.funcs[name][0]
			c.rep.errorf(g.NamePos, g.NamePos.advance(len(name)), "entry point '%s' is declared but not defined", name)
			return
		}
		c.rep.add(Diagnostic{Severity: Error, Pos: Pos{File: c.prog.File}, Message: fmt.Sprintf("missing entry point function '%s'", name)})
		return
	}
	ep := &EntryPoint{Func: f}
	c.prog.Entry = ep
	var numthreads *Attribute
	// Attributes may be written on a prototype of the entry point; the
	// definition's win (SM6 takes them from the definition: vkd3d's
	// numthreads.shader_test), so they come last.
	var attrs []*Attribute
	for _, g := range c.funcs[name] {
		if g != f && g.Def == f && g.NamePos.Before(f.NamePos) {
			attrs = append(attrs, g.Attrs...)
		}
	}
	attrs = append(attrs, f.Attrs...)
	for _, a := range attrs {
		name := strings.ToLower(a.Name)
		if a.Namespace != "" {
			name = ""
		}
		switch name {
		case "numthreads":
			numthreads = a
		case "wavesize":
			if len(a.Args) == 1 {
				if n, ok := ConstEval(a.Args[0]); ok {
					ep.WaveSize = int(n.AsInt())
				}
			}
		case "rootsignature":
			ep.RootSignature = a.Root
		case "earlydepthstencil", "shader", "outputtopology", "domain", "partitioning",
			"outputcontrolpoints", "patchconstantfunc", "maxtessfactor", "instance", "maxvertexcount":
		default:
			c.warnf(a, "unknown attribute '%s' ignored", a.FullName())
		}
	}
	ep.Stage = c.opts.Stage
	if ep.Stage == StageUnknown {
		ep.Stage = c.inferStage(f, numthreads != nil)
		if ep.Stage == StageUnknown {
			c.rep.errorf(f.NamePos, f.NamePos.advance(len(name)), "cannot infer the shader stage of entry point '%s': add [numthreads(X, Y, Z)] for a compute shader, or SV_ semantics on its parameters and result (SV_Target for a pixel shader, SV_Position for a vertex shader)", name)
			return
		}
	}
	if ep.Stage == StageCompute {
		if numthreads == nil {
			c.rep.errorf(f.NamePos, f.NamePos.advance(len(name)), "compute entry point '%s' requires a [numthreads(x, y, z)] attribute", name)
		} else {
			ep.NumThreads = c.numThreads(numthreads)
		}
	} else if numthreads != nil && c.opts.Profile.Name != "" && !c.opts.Profile.Library {
		// DXC: "attribute numthreads only valid for CS/MS/AS." (profile_check.go)
		c.errorf(numthreads, "attribute 'numthreads' is only valid for compute shaders, not with the %s profile %s", ep.Stage, c.opts.Profile.Name)
	} else if numthreads != nil {
		c.warnf(numthreads, "attribute 'numthreads' ignored: it only applies to compute shaders")
	}
	for _, p := range f.Params {
		if p.Type.Kind == KindArray && p.Type.Len < 0 {
			c.errorf(p, "entry point parameter '%s' must have an explicit array size", p.Name)
			continue
		}
		if p.Mods&ModUniform != 0 {
			if p.Dir != DirIn {
				c.rep.errorf(p.NamePos, p.NamePos.advance(len(p.Name)), "uniform parameter '%s' cannot be 'out'", p.Name)
			}
			ep.Uniforms = append(ep.Uniforms, p)
			if p.Buffer == nil {
				p.Buffer = c.globals
				c.globals.Members = append(c.globals.Members, p)
			}
			continue
		}
		if p.Dir != DirOut {
			c.collectIO(ep, p, p.Type, p.Semantic, nil, true, p.Mods&interpMods, p.NamePos, p.Name)
		}
		if p.Dir != DirIn {
			c.collectIO(ep, p, p.Type, p.Semantic, nil, false, p.Mods&interpMods, p.NamePos, p.Name)
		}
	}
	if f.Ret.Kind != KindVoid && !f.Ret.IsError() {
		c.collectIO(ep, nil, f.Ret, f.RetSemantic, nil, false, 0, f.NamePos, "return value")
	} else if f.RetSemantic != nil && f.Ret.Kind == KindVoid {
		c.rep.errorf(f.RetSemantic.P, f.RetSemantic.E, "void function cannot have a semantic")
	}
	c.checkDuplicateSemantics(ep.Inputs, "input")
	c.checkDuplicateSemantics(ep.Outputs, "output")
	c.checkLocations(ep)
	c.checkStageIntrinsics(ep)
	c.checkShaderModel(ep)
	c.checkResourceOverlap(ep)
	c.checkNullStatics(ep) // static_resource.go
	c.checkGroupsharedSize(ep)
	c.checkCBufferSize(ep)
	if ep.Stage == StageCompute && f.Ret.Kind != KindVoid && !f.Ret.IsError() {
		c.rep.errorf(f.NamePos, f.NamePos.advance(len(name)), "compute entry point '%s' must return void", name)
	}
}

// inferStage guesses the stage from numthreads and semantics.
func (c *checker) inferStage(f *FuncDecl, numthreads bool) Stage {
	if numthreads {
		return StageCompute
	}
	vote := StageUnknown
	var visit func(t *Type, sem *Semantic, out bool)
	visit = func(t *Type, sem *Semantic, out bool) {
		if sem != nil {
			base := sem.Base
			switch {
			case out && (base == "SV_TARGET" || base == "COLOR" || strings.HasPrefix(base, "SV_DEPTH") || base == "DEPTH" || base == "SV_COVERAGE"):
				if vote == StageUnknown {
					vote = StagePixel
				}
			case out && (base == "SV_POSITION" || base == "POSITION"):
				if vote == StageUnknown {
					vote = StageVertex
				}
			case !out && (base == "SV_VERTEXID" || base == "SV_INSTANCEID"):
				if vote == StageUnknown {
					vote = StageVertex
				}
			case !out && (base == "SV_ISFRONTFACE" || base == "SV_SAMPLEINDEX" || base == "VPOS"):
				if vote == StageUnknown {
					vote = StagePixel
				}
			}
			return
		}
		if t != nil && t.Kind == KindStruct {
			for _, fl := range t.Struct.Fields {
				visit(fl.Type, fl.Semantic, out)
			}
		}
	}
	if f.Ret.Kind != KindVoid {
		visit(f.Ret, f.RetSemantic, true)
	}
	for _, p := range f.Params {
		if p.Dir != DirIn {
			visit(p.Type, p.Semantic, true)
		}
	}
	if vote != StageUnknown {
		return vote
	}
	for _, p := range f.Params {
		if p.Dir != DirOut {
			visit(p.Type, p.Semantic, false)
		}
	}
	if vote == StageUnknown {
		// An SV_Position input alone means a pixel shader.
		for _, p := range f.Params {
			if p.Dir == DirIn && p.Semantic != nil && p.Semantic.Base == "SV_POSITION" {
				return StagePixel
			}
		}
	}
	return vote
}

// numThreads returns the thread group size of a validated numthreads.
func (c *checker) numThreads(a *Attribute) [3]int {
	var n [3]int
	for i, arg := range a.Args {
		if i < 3 {
			if k, ok := ConstEval(arg); ok {
				n[i] = int(k.AsInt())
			}
		}
	}
	return n
}

// checkNumThreads validates a numthreads attribute on any function: three
// integer constants within the D3D limits.
func (c *checker) checkNumThreads(a *Attribute) {
	if len(a.Args) != 3 {
		c.errorf(a, "'numthreads' takes 3 arguments, have %d", len(a.Args))
		return
	}
	limits := [3]int64{1024, 1024, 64}
	var n [3]int64
	for i, arg := range a.Args {
		arg = c.checkExpr(arg)
		a.Args[i] = arg
		t := arg.Type()
		if t.IsError() {
			return
		}
		if !t.IsScalar() || !t.IsIntegral() {
			c.errorf(arg, "numthreads argument must be an integer constant, not '%s'", t)
			return
		}
		v, ok := c.constInt(arg, "numthreads argument")
		if !ok {
			return
		}
		if v < 1 || v > limits[i] {
			c.errorf(arg, "numthreads %c dimension must be between 1 and %d (is %d)", "xyz"[i], limits[i], v)
			return
		}
		n[i] = v
	}
	if total := n[0] * n[1] * n[2]; total > 1024 {
		c.errorf(a, "numthreads total thread count %d exceeds 1024", total)
	}
}

// collectIO flattens one entry parameter or the return value into EntryIOs.
// A semantic on a struct applies to its members in order, with increasing
// indices (semantic cascading).
func (c *checker) collectIO(ep *EntryPoint, p *VarDecl, t *Type, sem *Semantic, path []int, input bool, interp Modifiers, pos Pos, what string) {
	if t.IsError() {
		return
	}
	if t.Kind == KindStruct && sem == nil {
		for i, f := range t.Struct.Fields {
			c.collectIO(ep, p, f.Type, f.Semantic, append(append([]int(nil), path...), i), input, interp|f.Mods&interpMods, f.P, "field '"+f.Name+"'")
		}
		return
	}
	if sem == nil {
		dir := "output"
		if input {
			dir = "input"
		}
		c.rep.errorf(pos, pos.advance(len(what)), "missing semantic for entry point %s %s", dir, quoteWhat(what))
		return
	}
	if t.Kind == KindStruct {
		// Cascade the semantic over the members.
		idx := sem.Index
		for i, f := range t.Struct.Fields {
			s := *sem
			s.Index = idx
			s.Name = fmt.Sprintf("%s%d", strings.TrimRight(sem.Name, "0123456789"), idx)
			idx += semanticRows(f.Type)
			c.collectIO(ep, p, f.Type, &s, append(append([]int(nil), path...), i), input, interp|f.Mods&interpMods, f.P, "field '"+f.Name+"'")
		}
		return
	}
	if t.ContainsResource() || !isFlattenable(t) {
		c.rep.errorf(pos, pos.advance(len(what)), "entry point %s of type '%s' is not allowed", quoteWhat(what), t)
		return
	}
	io := &EntryIO{Semantic: sem.Name, Name: sem.Base, Index: sem.Index, Type: t, Param: p, Path: path, Interp: interp, Pos: sem.P}
	io.SysValue = sysValueNames[sem.Base]
	if !c.validSemantic(ep.Stage, io, input, sem) {
		return
	}
	if input {
		ep.Inputs = append(ep.Inputs, io)
	} else {
		ep.Outputs = append(ep.Outputs, io)
	}
}

// semanticRows is the number of semantic indices a value of type t takes:
// one per array element (of its element's count) and per struct member;
// a matrix takes a quarter of its components (one per 4-vector), anything
// else one.
func semanticRows(t *Type) int {
	switch {
	case t == nil:
		return 1
	case t.Kind == KindArray && t.Len > 0:
		return t.Len * semanticRows(t.Elem)
	case t.Kind == KindStruct:
		n := 0
		for _, f := range t.Struct.Fields {
			n += semanticRows(f.Type)
		}
		return max(n, 1)
	case t.IsMatrix():
		return max(1, t.ComponentCount()/4)
	}
	return 1
}

func quoteWhat(what string) string {
	if strings.Contains(what, "'") || what == "return value" {
		return what
	}
	return "'" + what + "'"
}

// validSemantic checks a semantic against the stage and direction.
func (c *checker) validSemantic(stage Stage, io *EntryIO, input bool, sem *Semantic) bool {
	dir := "output"
	if input {
		dir = "input"
	}
	fail := func(format string, args ...any) bool {
		c.rep.errorf(sem.P, sem.E, format, args...)
		return false
	}
	base := io.Name
	if strings.HasPrefix(base, "SV_") && io.SysValue == SVNone {
		return fail("unknown system value semantic '%s'", sem.Name)
	}
	sv := io.SysValue
	switch stage {
	case StageCompute:
		if !input {
			return fail("compute shaders have no outputs")
		}
		switch sv {
		case SVDispatchThreadID, SVGroupThreadID, SVGroupID:
			if !io.Type.IsIntegral() || io.Type.IsMatrix() || io.Type.Dim() > 3 {
				return fail("semantic '%s' requires uint, uint2 or uint3, not '%s'", sem.Name, io.Type)
			}
		case SVGroupIndex:
			if !io.Type.IsIntegral() || !io.Type.IsScalar() {
				return fail("semantic '%s' requires a uint scalar, not '%s'", sem.Name, io.Type)
			}
		default:
			return fail("invalid semantic '%s' for compute shader input", sem.Name)
		}
	case StagePixel:
		if input {
			switch sv {
			case SVNone, SVPosition, SVIsFrontFace, SVSampleIndex, SVPrimitiveID, SVCoverage,
				SVClipDistance, SVCullDistance, SVRenderTargetArrayIndex, SVViewportArrayIndex:
			default:
				return fail("invalid semantic '%s' for pixel shader input", sem.Name)
			}
			if sv == SVIsFrontFace && !io.Type.IsScalar() {
				return fail("semantic '%s' requires a bool scalar, not '%s'", sem.Name, io.Type)
			}
			return true
		}
		switch {
		case sv == SVTarget || base == "COLOR":
			io.SysValue = SVTarget
			if io.Index > 7 {
				return fail("render target index %d of '%s' is out of range (0-7)", io.Index, sem.Name)
			}
			if io.Type.Kind == KindArray && !io.Type.Elem.IsNumeric() {
				return fail("pixel shader output '%s' must be a scalar or vector, not '%s'", sem.Name, io.Type)
			}
			if s := io.Type; s.IsNumeric() && s.Scalar().Width() == 64 {
				return fail("render target output '%s' cannot have the 64-bit type '%s'", sem.Name, io.Type)
			}
			if t := io.Type; t.IsMatrix() {
				regs := t.Cols
				if t.RowMajor {
					regs = t.Rows
				}
				if regs != 1 {
					return fail("matrix output '%s' of type '%s' would span %d render targets", sem.Name, t, regs)
				}
			}
		case sv == SVDepth || base == "DEPTH" || sv == SVDepthGreaterEqual || sv == SVDepthLessEqual:
			if io.SysValue == SVNone {
				io.SysValue = SVDepth
			}
			if !io.Type.IsScalar() {
				return fail("semantic '%s' requires a float scalar, not '%s'", sem.Name, io.Type)
			}
		case sv == SVCoverage || sv == SVStencilRef:
		default:
			return fail("invalid semantic '%s' for pixel shader %s", sem.Name, dir)
		}
	case StageVertex:
		if input {
			switch sv {
			case SVNone, SVVertexID, SVInstanceID, SVPosition:
				return true
			}
			return fail("invalid semantic '%s' for vertex shader input", sem.Name)
		}
		switch sv {
		case SVNone, SVPosition, SVClipDistance, SVCullDistance, SVRenderTargetArrayIndex, SVViewportArrayIndex:
		default:
			return fail("invalid semantic '%s' for vertex shader output", sem.Name)
		}
	}
	return true
}

// checkDuplicateSemantics rejects two inputs, or two outputs, with the
// same semantic name and index (DXC: HLSignatureLower's "overlapping
// semantic index" for system values, the validator's
// MetaNoSemanticOverlap for the others; docs/hlsl-rules.md,
// entry.semantic).
func (c *checker) checkDuplicateSemantics(ios []*EntryIO, dir string) {
	seen := map[string]*EntryIO{}
	for _, o := range ios {
		n := semanticRows(o.Type)
		for i := o.Index; i < o.Index+n; i++ {
			key := fmt.Sprintf("%s%d", o.Name, i)
			if o.SysValue == SVTarget {
				key = fmt.Sprintf("SV_TARGET%d", i)
			}
			if prev, ok := seen[key]; ok {
				c.rep.add(Diagnostic{Severity: Error, Pos: o.Pos, End: o.Pos.advance(len(o.Semantic)),
					Message: fmt.Sprintf("%s semantic '%s' is used more than once", dir, o.Semantic),
					Notes:   []Diagnostic{note(prev.Pos, "previous use is here")}})
				break
			}
			seen[key] = o
		}
	}
}

// stageIntrinsics lists intrinsics restricted to some stages.
var stageIntrinsics = map[string]Stage{
	"GroupMemoryBarrier": StageCompute, "GroupMemoryBarrierWithGroupSync": StageCompute,
	"AllMemoryBarrier": StageCompute, "AllMemoryBarrierWithGroupSync": StageCompute,
	"DeviceMemoryBarrierWithGroupSync": StageCompute,
	"EvaluateAttributeCentroid":        StagePixel, "EvaluateAttributeAtSample": StagePixel,
	"EvaluateAttributeSnapped": StagePixel, "clip": StagePixel, "GetRenderTargetSampleCount": StagePixel,
	"GetRenderTargetSamplePosition": StagePixel,
}

// quadIntrinsics are the derivatives and quad operations: they read the
// other lanes of a 2×2 quad, which pixel shaders have and, since shader
// model 6.6, compute shaders (DXC: derivatives and Quad* in compute, mesh
// and amplification shaders; passlens has only the compute stage of
// those).
var quadIntrinsics = map[string]bool{
	"ddx": true, "ddy": true, "ddx_coarse": true, "ddy_coarse": true, "ddx_fine": true, "ddy_fine": true,
	"fwidth": true, "QuadReadAcrossX": true, "QuadReadAcrossY": true, "QuadReadAcrossDiagonal": true,
	"QuadReadLaneAt": true, "QuadAny": true, "QuadAll": true,
}

// checkStageIntrinsics rejects stage-specific intrinsics and statements
// in functions reachable from an entry point of another stage.
func (c *checker) checkStageIntrinsics(ep *EntryPoint) {
	seen := map[*FuncDecl]bool{}
	var visit func(f *FuncDecl)
	visit = func(f *FuncDecl) {
		if f == nil || seen[f] {
			return
		}
		seen[f] = true
		for _, call := range c.intrinsicCalls[f] {
			if want, ok := stageIntrinsics[call.Name]; ok && want != ep.Stage {
				c.rep.errorf(call.NamePos, call.NamePos.advance(len(call.Name)), "'%s' is only available in %s shaders, not in a %s shader", call.Name, want, ep.Stage)
			}
			if quadIntrinsics[call.Name] && ep.Stage != StagePixel && ep.Stage != StageCompute {
				c.rep.errorf(call.NamePos, call.NamePos.advance(len(call.Name)), "'%s' needs 2×2 quads: it is only available in pixel and (shader model 6.6) compute shaders, not in a %s shader", call.Name, ep.Stage)
			}
			if derivativeIntrinsics[call.Name] && ep.Stage == StageCompute && !derivativeGroup(ep.NumThreads) {
				n := ep.NumThreads
				c.rep.errorf(call.NamePos, call.NamePos.advance(len(call.Name)), "'%s' in a compute shader needs quads: numthreads(%d, %d, %d) must have X a multiple of 4 with Y and Z 1, or X and Y multiples of 2", call.Name, n[0], n[1], n[2])
			}
		}
		if ep.Stage != StagePixel {
			for _, d := range c.discards[f] {
				c.errorf(d, "'discard' is only allowed in pixel shaders")
			}
		}
		for _, call := range c.calls[f] {
			visit(call.Func.Def)
		}
	}
	visit(ep.Func)
}

// checkLocations warns where [[vk::location(n)]] on an entry parameter is
// ignored: on a system value or a struct (whose members' locations stay
// assigned in order); two parameters at one location in the same direction
// are an error.
func (c *checker) checkLocations(ep *EntryPoint) {
	type key struct {
		loc   int
		input bool
	}
	seen := map[key]*VarDecl{}
	check := func(ios []*EntryIO, input bool) {
		for _, io := range ios {
			p := io.Param
			if p == nil || !p.Vk.HasLocation || len(io.Path) > 0 {
				continue
			}
			if io.SysValue != SVNone {
				continue
			}
			k := key{p.Vk.Location, input}
			if q := seen[k]; q != nil && q != p {
				c.rep.errorf(p.NamePos, p.NamePos.advance(len(p.Name)), "'%s' and '%s' have the same location %d", q.Name, p.Name, p.Vk.Location)
			}
			seen[k] = p
		}
	}
	check(ep.Inputs, true)
	check(ep.Outputs, false)
	for _, p := range ep.Func.Params {
		if !p.Vk.HasLocation {
			continue
		}
		for _, a := range p.Attrs {
			if a.Namespace != "vk" || a.Name != "location" {
				continue
			}
			switch {
			case p.Type.Kind == KindStruct:
				c.warnf(a, "'vk::location' ignored on a struct parameter: its members take locations in order")
			case p.Semantic != nil && strings.HasPrefix(strings.ToUpper(p.Semantic.Name), "SV_"):
				c.warnf(a, "'vk::location' ignored on the system value '%s'", p.Semantic.Name)
			}
		}
	}
}

// derivativeIntrinsics are the derivative functions, which SM6.6 allows
// in compute shaders (profile_check.go) over quads that numthreads
// defines.
var derivativeIntrinsics = map[string]bool{
	"ddx": true, "ddy": true, "ddx_coarse": true, "ddy_coarse": true, "ddx_fine": true, "ddy_fine": true, "fwidth": true,
}

// derivativeGroup reports whether a compute shader of numthreads n has
// quads for derivatives (DirectX-Specs, SM6.6 "Derivatives in compute":
// 1D quads when X is a multiple of 4 and Y and Z are 1, 2D quads when X
// and Y are multiples of 2; any other numthreads is an error).
func derivativeGroup(n [3]int) bool {
	return n[0]%4 == 0 && n[1] == 1 && n[2] == 1 || n[0]%2 == 0 && n[1]%2 == 0
}
