package spirv

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// This file declares the module's global variables:
//
//   - storage globals become StorageBuffer variables of a Block struct:
//     the global's own struct (laid out std430) when its value type is a
//     struct, else a one-member wrapper struct { T } (then every access
//     gets a leading index 0). Typed buffers (Buffer<T>/RWBuffer<T>) are
//     mapped the same way as structured buffers: a runtime array of T in a
//     storage buffer (no texel buffers). Read-only buffers get NonWritable
//     on their members;
//   - uniform globals (cbuffers, $Globals) become Uniform variables of a
//     Block struct laid out std140 (layout.go);
//   - both get DescriptorSet and Binding: the IR's set and binding when
//     given, else set 0 (or the given set) and the lowest binding not taken
//     by any other buffer global of the module, in module order;
//   - groupshared globals become Workgroup variables (initializers are
//     dropped: Vulkan 1.1 allows none on Workgroup variables);
//   - private globals become Private variables with their initializer;
//   - input/output globals become Input/Output variables: system-value
//     semantics map to built-ins (table below), SV_TargetN to Location N,
//     other semantics to Locations numbered in module order per direction.
//     Integer (and nointerpolation) pixel-shader inputs are Flat. A
//     built-in whose IR type differs from the one Vulkan requires (uint
//     for SV_DispatchThreadID, say) is read through a Private shadow
//     variable that the entry point fills first.

// gvar is the SPIR-V side of a global.
type gvar struct {
	g       *ir.Global
	id      uint32 // the variable the IR global maps to (the shadow if any)
	sc      uint32
	rule    layoutRule
	wrapped bool   // the variable's type is the wrapper struct { ValType }
	root    uint32 // Block struct type id (buffers), 0 otherwise
	iface   uint32 // Input/Output variable to list in OpEntryPoint (0: none)
	shadow  *shadow
	out     *outShadow
	arr     *arrayVar // a resource array element: its array's variable (resarray.go); id is 0
}

// shadow is a built-in read through a Private copy.
type shadow struct {
	builtin uint32   // the Input variable
	bt      *ir.Type // its IR-equivalent type
}

// outShadow is a built-in output written through a Private copy, which
// the entry point copies out before it returns: the IR global's
// components go to elements offset, offset+1, ... of the built-in array.
type outShadow struct {
	builtin uint32
	offset  int
	elem    *ir.Type // the array's element type (f32, or i32 for SampleMask)
}

// builtinSpec is a built-in a semantic maps to.
type builtinSpec struct {
	builtin uint32
	t       *ir.Type
	cap     uint32 // capability the built-in needs (0: Shader)
	mode    uint32 // execution mode the built-in implies (0: none)
}

// systemValues maps (stage, direction, upper-case semantic) to built-ins.
var systemValues = map[string]builtinSpec{
	"compute in SV_DISPATCHTHREADID":       {builtin: BuiltInGlobalInvocationID, t: ir.Vec(ir.U32, 3)},
	"compute in SV_GROUPTHREADID":          {builtin: BuiltInLocalInvocationID, t: ir.Vec(ir.U32, 3)},
	"compute in SV_GROUPID":                {builtin: BuiltInWorkgroupID, t: ir.Vec(ir.U32, 3)},
	"compute in SV_GROUPINDEX":             {builtin: BuiltInLocalInvocationIndex, t: ir.U32},
	"pixel in SV_POSITION":                 {builtin: BuiltInFragCoord, t: ir.Vec(ir.F32, 4)},
	"pixel in SV_ISFRONTFACE":              {builtin: BuiltInFrontFacing, t: ir.Bool},
	"pixel in SV_SAMPLEINDEX":              {builtin: BuiltInSampleID, t: ir.U32},
	"pixel in SV_RENDERTARGETARRAYINDEX":   {BuiltInLayer, ir.U32, CapGeometry, 0},
	"pixel in SV_VIEWPORTARRAYINDEX":       {BuiltInViewportIndex, ir.U32, CapMultiViewport, 0},
	"pixel out SV_DEPTH":                   {BuiltInFragDepth, ir.F32, 0, 0},
	"vertex out SV_RENDERTARGETARRAYINDEX": {BuiltInLayer, ir.U32, CapShaderViewportIndexLayer, 0},
	"vertex out SV_VIEWPORTARRAYINDEX":     {BuiltInViewportIndex, ir.U32, CapShaderViewportIndexLayer, 0},
	"pixel out SV_DEPTHGREATEREQUAL":       {BuiltInFragDepth, ir.F32, 0, ModeDepthGreater},
	"pixel out SV_DEPTHLESSEQUAL":          {BuiltInFragDepth, ir.F32, 0, ModeDepthLess},
	"vertex in SV_VERTEXID":                {builtin: BuiltInVertexIndex, t: ir.U32},
	"vertex in SV_INSTANCEID":              {builtin: BuiltInInstanceIndex, t: ir.U32},
	"vertex out SV_POSITION":               {builtin: BuiltInPosition, t: ir.Vec(ir.F32, 4)},
}

