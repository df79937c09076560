package spvread

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// This file builds the module-level part of passlens IR from the
// instructions: names, decorations, entry points, types, constants and
// global variables. Function bodies are func.go.

// dec is one decoration: its name and operands.
type dec struct {
	name string
	args []operand
}

// gvar is a module-level OpVariable.
type gvar struct {
	g *ir.Global
	// unwrapped: the variable's type is a Block struct of one member,
	// and the global is that member (as passlens's back end wraps
	// non-struct buffers): access chains drop their first index.
	unwrapped bool
	wrapper   *ir.Type // the Block struct, when unwrapped
	// builtin is a Subgroup built-in read by wave intrinsics instead of
	// a global (SubgroupLocalInvocationId, SubgroupSize).
	builtin string
}

// fnType is an OpTypeFunction.
type fnType struct {
	ret    *ir.Type
	params []*ir.Type
}

type reader struct {
	file    string
	insts   []inst
	m       *ir.Module
	idNames bool // Options.IDNames

	names       map[string]string
	memberNames map[string]map[int]string
	decs        map[string][]dec
	memberDecs  map[string]map[int][]dec
	types       map[string]*ir.Type
	fnTypes     map[string]fnType
	pointee     map[string]string // pointer type id -> pointee type id
	consts      map[string]*ir.Const
	globals     map[string]*gvar
	funcs       map[string]*ir.Function
	extSets     map[string]string
	entries     map[string]*entryInfo
	fragment    bool // the module has a Fragment entry point
	structNames map[string]bool
}

type entryInfo struct {
	model, name string
	local       [3]int
}

func (r *reader) errAt(p Pos, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if p.Line == 0 {
		return &Error{File: r.file, Pos: p, Msg: msg}
	}
	return &locErr{p, msg}
}

// build turns the instructions into a module.
func (r *reader) build() (*ir.Module, error) {
	r.m = ir.NewModule(r.file)
	r.names = map[string]string{}
	r.memberNames = map[string]map[int]string{}
	r.decs = map[string][]dec{}
	r.memberDecs = map[string]map[int][]dec{}
	r.types = map[string]*ir.Type{}
	r.fnTypes = map[string]fnType{}
	r.pointee = map[string]string{}
	r.consts = map[string]*ir.Const{}
	r.globals = map[string]*gvar{}
	r.funcs = map[string]*ir.Function{}
	r.extSets = map[string]string{}
	r.entries = map[string]*entryInfo{}
	r.structNames = map[string]bool{}

	// Debug names, decorations and entry points come first in a valid
	// module, but collect them in a pass of their own so that order
	// does not matter here.
	for i := range r.insts {
		in := &r.insts[i]
		a := in.args
		switch in.op {
		case "OpName":
			if len(a) >= 2 {
				r.names[a[0].s] = a[1].s
			}
		case "OpMemberName":
			if len(a) >= 3 {
				n, _ := a[1].uint()
				if r.memberNames[a[0].s] == nil {
					r.memberNames[a[0].s] = map[int]string{}
				}
				r.memberNames[a[0].s][int(n)] = a[2].s
			}
		case "OpDecorate", "OpDecorateId":
			if len(a) >= 2 {
				r.decs[a[0].s] = append(r.decs[a[0].s], dec{a[1].s, a[2:]})
			}
		case "OpMemberDecorate":
			if len(a) >= 3 {
				n, _ := a[1].uint()
				if r.memberDecs[a[0].s] == nil {
					r.memberDecs[a[0].s] = map[int][]dec{}
				}
				r.memberDecs[a[0].s][int(n)] = append(r.memberDecs[a[0].s][int(n)], dec{a[2].s, a[3:]})
			}
		case "OpEntryPoint":
			if len(a) < 3 {
				return nil, r.errAt(in.pos, "OpEntryPoint needs a model, a function and a name")
			}
			r.entries[a[1].s] = &entryInfo{model: a[0].s, name: a[2].s}
			if a[0].s == "Fragment" {
				r.fragment = true
			}
		case "OpExtInstImport":
			if len(a) >= 1 {
				r.extSets[in.res] = a[0].s
			}
		}
	}
	// Module-level declarations, in order, up to the first function.
	first := len(r.insts)
	for i := range r.insts {
		in := &r.insts[i]
		if in.op == "OpFunction" {
			first = i
			break
		}
		if err := r.declare(in); err != nil {
			return nil, err
		}
	}
	for i := range r.insts {
		in := &r.insts[i]
		if in.op == "OpExecutionMode" || in.op == "OpExecutionModeId" {
			if err := r.execMode(in); err != nil {
				return nil, err
			}
		}
	}
	if err := r.functions(first); err != nil {
		return nil, err
	}
	return r.m, nil
}

