package interp

import (
	"fmt"
	"testing"

	"passlens/compiler/ir"
)

// The op table's semantic flags checked against execution: an op flagged
// commutative gives the same result with its operands swapped, one not so
// flagged gives a different one for some operands; an op flagged
// elementwise computes each component of a vector result as the scalar op
// on the operands' components.

// tableOps lists every op in the table (OpInvalid excluded).
func tableOps() []ir.Op {
	var out []ir.Op
	for op := ir.OpInvalid + 1; op.Info().Name != ""; op++ {
		out = append(out, op)
	}
	return out
}

// sample returns the k-th test value of scalar type t (distinct, non-NaN,
// mixed signs, away from the trivial identities).
func sample(t *ir.Type, k int) *ir.Const {
	ints := []int64{3, 5, -7, 2, 12, 1, 31}
	floats := []float64{0.1, 0.2, -2.5, 4, 1e30, 3, 0.75}
	switch t.Kind {
	case ir.KFloat:
		return ir.ConstFloat(t, floats[k%len(floats)])
	case ir.KBool:
		return ir.ConstBool(t, k%2 == 0)
	case ir.KUint:
		return ir.ConstInt(t, ints[k%len(ints)]&0x7F)
	}
	return ir.ConstInt(t, ints[k%len(ints)])
}

// operandType picks the scalar operand type of a binary or unary op.
func operandType(op ir.Op) *ir.Type {
	if op.Info().Operands == ir.OperandsFloat {
		return ir.F32
	}
	return ir.I32
}

func sameCells(a, b []uint64) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

func TestCommutativeFlagMatchesExecution(t *testing.T) {
	t.Parallel()
	n := 0
	for _, op := range tableOps() {
		if !op.IsBinary() {
			continue
		}
		n++
		ty := operandType(op)
		differs := ""
		for k := 0; k < 6; k++ {
			a, b := sample(ty, k), sample(ty, k+1)
			ab := eval1(t, ty, bin(op, a, b))
			ba := eval1(t, ty, bin(op, b, a))
			if !sameCells(ab, ba) {
				differs = fmt.Sprintf("%s(%s, %s) = %s while %s(%s, %s) = %s", op, a.Literal(), b.Literal(),
					FormatValue(ty, ab), op, b.Literal(), a.Literal(), FormatValue(ty, ba))
				break
			}
		}
		if op.IsCommutative() && differs != "" {
			t.Errorf("%s is flagged commutative, but %s", op, differs)
		}
		if !op.IsCommutative() && differs == "" {
			t.Errorf("%s is not flagged commutative, yet every sample gave the same result both ways", op)
		}
	}
	if n < 18 {
		t.Errorf("checked %d binary ops, want 18", n)
	}
}

// castTypes gives each conversion a source and a result scalar type.
var castTypes = map[ir.Op][2]*ir.Type{
	ir.OpSIToFP: {ir.I32, ir.F32}, ir.OpUIToFP: {ir.U32, ir.F32},
	ir.OpFPToSI: {ir.F32, ir.I32}, ir.OpFPToUI: {ir.F32, ir.U32},
	ir.OpBitcast: {ir.F32, ir.I32}, ir.OpTrunc: {ir.I64, ir.I32},
	ir.OpZExt: {ir.I32, ir.I64}, ir.OpSExt: {ir.I32, ir.I64},
	ir.OpFPTrunc: {ir.F64, ir.F32}, ir.OpFPExt: {ir.F32, ir.F64},
}

func TestElementwiseFlagMatchesExecution(t *testing.T) {
	t.Parallel()
	const lanes = 3
	vec := func(s *ir.Type, k int) *ir.Const {
		cs := make([]*ir.Const, lanes)
		for i := range cs {
			cs[i] = sample(s, k+2*i)
		}
		return ir.ConstAggregate(ir.Vec(s, lanes), cs)
	}
	elem := func(c *ir.Const, i int) *ir.Const { return c.Elem(i) }
	checked := 0
	for _, op := range tableOps() {
		if !op.IsElementwise() {
			continue
		}
		// build makes the op on the given operands; rs is the result's
		// scalar type; args are the vector operands.
		var build func(k *kit, args []ir.Value) ir.Value
		var args []*ir.Const
		var rs *ir.Type
		switch {
		case op.IsBinary():
			s := operandType(op)
			args, rs = []*ir.Const{vec(s, 0), vec(s, 1)}, s
			build = func(k *kit, a []ir.Value) ir.Value { return k.b.Binary(op, a[0], a[1], "") }
		case op.IsUnary():
			s := operandType(op)
			args, rs = []*ir.Const{vec(s, 0)}, s
			build = func(k *kit, a []ir.Value) ir.Value { return k.b.Unary(op, a[0], "") }
		case op.IsCmp():
			s, p := ir.I32, ir.PredSLT
			if op == ir.OpFCmp {
				s, p = ir.F32, ir.PredOLT
			}
			args, rs = []*ir.Const{vec(s, 0), vec(s, 1)}, ir.Bool
			build = func(k *kit, a []ir.Value) ir.Value { return k.b.Cmp(p, a[0], a[1], "") }
		case op.IsCast():
			ct, ok := castTypes[op]
			if !ok {
				t.Errorf("no cast types for %s", op)
				continue
			}
			args, rs = []*ir.Const{vec(ct[0], 0)}, ct[1]
			build = func(k *kit, a []ir.Value) ir.Value {
				rt := rs
				if a[0].Type().Kind == ir.KVector {
					rt = ir.Vec(rs, lanes)
				}
				return k.b.Cast(op, a[0], rt, "")
			}
		case op == ir.OpSelect:
			args, rs = []*ir.Const{vec(ir.Bool, 0), vec(ir.I32, 0), vec(ir.I32, 1)}, ir.I32
			build = func(k *kit, a []ir.Value) ir.Value { return k.b.Select(a[0], a[1], a[2], "") }
		default:
			t.Errorf("elementwise op %s has no test shape", op)
			continue
		}
		checked++
		vals := make([]ir.Value, len(args))
		for i, a := range args {
			vals[i] = a
		}
		whole := eval1(t, ir.Vec(rs, lanes), func(k *kit) ir.Value { return build(k, vals) })
		for i := 0; i < lanes; i++ {
			comp := make([]ir.Value, len(args))
			for j, a := range args {
				comp[j] = elem(a, i)
			}
			one := eval1(t, rs, func(k *kit) ir.Value { return build(k, comp) })
			if len(whole) != lanes || len(one) != 1 || whole[i] != one[0] {
				t.Errorf("%s: component %d of the vector result is %v, the scalar op gives %v", op, i, whole, one)
				break
			}
		}
	}
	if checked < 30 {
		t.Errorf("checked %d elementwise ops, want at least 30", checked)
	}
}