// globalsUsed returns, per entry point, the globals its call tree uses,
// and the set of all globals the emitted functions use.
func globalsUsed(entries, funcs []*ir.Function) (map[*ir.Function]map[*ir.Global]bool, map[*ir.Global]bool) {
	direct := map[*ir.Function]map[*ir.Global]bool{}
	for _, f := range funcs {
		s := map[*ir.Global]bool{}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				for _, a := range in.Args {
					if g, ok := a.(*ir.Global); ok {
						s[g] = true
					}
				}
			}
		}
		direct[f] = s
	}
	per := map[*ir.Function]map[*ir.Global]bool{}
	all := map[*ir.Global]bool{}
	for _, ep := range entries {
		s := map[*ir.Global]bool{}
		seen := map[*ir.Function]bool{}
		var walk func(f *ir.Function)
		walk = func(f *ir.Function) {
			if seen[f] {
				return
			}
			seen[f] = true
			for g := range direct[f] {
				s[g] = true
				all[g] = true
			}
			for _, b := range f.Blocks {
				for _, in := range b.Instrs {
					if in.Op == ir.OpCall && in.Callee != nil {
						walk(in.Callee)
					}
				}
			}
		}
		walk(ep)
		per[ep] = s
	}
	return per, all
}

// Binding is the descriptor binding of a buffer global.
type Binding struct {
	Global  *ir.Global
	Set     int
	Binding int
	Uniform bool // a uniform buffer (else a storage buffer)
	// Image is a texture or sampler (texture.go), not a buffer.
	Image bool
	// ArrayIndex and ArrayLen: the global is element ArrayIndex of a
	// resource array of ArrayLen elements (ir.Global.Array), all bound at
	// Binding as one arrayed descriptor (ArrayLen 0: not an element;
	// ir.UnboundedArray: the whole unbounded array, its elements the
	// descriptors 0, 1, … of Binding).
	ArrayIndex, ArrayLen int
}

// Bindings returns the descriptor set and binding of every uniform and
// storage global of m, in module order, as Assemble assigns them. The
// elements of a resource array share their array's binding: the
// element's binding (register) less its index, so Out[4] : register(u2)
// is binding 2 with descriptors 0..3, as DXC binds it.
func Bindings(m *ir.Module) []Binding {
	var out []Binding
	taken := map[[2]int]bool{}
	// [[vk::binding(b, s)]] (VkBinding) wins over register(): DXC reads
	// the Vulkan attribute when it emits SPIR-V.
	setOf := func(g *ir.Global) (int, int) {
		s, b := max(g.Set, 0), g.Binding
		if g.VkBinding >= 0 {
			s, b = g.VkSet, g.VkBinding
		}
		if b >= 0 && isArrayElement(g) {
			b -= g.ArrayIndex
		}
		return s, b
	}
	for _, g := range m.Globals {
		if (g.Space == ir.SpaceStorage || g.Space == ir.SpaceUniform) && !g.PushConstant {
			if s, b := setOf(g); b >= 0 {
				taken[[2]int{s, b}] = true
			}
		}
	}
	arrays := map[resArrayKey]int{} // an unbound array's binding
	for _, g := range m.Globals {
		if g.Space != ir.SpaceStorage && g.Space != ir.SpaceUniform || g.PushConstant {
			continue
		}
		set, b := setOf(g)
		key, arr := arrayKey(g, set, b), isArrayElement(g)
		if b < 0 && arr {
			if ab, ok := arrays[key]; ok {
				b = ab
			}
		}
		if b < 0 {
			for b = 0; taken[[2]int{set, b}]; b++ {
			}
			taken[[2]int{set, b}] = true
			if arr {
				arrays[key] = b
			}
		}
		bd := Binding{Global: g, Set: set, Binding: b, Uniform: g.Space == ir.SpaceUniform, Image: ir.IsImageGlobal(g)}
		if arr || g.ArrayLen == ir.UnboundedArray {
			bd.ArrayIndex, bd.ArrayLen = g.ArrayIndex, g.ArrayLen
		}
		out = append(out, bd)
	}
	return out
}