func (r *reader) execMode(in *inst) error {
	a := in.args
	if len(a) < 2 {
		return r.errAt(in.pos, "%s needs a function and a mode", in.op)
	}
	e := r.entries[a[0].s]
	if e == nil || (a[1].s != "LocalSize" && a[1].s != "LocalSizeId") {
		return nil
	}
	if len(a) < 5 {
		return r.errAt(in.pos, "%s needs three sizes", a[1].s)
	}
	for k := 0; k < 3; k++ {
		var v uint64
		ok := false
		if a[1].s == "LocalSize" {
			v, ok = a[2+k].uint()
		} else if c := r.consts[a[2+k].s]; c != nil && c.Type().IsIntegral() {
			v, ok = uint64(c.Int()), true
		}
		if !ok {
			return r.errAt(a[2+k].pos, "workgroup size %q is not a number", a[2+k].s)
		}
		e.local[k] = int(v)
	}
	return nil
}

// name returns the OpName of id, else the id itself (always the id
// with Options.IDNames).
func (r *reader) name(id string) string {
	if r.idNames {
		return id
	}
	if n, ok := r.names[id]; ok && n != "" {
		return n
	}
	return id
}

func (r *reader) hasDec(id, name string) (dec, bool) {
	for _, d := range r.decs[id] {
		if d.name == name {
			return d, true
		}
	}
	return dec{}, false
}

// typ returns the IR type of a type id.
func (r *reader) typ(o operand) (*ir.Type, error) {
	t, ok := r.types[o.s]
	if !ok {
		return nil, r.errAt(o.pos, "%%%s is not a type", o.s)
	}
	return t, nil
}

func (r *reader) typeOf(in *inst) (*ir.Type, error) {
	t, ok := r.types[in.typ]
	if !ok {
		return nil, r.errAt(in.pos, "result type %%%s of %s is not a type", in.typ, in.op)
	}
	return t, nil
}

func (r *reader) need(in *inst, n int) error {
	if len(in.args) < n {
		return r.errAt(in.pos, "%s needs %d operands, has %d", in.op, n, len(in.args))
	}
	return nil
}

// opaqueType stands for a SPIR-V type passlens lacks (images, samplers):
// an empty struct named after the opcode.
func opaqueType(op string) *ir.Type { return ir.Struct("spirv:"+strings.TrimPrefix(op, "Op"), nil) }

