package spirv

import (
	"passlens/compiler/ir"
)

// This file lowers the matrix intrinsics that OpTypeMatrix cannot
// express — integer matrices and matrices with one row or column, which
// the back end declares as arrays of rows (or of scalars) — element by
// element, as DXC's SPIR-V back end does: transpose, mul and determinant
// of a 1x1 matrix. It also holds the half-precision conversions
// f16tof32/f32tof16 (GLSL.std.450 UnpackHalf2x16/PackHalf2x16 per
// component).

// elemGetter returns element (r, c) of an operand.
type elemGetter func(r, c int) uint32

// matShape returns the rows and columns of an operand of mul, with a
// vector taken as a row (left operand) or a column (right operand), and
// an accessor of its elements.
func (fe *fn) matShape(v uint32, t *ir.Type, left bool) (rows, cols int, get elemGetter) {
	st := fe.e.mustType(t.Scalar(), rulePlain)
	switch t.Kind {
	case ir.KMatrix:
		return t.Len, t.Cols, func(r, c int) uint32 { return fe.matElem(v, t, r, c) }
	case ir.KVector:
		ext := func(i int) uint32 { return fe.op(OpCompositeExtract, st, 0, v, uint32(i)) }
		if left {
			return 1, t.Len, func(_, c int) uint32 { return ext(c) }
		}
		return t.Len, 1, func(r, _ int) uint32 { return ext(r) }
	}
	return 1, 1, func(int, int) uint32 { return v }
}

// matElem extracts element (r, c) of a matrix value (an OpTypeMatrix
// whose columns are the IR rows, or an array of rows; rows of one column
// are scalars).
func (fe *fn) matElem(v uint32, t *ir.Type, r, c int) uint32 {
	st := fe.e.mustType(t.Elem, rulePlain)
	if t.Cols == 1 {
		return fe.op(OpCompositeExtract, st, 0, v, uint32(r))
	}
	return fe.op(OpCompositeExtract, st, 0, v, uint32(r), uint32(c))
}

// buildMat constructs a value of type t (scalar, vector or matrix) from
// its elements in row-major order, as result res of type tid.
func (fe *fn) buildMat(t *ir.Type, tid, res uint32, rows, cols int, el [][]uint32) {
	if t.IsScalar() {
		fe.op(OpCopyObject, tid, res, el[0][0])
		return
	}
	if t.Kind == ir.KVector {
		var comps []uint32
		for r := 0; r < rows; r++ {
			comps = append(comps, el[r]...)
		}
		fe.op(OpCompositeConstruct, tid, res, comps...)
		return
	}
	rowT := fe.e.mustType(rowType(t), rulePlain)
	var rs []uint32
	for r := 0; r < t.Len; r++ {
		if t.Cols == 1 {
			rs = append(rs, el[r][0])
			continue
		}
		rs = append(rs, fe.op(OpCompositeConstruct, rowT, 0, el[r]...))
	}
	fe.op(OpCompositeConstruct, tid, res, rs...)
}

// transposeElems transposes a matrix that is not an OpTypeMatrix.
func (fe *fn) transposeElems(at, t *ir.Type, tid, res, v uint32) error {
	if at.Kind != ir.KMatrix || t.Kind != ir.KMatrix && !t.IsScalar() {
		return fe.fail("transpose of %s", at)
	}
	el := make([][]uint32, at.Cols)
	for c := 0; c < at.Cols; c++ {
		el[c] = make([]uint32, at.Len)
		for r := 0; r < at.Len; r++ {
			el[c][r] = fe.matElem(v, at, r, c)
		}
	}
	fe.buildMat(t, tid, res, at.Cols, at.Len, el)
	return nil
}

// mulElems computes mul(x, y) element by element: sums of products with
// FMul/FAdd or IMul/IAdd (the operands have one scalar type).
func (fe *fn) mulElems(in *ir.Instr, tid, res uint32, a []uint32) error {
	x, y, t := in.Args[0].Type(), in.Args[1].Type(), in.Type()
	s := x.Scalar()
	if y.Scalar() != s || s.Kind == ir.KBool {
		return fe.fail("mul of %s and %s", x, y)
	}
	mulOp, addOp := uint16(OpFMul), uint16(OpFAdd)
	if s.IsIntegral() {
		mulOp, addOp = OpIMul, OpIAdd
	}
	st := fe.e.mustType(s, rulePlain)
	if x.IsScalar() || y.IsScalar() {
		// Scale every element of the other operand.
		k, mv, mt := a[0], a[1], y
		if y.IsScalar() {
			k, mv, mt = a[1], a[0], x
		}
		rows, cols, get := fe.matShape(mv, mt, true)
		el := make([][]uint32, rows)
		for r := range el {
			el[r] = make([]uint32, cols)
			for c := range el[r] {
				el[r][c] = fe.op(mulOp, st, 0, get(r, c), k)
			}
		}
		fe.buildMat(t, tid, res, rows, cols, el)
		return nil
	}
	xr, xc, xg := fe.matShape(a[0], x, true)
	yr, yc, yg := fe.matShape(a[1], y, false)
	if xc != yr {
		return fe.fail("mul of %s and %s: inner dimensions differ", x, y)
	}
	el := make([][]uint32, xr)
	for r := range el {
		el[r] = make([]uint32, yc)
		for c := range el[r] {
			var sum uint32
			for k := 0; k < xc; k++ {
				p := fe.op(mulOp, st, 0, xg(r, k), yg(k, c))
				if k == 0 {
					sum = p
				} else {
					sum = fe.op(addOp, st, 0, sum, p)
				}
			}
			el[r][c] = sum
		}
	}
	fe.buildMat(t, tid, res, xr, yc, el)
	return nil
}

// halfConv lowers f16tof32 (u32 -> f32, the low 16 bits as a half) and
// f32tof16 (f32 -> u32, the half in the low bits) per component.
func (fe *fn) halfConv(name string, at, t *ir.Type, tid, res, v uint32) error {
	e := fe.e
	n := at.Lanes()
	if at.Kind != ir.KVector && !at.IsScalar() || n != t.Lanes() {
		return fe.fail("%s on %s", name, at)
	}
	f32, u32, v2 := e.mustType(ir.F32, rulePlain), e.mustType(ir.U32, rulePlain), e.mustType(ir.Vec(ir.F32, 2), rulePlain)
	comp := func(i int) uint32 {
		if n == 1 {
			return v
		}
		return fe.op(OpCompositeExtract, e.mustType(at.Scalar(), rulePlain), 0, v, uint32(i))
	}
	var out []uint32
	for i := 0; i < n; i++ {
		x := comp(i)
		var r uint32
		if name == "f16tof32" {
			if at.Scalar().Kind == ir.KInt {
				x = fe.op(OpBitcast, u32, 0, x)
			}
			h := fe.extInst(v2, 0, GLSLUnpackHalf2x16, x)
			r = fe.op(OpCompositeExtract, f32, 0, h, 0)
		} else {
			p := fe.op(OpCompositeConstruct, v2, 0, x, e.constOf(ir.ConstFloat(ir.F32, 0)))
			r = fe.extInst(u32, 0, GLSLPackHalf2x16, p)
			if t.Scalar().Kind == ir.KInt {
				r = fe.op(OpBitcast, e.mustType(t.Scalar(), rulePlain), 0, r)
			}
		}
		out = append(out, r)
	}
	if n == 1 {
		fe.op(OpCopyObject, tid, res, out[0])
	} else {
		fe.op(OpCompositeConstruct, tid, res, out...)
	}
	return nil
}