// declareGlobals declares every global the emitted functions use.
func (e *enc) declareGlobals(entries, funcs []*ir.Function) error {
	per, all := globalsUsed(entries, funcs)
	stages := map[*ir.Global]ir.Stage{}
	e.onlyPixel = true
	for _, ep := range entries {
		e.onlyPixel = e.onlyPixel && ep.Entry.Stage == ir.StagePixel
		for g := range per[ep] {
			if g.Space == ir.SpaceGroupshared && ep.Entry.Stage != ir.StageCompute {
				return &Error{Func: ep.Name(), Msg: fmt.Sprintf("groupshared @%s used by a %s entry point: Vulkan has workgroup memory only in compute shaders", g.Name(), ep.Entry.Stage)}
			}
			if g.Space != ir.SpaceInput && g.Space != ir.SpaceOutput {
				continue
			}
			if s, ok := stages[g]; ok && s != ep.Entry.Stage {
				return &Error{Msg: fmt.Sprintf("stage %s global @%s is used by %s and %s entry points; SPIR-V needs one variable per stage (emit one entry point at a time)",
					g.Space, g.Name(), s, ep.Entry.Stage)}
			}
			stages[g] = ep.Entry.Stage
		}
	}
	binds := map[*ir.Global]Binding{}
	for _, b := range Bindings(e.m) {
		binds[b.Global] = b
	}
	locs := map[ir.AddrSpace]int{}
	for _, g := range e.m.Globals {
		if !all[g] {
			continue
		}
		var err error
		switch g.Space {
		case ir.SpaceStorage, ir.SpaceUniform:
			if ir.IsImageGlobal(g) {
				err = e.imageVar(g, binds[g])
				break
			}
			err = e.bufferVar(g, binds[g])
		case ir.SpaceGroupshared, ir.SpacePrivate:
			err = e.plainVar(g)
		case ir.SpaceInput, ir.SpaceOutput:
			err = e.stageVar(g, stages[g], locs)
		default:
			err = fmt.Errorf("address space %s cannot hold a global", g.Space)
		}
		if err != nil {
			if _, ok := err.(*Error); ok {
				return err
			}
			return (&Error{Msg: fmt.Sprintf("global @%s: %v", g.Name(), err)}).at(e.m.Name, g.Loc)
		}
	}
	return nil
}

// wrapKey identifies a wrapper Block struct: the buffer's type, layout
// and whether it is read-only.
type wrapKey struct {
	t    *ir.Type
	rule layoutRule
	ro   bool
}