// declare reads one module-level instruction.
func (r *reader) declare(in *inst) error {
	a := in.args
	switch in.op {
	case "OpTypeVoid":
		r.types[in.res] = ir.Void
	case "OpTypeBool":
		r.types[in.res] = ir.Bool
	case "OpTypeInt":
		if err := r.need(in, 2); err != nil {
			return err
		}
		w, _ := a[0].uint()
		s, _ := a[1].uint()
		var t *ir.Type
		switch {
		case w == 32 && s == 0:
			t = ir.U32
		case w == 64 && s == 0:
			t = ir.U64
		default:
			t = ir.IntType(int(w))
		}
		if t == nil || t == ir.Bool {
			t = opaqueType(fmt.Sprintf("TypeInt%d", w))
		}
		r.types[in.res] = t
	case "OpTypeFloat":
		if err := r.need(in, 1); err != nil {
			return err
		}
		w, _ := a[0].uint()
		switch w {
		case 16:
			r.types[in.res] = ir.F16
		case 32:
			r.types[in.res] = ir.F32
		case 64:
			r.types[in.res] = ir.F64
		default:
			r.types[in.res] = opaqueType(fmt.Sprintf("TypeFloat%d", w))
		}
	case "OpTypeVector":
		if err := r.need(in, 2); err != nil {
			return err
		}
		el, err := r.typ(a[0])
		if err != nil {
			return err
		}
		n, _ := a[1].uint()
		r.types[in.res] = ir.Vec(el, int(n))
	case "OpTypeMatrix":
		// SPIR-V's columns are the IR's rows (docs/ir.md: a matrix
		// value is its rows).
		if err := r.need(in, 2); err != nil {
			return err
		}
		col, err := r.typ(a[0])
		if err != nil {
			return err
		}
		n, _ := a[1].uint()
		if col.Kind != ir.KVector {
			return r.errAt(a[0].pos, "matrix column type %%%s is not a vector", a[0].s)
		}
		r.types[in.res] = ir.Mat(col.Elem, int(n), col.Len)
	case "OpTypeArray":
		if err := r.need(in, 2); err != nil {
			return err
		}
		el, err := r.typ(a[0])
		if err != nil {
			return err
		}
		c := r.consts[a[1].s]
		if c == nil || !c.Type().IsIntegral() {
			return r.errAt(a[1].pos, "array length %%%s is not an integer constant", a[1].s)
		}
		r.types[in.res] = ir.Array(el, int(c.Int()))
	case "OpTypeRuntimeArray":
		if err := r.need(in, 1); err != nil {
			return err
		}
		el, err := r.typ(a[0])
		if err != nil {
			return err
		}
		r.types[in.res] = ir.Array(el, -1)
	case "OpTypeStruct":
		var fields []ir.Field
		for i, o := range a {
			ft, err := r.typ(o)
			if err != nil {
				return err
			}
			n := r.memberNames[in.res][i]
			if n == "" {
				n = "m" + strconv.Itoa(i)
			}
			fields = append(fields, ir.Field{Name: n, Type: ft})
		}
		base := in.res
		if on := r.names[in.res]; on != "" {
			base = on
		}
		n := base
		for k := 1; r.structNames[n]; k++ {
			n = base + "." + strconv.Itoa(k)
		}
		r.structNames[n] = true
		t := ir.Struct(n, fields)
		r.m.AddStruct(t)
		r.types[in.res] = t
	case "OpTypePointer":
		if err := r.need(in, 2); err != nil {
			return err
		}
		el, ok := r.types[a[1].s]
		if !ok {
			// A forward pointer (OpTypeForwardPointer): opaque.
			el = opaqueType("TypeForwardPointer")
		}
		r.pointee[in.res] = a[1].s
		r.types[in.res] = ir.Ptr(spaceOf(a[0].s), el)
	case "OpTypeFunction":
		if err := r.need(in, 1); err != nil {
			return err
		}
		var ft fnType
		var err error
		if ft.ret, err = r.typ(a[0]); err != nil {
			return err
		}
		for _, o := range a[1:] {
			pt, err := r.typ(o)
			if err != nil {
				return err
			}
			ft.params = append(ft.params, pt)
		}
		r.fnTypes[in.res] = ft
	case "OpConstantTrue", "OpConstantFalse", "OpSpecConstantTrue", "OpSpecConstantFalse":
		t, err := r.typeOf(in)
		if err != nil {
			return err
		}
		r.consts[in.res] = ir.ConstBool(t, strings.HasSuffix(in.op, "True"))
	case "OpConstant", "OpSpecConstant":
		t, err := r.typeOf(in)
		if err != nil {
			return err
		}
		if err := r.need(in, 1); err != nil {
			return err
		}
		c, err := r.scalarConst(t, a[0])
		if err != nil {
			return err
		}
		r.consts[in.res] = c
	case "OpConstantComposite", "OpSpecConstantComposite":
		t, err := r.typeOf(in)
		if err != nil {
			return err
		}
		var elems []*ir.Const
		for _, o := range a {
			c, ok := r.consts[o.s]
			if !ok {
				return r.errAt(o.pos, "%%%s is not a constant", o.s)
			}
			elems = append(elems, c)
		}
		r.consts[in.res] = ir.ConstAggregate(t, elems)
	case "OpConstantNull":
		t, err := r.typeOf(in)
		if err != nil {
			return err
		}
		r.consts[in.res] = ir.ConstZero(t)
	case "OpUndef", "OpSpecConstantOp":
		// A spec-constant operation is kept as an undefined value of its
		// type: passlens does not evaluate specialization.
		t, err := r.typeOf(in)
		if err != nil {
			return err
		}
		r.consts[in.res] = ir.ConstUndef(t)
	case "OpVariable":
		return r.variable(in)
	default:
		switch {
		case in.res == "":
		case strings.HasPrefix(in.op, "OpType"):
			r.types[in.res] = opaqueType(in.op)
		case strings.HasPrefix(in.op, "OpConstant") || strings.HasPrefix(in.op, "OpSpecConstant"):
			// A constant kind the reader does not know: undefined.
			t, err := r.typeOf(in)
			if err != nil {
				return err
			}
			r.consts[in.res] = ir.ConstUndef(t)
		case in.op == "OpExtInstImport" || in.op == "OpString" || in.op == "OpDecorationGroup" ||
			strings.HasPrefix(in.op, "OpUnknown"):
		default:
			return r.errAt(in.pos, "%s outside a function", in.op)
		}
	}
	return nil
}

