package spirv

import (
	"fmt"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// This file declares types and constants. Types are cached per (IR type,
// layout rule): values in Function, Private, Workgroup, Input and Output
// memory and in registers use the plain types; values in buffers use
// explicitly laid out copies (Offset on struct members, ArrayStride on
// arrays, bools as uint, matrices as arrays of row vectors), so that no
// layout decoration ever reaches a type used outside a buffer. Scalars and
// vectors are shared between the two.

// scStorage maps an IR address space to a storage class.
func scStorage(s ir.AddrSpace) uint32 {
	switch s {
	case ir.SpaceFunction:
		return SCFunction
	case ir.SpacePrivate:
		return SCPrivate
	case ir.SpaceUniform:
		return SCUniform
	case ir.SpaceGroupshared:
		return SCWorkgroup
	case ir.SpaceStorage:
		return SCStorageBuffer
	case ir.SpaceInput:
		return SCInput
	case ir.SpaceOutput:
		return SCOutput
	}
	return SCPrivate
}

// isSPIRVMatrix reports whether an IR matrix maps to OpTypeMatrix (a float
// matrix with at least 2 rows and 2 columns); other matrices are arrays
// of rows. In buffers the same OpTypeMatrix is used, its struct member
// decorated ColMajor with the row stride as MatrixStride (matrixMember).
func isSPIRVMatrix(t *ir.Type, rule layoutRule) bool {
	return t.Kind == ir.KMatrix && t.Elem.Kind == ir.KFloat && t.Len >= 2 && t.Cols >= 2
}

// matrixMember decorates member i of struct id when its type is an
// OpTypeMatrix or an array of them: ColMajor (SPIR-V's columns are the
// IR's rows, which are contiguous) and MatrixStride (the row stride).
func (e *enc) matrixMember(id uint32, i int, t *ir.Type, rule layoutRule) error {
	for t.Kind == ir.KArray {
		t = t.Elem
	}
	if rule == rulePlain || !isSPIRVMatrix(t, rule) {
		return nil
	}
	l, err := arrayLayout(rowType(t), t.Len, rule)
	if err != nil {
		return err
	}
	e.annots.inst(OpMemberDecorate, id, uint32(i), DecColMajor)
	e.annots.inst(OpMemberDecorate, id, uint32(i), DecMatrixStride, uint32(l.Stride))
	return nil
}

// rowType is the IR type of one row of a matrix.
func rowType(t *ir.Type) *ir.Type { return ir.Vec(t.Elem, t.Cols) }

// typeID returns the SPIR-V type of t under rule, declaring it on first use.
func (e *enc) typeID(t *ir.Type, rule layoutRule) (uint32, error) {
	if s := t.Scalar(); s.Bits == 16 && (s.Kind == ir.KInt || s.Kind == ir.KUint || s.Kind == ir.KFloat) && rule != rulePlain {
		// 16-bit values in buffer memory (SPV_KHR_16bit_storage).
		if rule == ruleStd140 {
			e.capability(CapUniformAndStorageBuffer16)
		} else {
			e.capability(CapStorageBuffer16BitAccess)
		}
	}
	if t.IsScalar() || t.Kind == ir.KVoid || t.Kind == ir.KVector {
		if t.Kind == ir.KBool && rule != rulePlain {
			t = ir.U32
		} else if t.Kind == ir.KVector && t.Elem.Kind == ir.KBool && rule != rulePlain {
			t = ir.Vec(ir.U32, t.Len)
		}
		rule = rulePlain
	}
	key := typeKey{t, rule}
	if id, ok := e.types[key]; ok {
		return id, nil
	}
	var id uint32
	switch t.Kind {
	case ir.KVoid:
		id = e.id()
		e.globals.inst(OpTypeVoid, id)
	case ir.KBool:
		id = e.id()
		e.globals.inst(OpTypeBool, id)
	case ir.KInt, ir.KUint:
		switch t.Bits {
		case 8:
			e.capability(CapInt8)
		case 16:
			e.capability(CapInt16)
		case 32:
		case 64:
			e.capability(CapInt64)
		default:
			return 0, fmt.Errorf("type %s has no SPIR-V equivalent", t)
		}
		id = e.id()
		signed := uint32(0)
		if t.Kind == ir.KInt {
			signed = 1
		}
		e.globals.inst(OpTypeInt, id, uint32(t.Bits), signed)
	case ir.KFloat:
		if t.Name != "" {
			return 0, fmt.Errorf("type %s has no SPIR-V equivalent", t)
		}
		switch t.Bits {
		case 16:
			e.capability(CapFloat16)
		case 32:
		case 64:
			e.capability(CapFloat64)
		default:
			return 0, fmt.Errorf("type %s has no SPIR-V equivalent", t)
		}
		id = e.id()
		e.globals.inst(OpTypeFloat, id, uint32(t.Bits))
	case ir.KVector:
		el, err := e.typeID(t.Elem, rulePlain)
		if err != nil {
			return 0, err
		}
		id = e.id()
		e.globals.inst(OpTypeVector, id, el, uint32(t.Len))
	case ir.KMatrix:
		if isSPIRVMatrix(t, rule) && rule != rulePlain {
			var err error
			if id, err = e.typeID(t, rulePlain); err != nil {
				return 0, err
			}
			break
		}
		if isSPIRVMatrix(t, rule) {
			col, err := e.typeID(rowType(t), rulePlain)
			if err != nil {
				return 0, err
			}
			id = e.id()
			e.globals.inst(OpTypeMatrix, id, col, uint32(t.Len))
			break
		}
		var err error
		if id, err = e.arrayType(rowType(t), t.Len, rule); err != nil {
			return 0, err
		}
	case ir.KArray:
		var err error
		if id, err = e.arrayType(t.Elem, t.Len, rule); err != nil {
			return 0, err
		}
	case ir.KStruct:
		var err error
		if id, err = e.structType(t, rule, false); err != nil {
			return 0, err
		}
	case ir.KPointer:
		pr := ruleOf(t.Space)
		el, err := e.typeID(t.Elem, pr)
		if err != nil {
			return 0, err
		}
		id = e.pointerType(scStorage(t.Space), el)
	default:
		return 0, fmt.Errorf("type %s has no SPIR-V equivalent", t)
	}
	e.types[key] = id
	return id, nil
}

// mustType is typeID for types already known to be representable.
func (e *enc) mustType(t *ir.Type, rule layoutRule) uint32 {
	id, err := e.typeID(t, rule)
	if err != nil {
		panic(err)
	}
	return id
}

// pointerType returns OpTypePointer sc pointee.
func (e *enc) pointerType(sc, pointee uint32) uint32 {
	key := "ptr:" + strconv.Itoa(int(sc)) + ":" + strconv.Itoa(int(pointee))
	if id, ok := e.consts[key]; ok {
		return id
	}
	id := e.id()
	e.globals.inst(OpTypePointer, id, sc, pointee)
	e.consts[key] = id
	return id
}

// arrayType declares an array (n >= 0) or runtime array (n < 0) of elem;
// laid-out arrays get their ArrayStride.
func (e *enc) arrayType(elem *ir.Type, n int, rule layoutRule) (uint32, error) {
	if n < 0 && rule == rulePlain {
		return 0, fmt.Errorf("runtime-sized array [? x %s] outside a storage buffer", elem)
	}
	el, err := e.typeID(elem, rule)
	if err != nil {
		return 0, err
	}
	id := e.id()
	if n < 0 {
		e.globals.inst(OpTypeRuntimeArray, id, el)
	} else {
		e.globals.inst(OpTypeArray, id, el, e.uintConst(uint32(n)))
	}
	if rule != rulePlain {
		l, err := arrayLayout(elem, n, rule)
		if err != nil {
			return 0, err
		}
		e.annots.inst(OpDecorate, id, DecArrayStride, uint32(l.Stride))
	}
	return id, nil
}

// structType declares t's members under rule. fresh makes a new struct
// (the Block root of one buffer variable) rather than the cached one.
func (e *enc) structType(t *ir.Type, rule layoutRule, fresh bool) (uint32, error) {
	members := make([]uint32, len(t.Fields))
	for i, f := range t.Fields {
		if f.Type.Kind == ir.KArray && f.Type.Len < 0 && (rule != ruleStd430 || !fresh) {
			return 0, fmt.Errorf("struct %s with runtime-sized member %s is only allowed as a storage buffer's type", t, f.Name)
		}
		id, err := e.typeID(f.Type, rule)
		if err != nil {
			return 0, err
		}
		members[i] = id
	}
	id := e.id()
	e.globals.inst(OpTypeStruct, append([]uint32{id}, members...)...)
	e.name(id, t.Name)
	for i, f := range t.Fields {
		e.memberName(id, i, f.Name)
	}
	if rule != rulePlain {
		l, err := typeLayout(t, rule)
		if err != nil {
			return 0, err
		}
		for i, f := range t.Fields {
			e.annots.inst(OpMemberDecorate, id, uint32(i), DecOffset, uint32(l.Offsets[i]))
			if err := e.matrixMember(id, i, f.Type, rule); err != nil {
				return 0, err
			}
		}
	}
	return id, nil
}

// ---- constants ----

func (e *enc) scalarConst(t *ir.Type, bits uint64) uint32 {
	tid := e.mustType(t, rulePlain)
	if t.Bits < 64 {
		bits &= 1<<uint(t.Bits) - 1
	}
	key := "c:" + strconv.Itoa(int(tid)) + ":" + strconv.FormatUint(bits, 16)
	if id, ok := e.consts[key]; ok {
		return id
	}
	id := e.id()
	switch {
	case t.Kind == ir.KBool && bits != 0:
		e.globals.inst(OpConstantTrue, tid, id)
	case t.Kind == ir.KBool:
		e.globals.inst(OpConstantFalse, tid, id)
	case t.Bits == 64:
		e.globals.inst(OpConstant, tid, id, uint32(bits), uint32(bits>>32))
	default:
		w := uint32(bits)
		if t.Bits < 32 {
			w &= 1<<uint(t.Bits) - 1
			if t.Kind == ir.KInt && w>>(uint(t.Bits)-1)&1 != 0 {
				w |= ^uint32(0) << uint(t.Bits) // signed: sign-extend
			}
		}
		e.globals.inst(OpConstant, tid, id, w)
	}
	e.consts[key] = id
	return id
}

func (e *enc) uintConst(v uint32) uint32 { return e.scalarConst(ir.U32, uint64(v)) }
func (e *enc) intConst(v int32) uint32   { return e.scalarConst(ir.I32, uint64(uint32(v))) }

// undef returns OpUndef of a type id.
func (e *enc) undef(tid uint32) uint32 {
	if id, ok := e.undefs[tid]; ok {
		return id
	}
	id := e.id()
	e.globals.inst(OpUndef, tid, id)
	e.undefs[tid] = id
	return id
}

// nullConst returns OpConstantNull of a type id.
func (e *enc) nullConst(tid uint32) uint32 {
	key := "null:" + strconv.Itoa(int(tid))
	if id, ok := e.consts[key]; ok {
		return id
	}
	id := e.id()
	e.globals.inst(OpConstantNull, tid, id)
	e.consts[key] = id
	return id
}

// constOf declares an IR constant (plain types).
func (e *enc) constOf(c *ir.Const) uint32 {
	t := c.Type()
	tid := e.mustType(t, rulePlain)
	switch {
	case c.Undef:
		return e.undef(tid)
	case c.Zero && t.IsScalar():
		return e.scalarConst(t, 0)
	case c.Zero:
		return e.nullConst(tid)
	case t.IsScalar():
		return e.scalarConst(t, c.Bits)
	}
	n := t.NumElems()
	elems := make([]uint32, n)
	var sb strings.Builder
	sb.WriteString("cc:" + strconv.Itoa(int(tid)))
	for i := 0; i < n; i++ {
		ec := c.Elem(i)
		if ec == nil || ec.Undef {
			// A composite constant cannot contain OpUndef; any value will do.
			ec = ir.ConstZero(t.ElemType(i))
		}
		elems[i] = e.constOf(ec)
		sb.WriteString(":" + strconv.Itoa(int(elems[i])))
	}
	key := sb.String()
	if id, ok := e.consts[key]; ok {
		return id
	}
	id := e.id()
	e.globals.inst(OpConstantComposite, append([]uint32{tid, id}, elems...)...)
	e.consts[key] = id
	return id
}

// checkConst reports constants SPIR-V cannot express.
func checkConst(c *ir.Const) error {
	t := c.Type()
	if t.Kind == ir.KPointer && !c.Undef {
		return fmt.Errorf("pointer constant %s: logical addressing has no null pointers", c.Literal())
	}
	if c.Zero || c.Undef || t.IsScalar() {
		return nil
	}
	for _, el := range c.Elems {
		if err := checkConst(el); err != nil {
			return err
		}
	}
	return nil
}

// fnType returns OpTypeFunction ret(params...).
func (e *enc) fnType(ret uint32, params []uint32) uint32 {
	var sb strings.Builder
	sb.WriteString("fn:" + strconv.Itoa(int(ret)))
	for _, p := range params {
		sb.WriteString(":" + strconv.Itoa(int(p)))
	}
	key := sb.String()
	if id, ok := e.fnTypes[key]; ok {
		return id
	}
	id := e.id()
	e.globals.inst(OpTypeFunction, append([]uint32{id, ret}, params...)...)
	e.fnTypes[key] = id
	return id
}