func (e *enc) bufferVar(g *ir.Global, b Binding) error {
	rule := ruleOf(g.Space)
	sc := scStorage(g.Space)
	if g.PushConstant {
		// [[vk::push_constant]]: a PushConstant Block laid out as DXC
		// lays push constants out (std430), without a descriptor.
		if g.Space != ir.SpaceUniform {
			return fmt.Errorf("push constants must be uniform (a constant buffer), not %s", g.Space)
		}
		if e.pushConstant != nil {
			return fmt.Errorf("a second push constant block (@%s has one): Vulkan allows one per entry point", e.pushConstant.Name())
		}
		e.pushConstant = g
		rule, sc = ruleStd430, SCPushConstant
	}
	gv := &gvar{g: g, sc: sc, rule: rule}
	t := g.ValType
	if t.Kind == ir.KArray && t.Len < 0 && rule != ruleStd430 {
		return fmt.Errorf("runtime-sized arrays are only allowed in storage buffers")
	}
	var root uint32
	var err error
	nmembers := 1
	ro := g.ReadOnly && g.Space == ir.SpaceStorage
	// Buffers of the same non-struct type share one wrapper Block struct
	// (as in DXC's output); a struct-typed buffer's struct is its Block.
	wkey := wrapKey{t, rule, ro}
	shared := false
	if t.Kind == ir.KStruct {
		root, err = e.structType(t, rule, true)
		nmembers = len(t.Fields)
	} else if root, shared = e.wrappers[wkey]; !shared {
		var mt uint32
		if mt, err = e.typeID(t, rule); err == nil {
			root = e.id()
			e.globals.inst(OpTypeStruct, root, mt)
			e.name(root, "type."+g.Name())
			e.memberName(root, 0, g.Name())
			e.annots.inst(OpMemberDecorate, root, 0, DecOffset, 0)
			err = e.matrixMember(root, 0, t, rule)
			e.wrappers[wkey] = root
		}
	}
	gv.wrapped = t.Kind != ir.KStruct
	if err != nil {
		return err
	}
	if !shared {
		e.annots.inst(OpDecorate, root, DecBlock)
		if ro {
			for i := 0; i < nmembers; i++ {
				e.annots.inst(OpMemberDecorate, root, uint32(i), DecNonWritable)
			}
		}
	}
	gv.root = root
	if g.ArrayLen == ir.UnboundedArray && !g.PushConstant {
		e.unboundedVar(gv, root, sc, b)
		return nil
	}
	if isArrayElement(g) {
		e.arrayElementVar(gv, root, sc, b)
		return nil
	}
	gv.id = e.id()
	e.globals.inst(OpVariable, e.pointerType(sc, root), gv.id, sc)
	e.name(gv.id, g.Name())
	if !g.PushConstant {
		e.annots.inst(OpDecorate, gv.id, DecDescriptorSet, uint32(b.Set))
		e.annots.inst(OpDecorate, gv.id, DecBinding, uint32(b.Binding))
	}
	e.gvars[g] = gv
	return nil
}

func (e *enc) plainVar(g *ir.Global) error {
	sc := scStorage(g.Space)
	tid, err := e.typeID(g.ValType, rulePlain)
	if err != nil {
		return err
	}
	gv := &gvar{g: g, sc: sc, id: e.id()}
	ops := []uint32{e.pointerType(sc, tid), gv.id, sc}
	if g.Init != nil && g.Space == ir.SpacePrivate {
		if err := checkConst(g.Init); err != nil {
			return err
		}
		if g.SpecID >= 0 {
			ops = append(ops, e.specConst(g))
		} else {
			ops = append(ops, e.constOf(g.Init))
		}
	} else if g.Space == ir.SpacePrivate {
		// HLSL statics without an initializer are zero (and the IR reads
		// them as zero); a Private variable without one is undefined.
		ops = append(ops, e.nullConst(tid))
	}
	e.globals.inst(OpVariable, ops...)
	e.name(gv.id, g.Name())
	e.gvars[g] = gv
	return nil
}

// hasBool reports whether t contains a bool anywhere.
func hasBool(t *ir.Type) bool {
	return t.Contains(func(u *ir.Type) bool { return u.Kind == ir.KBool })
}

// hasInt reports whether t is or contains an integer or a 64-bit float
// (the scalars a stage interface must mark Flat).
func hasInt(t *ir.Type) bool {
	return t.Contains(func(u *ir.Type) bool { return u.IsIntegral() || u.Kind == ir.KFloat && u.Bits == 64 })
}

// locationCount is the number of Locations a stage variable occupies.
func locationCount(t *ir.Type) int {
	switch t.Kind {
	case ir.KVector:
		if t.Elem.Bits == 64 && t.Len > 2 {
			return 2
		}
		return 1
	case ir.KMatrix:
		return t.Len * locationCount(rowType(t))
	case ir.KArray:
		return max(t.Len, 1) * locationCount(t.Elem)
	case ir.KStruct:
		n := 0
		for _, f := range t.Fields {
			n += locationCount(f.Type)
		}
		return n
	}
	return 1
}