// spaceOf maps a storage class to an IR address space.
func spaceOf(sc string) ir.AddrSpace {
	switch sc {
	case "StorageBuffer", "PhysicalStorageBuffer", "CrossWorkgroup":
		return ir.SpaceStorage
	case "Uniform", "UniformConstant", "PushConstant":
		return ir.SpaceUniform
	case "Workgroup":
		return ir.SpaceGroupshared
	case "Function":
		return ir.SpaceFunction
	case "Input":
		return ir.SpaceInput
	case "Output":
		return ir.SpaceOutput
	}
	return ir.SpacePrivate
}

// builtinSemantics maps SPIR-V built-ins to the IR's semantics (the
// inverse of the SPIR-V back end's table).
var builtinSemantics = map[string]string{
	"GlobalInvocationId": "SV_DispatchThreadID", "LocalInvocationId": "SV_GroupThreadID",
	"WorkgroupId": "SV_GroupID", "LocalInvocationIndex": "SV_GroupIndex",
	"FragCoord": "SV_Position", "FrontFacing": "SV_IsFrontFace", "SampleId": "SV_SampleIndex",
	"FragDepth": "SV_Depth", "VertexIndex": "SV_VertexID", "InstanceIndex": "SV_InstanceID",
	"Position": "SV_Position", "Layer": "SV_RenderTargetArrayIndex", "ViewportIndex": "SV_ViewportArrayIndex",
	"SampleMask": "SV_Coverage",
}

// subgroupBuiltins are read by wave intrinsics, not through globals.
var subgroupBuiltins = map[string]string{
	"SubgroupLocalInvocationId": "WaveGetLaneIndex", "SubgroupSize": "WaveGetLaneCount",
}

func (r *reader) variable(in *inst) error {
	if err := r.need(in, 1); err != nil {
		return err
	}
	pt, err := r.typeOf(in)
	if err != nil {
		return err
	}
	if pt.Kind != ir.KPointer {
		return r.errAt(in.pos, "OpVariable's type %%%s is not a pointer", in.typ)
	}
	gv := &gvar{}
	if d, ok := r.hasDec(in.res, "BuiltIn"); ok && len(d.args) > 0 {
		if intr, ok := subgroupBuiltins[d.args[0].s]; ok {
			gv.builtin = intr
			r.globals[in.res] = gv
			return nil
		}
	}
	space := spaceOf(a0(in))
	vt := pt.Elem
	if space == ir.SpaceUniform && vt.Kind == ir.KStruct {
		// GLSL's old-style storage buffers: Uniform + BufferBlock.
		if _, ok := r.hasDec(r.pointeeID(in.typ), "BufferBlock"); ok {
			space = ir.SpaceStorage
		}
	}
	if (space == ir.SpaceStorage || space == ir.SpaceUniform) && vt.Kind == ir.KStruct && len(vt.Fields) == 1 &&
		vt.Fields[0].Type.Kind != ir.KStruct {
		gv.unwrapped, gv.wrapper, vt = true, vt, vt.Fields[0].Type
	}
	name := r.name(in.res)
	if on := r.names[in.res]; on == "" && !r.idNames && pt.Elem.Kind == ir.KStruct {
		name = pt.Elem.Name // an anonymous block instance: its block's name
	}
	if r.m.Global(name) != nil {
		name = name + "." + in.res
	}
	g := ir.NewGlobal(name, space, vt)
	if d, ok := r.hasDec(in.res, "DescriptorSet"); ok && len(d.args) > 0 {
		v, _ := d.args[0].uint()
		g.Set = int(v)
	}
	if d, ok := r.hasDec(in.res, "Binding"); ok && len(d.args) > 0 {
		v, _ := d.args[0].uint()
		g.Binding = int(v)
	}
	if _, ok := r.hasDec(in.res, "Flat"); ok {
		g.Flat = true
	}
	if d, ok := r.hasDec(in.res, "BuiltIn"); ok && len(d.args) > 0 {
		g.Semantic = builtinSemantics[d.args[0].s]
		if g.Semantic == "" {
			g.Semantic = d.args[0].s
		}
		if d.args[0].s == "FragDepth" {
			g.Semantic = r.depthSemantic()
		}
	} else if d, ok := r.hasDec(in.res, "Location"); ok && len(d.args) > 0 && space == ir.SpaceOutput && r.fragment {
		g.Semantic = "SV_Target" + d.args[0].s
	}
	if len(in.args) > 1 {
		c, ok := r.consts[in.args[1].s]
		if !ok {
			return r.errAt(in.args[1].pos, "initializer %%%s is not a constant", in.args[1].s)
		}
		if !gv.unwrapped {
			g.Init = c
		}
	}
	gv.g = g
	r.m.AddGlobal(g)
	r.globals[in.res] = gv
	return nil
}