func (e *enc) stageVar(g *ir.Global, stage ir.Stage, locs map[ir.AddrSpace]int) error {
	dir := "in"
	sc := uint32(SCInput)
	if g.Space == ir.SpaceOutput {
		dir, sc = "out", SCOutput
	}
	sem := strings.ToUpper(g.Semantic)
	gv := &gvar{g: g, sc: sc}
	if spec, ok := systemValues[stage.String()+" "+dir+" "+sem]; ok {
		if spec.builtin == BuiltInSampleID {
			e.capability(CapSampleRateShading)
		}
		if spec.cap != 0 {
			e.capability(spec.cap)
		}
		if spec.mode != 0 {
			e.depthMode = spec.mode
		}
		vt := g.ValType
		if !builtinCompatible(vt, spec.t) {
			if g.Space == ir.SpaceOutput {
				return fmt.Errorf("semantic %s needs type %s, not %s", g.Semantic, spec.t, vt)
			}
			if _, err := shadowConvertible(spec.t, vt); err != nil {
				return fmt.Errorf("semantic %s needs type %s: %v", g.Semantic, spec.t, err)
			}
			bv := e.builtinVar(spec.builtin, spec.t, "gl."+g.Name())
			tid, err := e.typeID(vt, rulePlain)
			if err != nil {
				return err
			}
			gv.id = e.id()
			gv.sc = SCPrivate
			e.globals.inst(OpVariable, e.pointerType(SCPrivate, tid), gv.id, SCPrivate)
			e.name(gv.id, g.Name())
			gv.iface = bv
			gv.shadow = &shadow{builtin: bv, bt: spec.t}
			e.gvars[g] = gv
			return nil
		}
		tid, err := e.typeID(vt, rulePlain)
		if err != nil {
			return err
		}
		gv.id = e.id()
		e.globals.inst(OpVariable, e.pointerType(sc, tid), gv.id, sc)
		e.name(gv.id, g.Name())
		e.annots.inst(OpDecorate, gv.id, DecBuiltIn, spec.builtin)
		if stage == ir.StagePixel && sc == SCInput && hasInt(vt) {
			e.annots.inst(OpDecorate, gv.id, DecFlat) // VUID-StandaloneSpirv-Flat-04744
		}
		e.builtins[spec.builtin] = gv.id
		gv.iface = gv.id
		e.gvars[g] = gv
		return nil
	}
	if sem == "SV_COVERAGE" && stage == ir.StagePixel && dir == "out" {
		return e.sampleMask(g, gv)
	}
	if (strings.HasPrefix(sem, "SV_CLIPDISTANCE") || strings.HasPrefix(sem, "SV_CULLDISTANCE")) && stage == ir.StageVertex && dir == "out" {
		return e.clipDistance(g, gv, sem[:len("SV_CLIPDISTANCE")])
	}
	// SV_Target outputs of pixel shaders and SV_Position inputs of vertex
	// shaders are ordinary Locations.
	if strings.HasPrefix(sem, "SV_") && !(strings.HasPrefix(sem, "SV_TARGET") && stage == ir.StagePixel && dir == "out") &&
		!(sem == "SV_POSITION" && stage == ir.StageVertex && dir == "in") {
		return fmt.Errorf("system-value semantic %s is not supported for a %s %sput in SPIR-V", g.Semantic, stage, dir)
	}
	if hasBool(g.ValType) {
		return fmt.Errorf("bool stage %sput (semantic %q): Vulkan interfaces cannot carry bools", dir, g.Semantic)
	}
	tid, err := e.typeID(g.ValType, rulePlain)
	if err != nil {
		return err
	}
	var loc int
	if strings.HasPrefix(sem, "SV_TARGET") {
		n := 0
		if rest := sem[len("SV_TARGET"):]; rest != "" {
			n, err = strconv.Atoi(rest)
			if err != nil || n < 0 || n > 7 {
				return fmt.Errorf("bad render target semantic %s", g.Semantic)
			}
		}
		loc = n
	} else if g.Location >= 0 {
		loc = g.Location // [[vk::location(n)]]
	} else {
		// The next free location after the explicit ones' (DXC rejects
		// mixing; passlens fills around them).
		loc = locs[g.Space]
		for e.explicitLoc(g.Space, loc, locationCount(g.ValType)) {
			loc++
		}
		locs[g.Space] = loc + locationCount(g.ValType)
	}
	gv.id = e.id()
	ops := []uint32{e.pointerType(sc, tid), gv.id, sc}
	if g.Init != nil && sc == SCOutput {
		if err := checkConst(g.Init); err != nil {
			return err
		}
		ops = append(ops, e.constOf(g.Init))
	}
	e.globals.inst(OpVariable, ops...)
	e.name(gv.id, g.Name())
	e.annots.inst(OpDecorate, gv.id, DecLocation, uint32(loc))
	if stage == ir.StagePixel && sc == SCInput && (g.Flat || hasInt(g.ValType)) {
		e.annots.inst(OpDecorate, gv.id, DecFlat)
	}
	gv.iface = gv.id
	e.gvars[g] = gv
	return nil
}

// builtinCompatible reports whether an IR type can declare a built-in of
// the required type directly (32-bit integers may differ in signedness).
func builtinCompatible(have, want *ir.Type) bool {
	if have == want {
		return true
	}
	if have.Lanes() != want.Lanes() || have.Kind == ir.KMatrix || have.Kind == ir.KArray || have.Kind == ir.KStruct {
		return false
	}
	hs, ws := have.Scalar(), want.Scalar()
	return hs.IsIntegral() && ws.IsIntegral() && hs.Bits == 32 && ws.Bits == 32
}

// shadowConvertible checks that a built-in of type bt can be converted to
// the IR type vt: the same scalar kind up to integer signedness, with vt
// taking the first components.
func shadowConvertible(bt, vt *ir.Type) (bool, error) {
	if vt.Kind != ir.KVector && !vt.IsScalar() {
		return false, fmt.Errorf("%s is not a scalar or vector", vt)
	}
	if vt.Lanes() > bt.Lanes() {
		return false, fmt.Errorf("%s has more components than %s", vt, bt)
	}
	hs, ws := vt.Scalar(), bt.Scalar()
	if hs == ws || (hs.IsIntegral() && ws.IsIntegral() && hs.Bits == ws.Bits) {
		return true, nil
	}
	return false, fmt.Errorf("%s and %s differ in scalar type", vt, bt)
}

// builtinVar returns the back end's own Input variable for a built-in
// (creating it on first use).
func (e *enc) builtinVar(b uint32, t *ir.Type, name string) uint32 {
	if id, ok := e.builtins[b]; ok {
		return id
	}
	tid := e.mustType(t, rulePlain)
	id := e.id()
	e.globals.inst(OpVariable, e.pointerType(SCInput, tid), id, SCInput)
	e.name(id, name)
	e.annots.inst(OpDecorate, id, DecBuiltIn, b)
	if e.onlyPixel && hasInt(t) {
		e.annots.inst(OpDecorate, id, DecFlat) // VUID-StandaloneSpirv-Flat-04744
	}
	e.builtins[b] = id
	return id
}

// sortedGlobals returns the keys of a global set in module order.
func (e *enc) sortedGlobals(s map[*ir.Global]bool) []*ir.Global {
	idx := map[*ir.Global]int{}
	for i, g := range e.m.Globals {
		idx[g] = i
	}
	out := make([]*ir.Global, 0, len(s))
	for g := range s {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return idx[out[i]] < idx[out[j]] })
	return out
}

// distComponents is the number of floats a clip/cull distance output
// holds (a float, a vector or an array of floats), or 0 if its type is
// not one of those.
func distComponents(t *ir.Type) int {
	switch {
	case t == ir.F32:
		return 1
	case t.Kind == ir.KVector && t.Elem == ir.F32:
		return t.Len
	case t.Kind == ir.KArray && t.Elem == ir.F32 && t.Len > 0:
		return t.Len
	}
	return 0
}