// depthSemantic names FragDepth by the module's depth execution mode
// (DepthGreater is SV_DepthGreaterEqual, DepthLess SV_DepthLessEqual).
func (r *reader) depthSemantic() string {
	for i := range r.insts {
		in := &r.insts[i]
		if in.op == "OpExecutionMode" && len(in.args) > 1 {
			switch in.args[1].s {
			case "DepthGreater":
				return "SV_DepthGreaterEqual"
			case "DepthLess":
				return "SV_DepthLessEqual"
			}
		}
	}
	return "SV_Depth"
}

func a0(in *inst) string { return in.args[0].s }

// pointeeID finds the pointee type id of pointer type id p.
func (r *reader) pointeeID(p string) string { return r.pointee[p] }

// scalarConst reads an OpConstant literal of type t.
func (r *reader) scalarConst(t *ir.Type, o operand) (*ir.Const, error) {
	switch t.Kind {
	case ir.KInt, ir.KUint:
		v, ok := o.uint()
		if !ok {
			return nil, r.errAt(o.pos, "%q is not an integer", o.s)
		}
		if t.Bits < 64 && o.w == nil && strings.HasPrefix(o.s, "-") {
			v &= 1<<uint(t.Bits) - 1
		}
		return ir.ConstInt(t, int64(v)), nil
	case ir.KFloat:
		if o.w != nil {
			v, _ := o.uint()
			if t.Bits == 32 {
				return ir.ConstF32Bits(uint32(v)), nil
			}
			return ir.ConstFloatBits(t, v), nil
		}
		bits, ok := floatBits(o.s, t.Bits)
		if !ok {
			return nil, r.errAt(o.pos, "%q is not a %d-bit float", o.s, t.Bits)
		}
		if t.Bits == 32 {
			return ir.ConstF32Bits(uint32(bits)), nil
		}
		return ir.ConstFloatBits(t, bits), nil
	}
	return ir.ConstUndef(t), nil
}

// floatBits parses a float literal as spirv-dis prints it (decimal or a
// hex float, NaNs and infinities as hex floats with the maximum
// exponent) into an IEEE bit pattern of the given width.
func floatBits(s string, width int) (uint64, bool) {
	mant, exp := 23, 8
	switch width {
	case 16:
		mant, exp = 10, 5
	case 64:
		mant, exp = 52, 11
	}
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	sign := uint64(0)
	if neg {
		sign = 1 << uint(width-1)
	}
	if strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X") {
		if i := strings.IndexAny(body, "pP"); i > 0 {
			e, err := strconv.Atoi(body[i+1:])
			if err == nil && e == 1<<(exp-1) {
				// Infinity or NaN: 0x1.<payload>p+MAX.
				frac := strings.TrimPrefix(strings.TrimPrefix(body[2:i], "1"), ".")
				payload := new(big.Int)
				if frac != "" {
					payload.SetString(frac, 16)
					payload.Lsh(payload, uint(mant)).Rsh(payload, uint(4*len(frac)))
				}
				return sign | (1<<uint(exp)-1)<<uint(mant) | payload.Uint64(), true
			}
		}
	}
	switch width {
	case 32:
		f, err := strconv.ParseFloat(body, 32)
		if err != nil {
			return 0, false
		}
		return sign | uint64(math.Float32bits(float32(f))), true
	case 64:
		f, err := strconv.ParseFloat(body, 64)
		if err != nil {
			return 0, false
		}
		return sign | math.Float64bits(f), true
	case 16:
		f, err := strconv.ParseFloat(body, 32)
		if err != nil {
			return 0, false
		}
		return sign | uint64(f32ToF16(float32(f))), true
	}
	return 0, false
}

// f32ToF16 converts exactly representable halves (what a disassembler
// prints for a 16-bit literal) to their bits.
func f32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	e := int(b>>23&0xFF) - 127 + 15
	m := b & 0x7FFFFF
	switch {
	case b&0x7FFFFFFF == 0:
		return 0
	case e >= 31:
		return 0x7C00
	case e <= 0:
		return uint16((m | 0x800000) >> uint(14-e))
	}
	return uint16(e)<<10 | uint16(m>>13)
}