// clipDistance declares a vertex output SV_ClipDistanceN (or
// SV_CullDistanceN; kind is the semantic without the index) as a Private
// variable copied into the ClipDistance (CullDistance) built-in array at
// return. All outputs of a kind share one array: ordered by semantic
// index (then module order), each takes as many elements as it has
// floats, as DXC packs them.
func (e *enc) clipDistance(g *ir.Global, gv *gvar, kind string) error {
	type clip struct {
		g     *ir.Global
		index int
	}
	var clips []clip
	for _, o := range e.m.Globals {
		sem := strings.ToUpper(o.Semantic)
		rest, ok := strings.CutPrefix(sem, kind)
		if o.Space != ir.SpaceOutput || !ok {
			continue
		}
		n := 0
		if rest != "" {
			var err error
			if n, err = strconv.Atoi(rest); err != nil || n < 0 || n > 1 {
				return fmt.Errorf("bad clip distance semantic %s", o.Semantic)
			}
		}
		if distComponents(o.ValType) == 0 {
			return fmt.Errorf("semantic %s needs a float, a float vector or a float array, not %s", o.Semantic, o.ValType)
		}
		clips = append(clips, clip{o, n})
	}
	sort.SliceStable(clips, func(i, j int) bool { return clips[i].index < clips[j].index })
	offset, total := -1, 0
	for _, c := range clips {
		if c.g == g {
			offset = total
		}
		total += distComponents(c.g.ValType)
	}
	if total > 8 {
		return fmt.Errorf("%d %s components (at most 8)", total, kind)
	}
	builtin, cp, name := uint32(BuiltInClipDistance), uint32(CapClipDistance), "gl_ClipDistance"
	if kind == "SV_CULLDISTANCE" {
		builtin, cp, name = BuiltInCullDistance, CapCullDistance, "gl_CullDistance"
	}
	bi, ok := e.builtins[builtin]
	if !ok {
		e.capability(cp)
		at, err := e.typeID(ir.Array(ir.F32, total), rulePlain)
		if err != nil {
			return err
		}
		bi = e.id()
		e.globals.inst(OpVariable, e.pointerType(SCOutput, at), bi, SCOutput)
		e.name(bi, name)
		e.annots.inst(OpDecorate, bi, DecBuiltIn, builtin)
		e.builtins[builtin] = bi
	}
	tid, err := e.typeID(g.ValType, rulePlain)
	if err != nil {
		return err
	}
	gv.id, gv.sc = e.id(), SCPrivate
	e.globals.inst(OpVariable, e.pointerType(SCPrivate, tid), gv.id, SCPrivate, e.nullConst(tid))
	e.name(gv.id, g.Name())
	gv.iface = bi
	gv.out = &outShadow{builtin: bi, offset: offset, elem: ir.F32}
	e.gvars[g] = gv
	return nil
}

// sampleMask declares the pixel output SV_Coverage (a 32-bit integer) as
// a Private variable copied into SampleMask[0] at return.
func (e *enc) sampleMask(g *ir.Global, gv *gvar) error {
	if t := g.ValType; !t.IsScalar() || !t.IsIntegral() || t.Bits != 32 {
		return fmt.Errorf("semantic %s needs a 32-bit integer, not %s", g.Semantic, t)
	}
	at, err := e.typeID(ir.Array(ir.I32, 1), rulePlain)
	if err != nil {
		return err
	}
	bi := e.id()
	e.globals.inst(OpVariable, e.pointerType(SCOutput, at), bi, SCOutput)
	e.name(bi, "gl_SampleMask")
	e.annots.inst(OpDecorate, bi, DecBuiltIn, BuiltInSampleMask)
	tid := e.mustType(g.ValType, rulePlain)
	gv.id, gv.sc = e.id(), SCPrivate
	e.globals.inst(OpVariable, e.pointerType(SCPrivate, tid), gv.id, SCPrivate, e.nullConst(tid))
	e.name(gv.id, g.Name())
	gv.iface = bi
	gv.out = &outShadow{builtin: bi, elem: ir.I32}
	e.gvars[g] = gv
	return nil
}

// specConst declares the specialization constant of a private global
// with a SpecId ([[vk::constant_id(n)]]): OpSpecConstant (or
// OpSpecConstantTrue/False) holding the default, decorated SpecId n. It
// initializes the Private variable the IR reads, so a pipeline's
// specialization reaches every load.
func (e *enc) specConst(g *ir.Global) uint32 {
	t := g.ValType
	tid := e.mustType(t, rulePlain)
	id := e.id()
	bits := g.Init.Bits
	switch {
	case t.Kind == ir.KBool && bits != 0:
		e.globals.inst(OpSpecConstantTrue, tid, id)
	case t.Kind == ir.KBool:
		e.globals.inst(OpSpecConstantFalse, tid, id)
	case t.Bits == 64:
		e.globals.inst(OpSpecConstant, tid, id, uint32(bits), uint32(bits>>32))
	default:
		e.globals.inst(OpSpecConstant, tid, id, uint32(bits))
	}
	e.name(id, g.Name()+".default")
	e.annots.inst(OpDecorate, id, DecSpecID, uint32(g.SpecID))
	return id
}

// explicitLoc reports whether locations [loc, loc+n) of space overlap a
// stage variable with an explicit [[vk::location]].
func (e *enc) explicitLoc(space ir.AddrSpace, loc, n int) bool {
	for _, g := range e.m.Globals {
		if g.Space == space && g.Location >= 0 && g.Location < loc+n && loc < g.Location+locationCount(g.ValType) {
			return true
		}
	}
	return false
}
