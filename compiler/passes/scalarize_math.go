package passes

import (
	"passlens/compiler/ir"
)

// Scalarization of intrinsics. Elementwise intrinsics and the
// per-component wave operations are called once per component. The vector
// intrinsics below are expanded into scalar arithmetic that performs
// exactly the operations, in exactly the order, of their definitions in
// the interpreter (compiler/interp/intrinsics.go), which follow HLSL:
//
//	dot(a, b)        = a0*b0 + a1*b1 + ...        (left to right)
//	length(v)        = sqrt(dot(v, v))
//	distance(a, b)   = length(a - b)
//	any(v) / all(v)  = or / and of (v_i != 0)      (une for floats: NaN counts as non-zero)
//	cross(a, b)      = a.yzx*b.zxy - a.zxy*b.yzx
//	normalize(v)     = v / length(v)
//	reflect(i, n)    = i - (2 * dot(n, i)) * n
//	refract(i, n, e) = k < 0 ? 0 : e*i - (e*d + sqrt(k))*n, d = dot(n, i), k = 1 - e*e*(1 - d*d)
//	mul(x, y)        = HLSL mul; sums in index order
//	transpose(m)     = a permutation of the leaves
//	determinant(m)   = cofactor expansion along the first row
//
// Each rounds after every step, so the expansion is bit-identical to the
// intrinsic. Only float and integer element types are expanded; anything
// else is left whole.

// wholeIntrinsics are the vector intrinsics scalarize expands, also when
// their operands are scalars (one leaf each).
var wholeIntrinsics = map[string]bool{
	"dot": true, "length": true, "distance": true, "any": true, "all": true, "normalize": true,
	"reflect": true, "refract": true, "mul": true, "transpose": true, "determinant": true,
}

// waveComponentwise lists wave operations that act on each component of
// their first operand independently (the interpreter folds per component).
var waveComponentwise = map[string]bool{
	"WaveActiveSum": true, "WaveActiveProduct": true, "WaveActiveMin": true, "WaveActiveMax": true,
	"WaveActiveBitAnd": true, "WaveActiveBitOr": true, "WaveActiveBitXor": true,
	"WavePrefixSum": true, "WavePrefixProduct": true,
	"WaveReadLaneFirst": true, "WaveReadLaneAt": true, "WaveActiveAllEqual": true,
	"QuadReadAcrossX": true, "QuadReadAcrossY": true, "QuadReadAcrossDiagonal": true, "QuadReadLaneAt": true,
}

func (s *scalarizer) visitIntrinsic(in *ir.Instr) bool {
	it := in.Intr
	if it == nil {
		return false
	}
	split := in.HasResult() && splittable(in.Type())
	for _, a := range in.Args {
		if splittable(a.Type()) {
			split = true
		}
	}
	if !split {
		if compositeIntrinsics[it.Name] {
			return s.visitComposite(in)
		}
		// The vector intrinsics on scalars (normalize(x), reflect(x, n),
		// determinant(x), ...) have no DXIL operation either.
		if !wholeIntrinsics[it.Name] || !in.HasResult() || !in.Type().IsScalar() {
			return false
		}
	}
	if it.Attrs.Has(ir.AttrElementwise) || waveComponentwise[it.Name] {
		if it.Name == "WaveActiveAllEqual" && len(in.Args) == 1 && in.Type().IsScalar() && splittable(in.Args[0].Type()) {
			return s.allEqualReduction(in)
		}
		return s.perComponentIntrinsic(in)
	}
	if len(in.Args) == 0 {
		return false
	}
	et := in.Args[0].Type().Scalar()
	if et.Kind != ir.KFloat && !et.IsIntegral() {
		if it.Name == "any" || it.Name == "all" {
			return s.anyAll(in)
		}
		return false
	}
	m := &mathEmitter{s: s, in: in, float: et.Kind == ir.KFloat, et: et}
	switch it.Name {
	case "dot":
		if len(in.Args) == 2 {
			return m.done(m.dot(s.getLeavesOf(in.Args[0]), s.getLeavesOf(in.Args[1]), true))
		}
	case "length":
		if m.float && len(in.Args) == 1 {
			v := s.getLeavesOf(in.Args[0])
			return m.done(m.sqrt(m.dot(v, v, false), true))
		}
	case "distance":
		if m.float && len(in.Args) == 2 {
			a := s.getLeavesOf(in.Args[0])
			d := make([]ir.Value, len(a))
			for i := range a {
				d[i] = m.bin(ir.OpFSub, a[i], s.scalarOf(in.Args[1], i), false)
			}
			return m.done(m.sqrt(m.dot(d, d, false), true))
		}
	case "any", "all":
		return s.anyAll(in)
	case "cross":
		if len(in.Args) == 2 && in.Args[0].Type().Lanes() == 3 && in.Args[1].Type().Lanes() == 3 && splittable(in.Type()) {
			x, y := s.getLeavesOf(in.Args[0]), s.getLeavesOf(in.Args[1])
			r := make([]ir.Value, 3)
			for i := 0; i < 3; i++ {
				j, k := (i+1)%3, (i+2)%3
				r[i] = m.sub(m.mul(x[j], y[k], false), m.mul(x[k], y[j], false), false)
			}
			return m.vector(r)
		}
	case "normalize":
		if m.float && len(in.Args) == 1 {
			v := s.getLeavesOf(in.Args[0])
			ln := m.sqrt(m.dot(v, v, false), false)
			r := make([]ir.Value, len(v))
			for i := range v {
				r[i] = m.bin(ir.OpFDiv, v[i], ln, false)
			}
			return m.vector(r)
		}
	case "reflect":
		if m.float && len(in.Args) == 2 {
			i, n := s.getLeavesOf(in.Args[0]), s.getLeavesOf(in.Args[1])
			t := m.mul(ir.ConstFloat(et, 2), m.dot(n, i, false), false)
			r := make([]ir.Value, len(i))
			for k := range i {
				r[k] = m.sub(i[k], m.mul(t, s.scalarOf(in.Args[1], k), false), false)
			}
			return m.vector(r)
		}
	case "refract":
		if m.float && len(in.Args) == 3 && in.Args[2].Type().IsScalar() {
			i, n, eta := s.getLeavesOf(in.Args[0]), s.getLeavesOf(in.Args[1]), in.Args[2]
			one := ir.ConstFloat(et, 1)
			d := m.dot(n, i, false)
			k := m.sub(one, m.mul(m.mul(eta, eta, false), m.sub(one, m.mul(d, d, false), false), false), false)
			neg := newInstr(s.f, ir.OpFCmp, ir.Bool, baseName(in)+".tir")
			neg.Pred = ir.PredOLT
			neg.Args = []ir.Value{k, ir.ConstFloat(et, 0)}
			s.emit(neg)
			sc := m.add(m.mul(eta, d, false), m.sqrt(k, false), false)
			r := make([]ir.Value, len(i))
			for j := range i {
				v := m.sub(m.mul(eta, i[j], false), m.mul(sc, s.scalarOf(in.Args[1], j), false), false)
				sel := newInstr(s.f, ir.OpSelect, et, s.leafName(in, in.Type(), j))
				sel.Args = []ir.Value{neg, ir.ConstFloat(et, 0), v}
				r[j] = s.emit(sel)
			}
			return m.vector(r)
		}
	case "mul":
		if len(in.Args) == 2 {
			return m.mulIntrinsic()
		}
	case "transpose":
		if len(in.Args) == 1 {
			t := in.Args[0].Type()
			x := s.getLeavesOf(in.Args[0])
			if t.Kind != ir.KMatrix {
				return m.vector(x)
			}
			rows, cols := t.Len, t.Cols
			r := make([]ir.Value, rows*cols)
			for a := 0; a < rows; a++ {
				for b := 0; b < cols; b++ {
					r[b*rows+a] = x[a*cols+b]
				}
			}
			return m.vector(r)
		}
	case "determinant":
		t := in.Args[0].Type()
		if len(in.Args) == 1 && t.Kind == ir.KMatrix && t.Len == t.Cols && in.Type().IsScalar() {
			return m.done(m.determinant(s.getLeavesOf(in.Args[0]), t.Len, true))
		}
		if len(in.Args) == 1 && t == in.Type() && t.IsScalar() {
			return m.done(in.Args[0]) // the determinant of a 1x1 value is itself
		}
	}
	return false
}

// getLeavesOf returns the leaves of v, or v alone for a scalar.
func (s *scalarizer) getLeavesOf(v ir.Value) []ir.Value {
	if splittable(v.Type()) {
		return s.getLeaves(v)
	}
	return []ir.Value{v}
}

// perComponentIntrinsic calls the intrinsic once per component.
func (s *scalarizer) perComponentIntrinsic(in *ir.Instr) bool {
	if !in.HasResult() || !splittable(in.Type()) {
		return false
	}
	lay := s.layout(in.Type())
	for _, a := range in.Args {
		if splittable(a.Type()) && a.Type().ScalarCount() != len(lay) {
			return false
		}
	}
	out := make([]ir.Value, len(lay))
	for i, lf := range lay {
		args := make([]ir.Value, len(in.Args))
		for j, a := range in.Args {
			args[j] = s.scalarOf(a, i)
		}
		if compositeIntrinsics[in.Intr.Name] {
			if v := s.expandComposite(in.Intr, args, lf.typ, baseName(in)+lf.suffix, nil, in.Loc); v != nil {
				out[i] = v
				continue
			}
		}
		n := newInstr(s.f, ir.OpIntrinsic, lf.typ, baseName(in)+lf.suffix)
		n.Intr = in.Intr
		n.Loc = in.Loc
		n.Args = args
		out[i] = s.emit(n)
	}
	s.setLeaves(in, out)
	return true
}

// allEqualReduction expands WaveActiveAllEqual of a vector with a scalar
// result: the and of the per-component results.
func (s *scalarizer) allEqualReduction(in *ir.Instr) bool {
	if in.Type() != ir.Bool {
		return false
	}
	ls := s.getLeaves(in.Args[0])
	var acc ir.Value
	for i, l := range ls {
		n := newInstr(s.f, ir.OpIntrinsic, ir.Bool, s.leafName(in.Args[0], in.Args[0].Type(), i)+".eq")
		n.Intr = in.Intr
		n.Loc = in.Loc
		n.Args = []ir.Value{l}
		s.emit(n)
		if acc == nil {
			acc = n
			continue
		}
		var a *ir.Instr
		if i == len(ls)-1 {
			a = newInstrTakingName(s.f, ir.OpAnd, ir.Bool, in)
		} else {
			a = newInstr(s.f, ir.OpAnd, ir.Bool, baseName(in)+".and")
		}
		a.Args = []ir.Value{acc, n}
		acc = s.emit(a)
	}
	s.repl[in] = acc
	s.dead[in] = true
	return true
}

// anyAll expands any/all into an or/and chain of non-zero tests.
func (s *scalarizer) anyAll(in *ir.Instr) bool {
	if len(in.Args) != 1 || in.Type() != ir.Bool {
		return false
	}
	ls := s.getLeavesOf(in.Args[0])
	op := ir.OpOr
	if in.Intr.Name == "all" {
		op = ir.OpAnd
	}
	var acc ir.Value
	for i, l := range ls {
		var nz ir.Value
		switch st := l.Type(); {
		case st.Kind == ir.KBool:
			nz = l
		case st.Kind == ir.KFloat:
			c := newInstr(s.f, ir.OpFCmp, ir.Bool, s.leafName(in.Args[0], in.Args[0].Type(), i)+".nz")
			c.Pred = ir.PredUNE
			c.Args = []ir.Value{l, ir.ConstFloat(st, 0)}
			nz = s.emit(c)
		case st.IsIntegral():
			c := newInstr(s.f, ir.OpICmp, ir.Bool, s.leafName(in.Args[0], in.Args[0].Type(), i)+".nz")
			c.Pred = ir.PredNE
			c.Args = []ir.Value{l, ir.ConstInt(st, 0)}
			nz = s.emit(c)
		default:
			return false
		}
		if acc == nil {
			acc = nz
			continue
		}
		var a *ir.Instr
		if i == len(ls)-1 {
			a = newInstrTakingName(s.f, op, ir.Bool, in)
		} else {
			a = newInstr(s.f, op, ir.Bool, baseName(in)+"."+op.String())
		}
		a.Args = []ir.Value{acc, nz}
		acc = s.emit(a)
	}
	s.repl[in] = acc
	s.dead[in] = true
	s.changed = true
	return true
}

// mathEmitter emits the scalar arithmetic of one expanded intrinsic.
type mathEmitter struct {
	s     *scalarizer
	in    *ir.Instr
	float bool
	et    *ir.Type
	n     int
}

// bin emits op x, y. The final instruction of an expansion takes the
// intrinsic's name; intermediates are named <name>.1, <name>.2, ...
func (m *mathEmitter) bin(op ir.Op, x, y ir.Value, final bool) ir.Value {
	var n *ir.Instr
	if final {
		n = newInstrTakingName(m.s.f, op, x.Type(), m.in)
	} else {
		m.n++
		n = newInstr(m.s.f, op, x.Type(), baseName(m.in)+"."+itoa(m.n))
	}
	n.Args = []ir.Value{x, y}
	n.Loc = m.in.Loc
	return m.s.emit(n)
}

func (m *mathEmitter) mul(x, y ir.Value, final bool) ir.Value {
	if m.float {
		return m.bin(ir.OpFMul, x, y, final)
	}
	return m.bin(ir.OpMul, x, y, final)
}

func (m *mathEmitter) add(x, y ir.Value, final bool) ir.Value {
	if m.float {
		return m.bin(ir.OpFAdd, x, y, final)
	}
	return m.bin(ir.OpAdd, x, y, final)
}

func (m *mathEmitter) sub(x, y ir.Value, final bool) ir.Value {
	if m.float {
		return m.bin(ir.OpFSub, x, y, final)
	}
	return m.bin(ir.OpSub, x, y, final)
}

// dot emits x0*y0 + x1*y1 + ... left to right (y broadcast if scalar).
func (m *mathEmitter) dot(x, y []ir.Value, final bool) ir.Value {
	pick := func(v []ir.Value, i int) ir.Value {
		if len(v) == 1 {
			return v[0]
		}
		return v[i]
	}
	n := len(x)
	if len(y) > 1 && len(y) < n {
		n = len(y)
	}
	acc := m.mul(x[0], pick(y, 0), final && n == 1)
	for i := 1; i < n; i++ {
		acc = m.add(acc, m.mul(x[i], pick(y, i), false), final && i == n-1)
	}
	return acc
}

func (m *mathEmitter) sqrt(x ir.Value, final bool) ir.Value {
	var n *ir.Instr
	if final {
		n = newInstrTakingName(m.s.f, ir.OpIntrinsic, x.Type(), m.in)
	} else {
		m.n++
		n = newInstr(m.s.f, ir.OpIntrinsic, x.Type(), baseName(m.in)+"."+itoa(m.n))
	}
	n.Intr = ir.LookupIntrinsic("sqrt")
	n.Args = []ir.Value{x}
	n.Loc = m.in.Loc
	return m.s.emit(n)
}

// done replaces the intrinsic's scalar result with v.
func (m *mathEmitter) done(v ir.Value) bool {
	if v == nil || v.Type() != m.in.Type() {
		return false
	}
	m.s.repl[m.in] = v
	m.s.dead[m.in] = true
	m.s.changed = true
	return true
}

// vector records r as the leaves of the intrinsic's (splittable) result,
// or as its value when the result is a scalar.
func (m *mathEmitter) vector(r []ir.Value) bool {
	t := m.in.Type()
	if t.IsScalar() && len(r) == 1 {
		return m.done(r[0])
	}
	if !splittable(t) || len(r) != t.ScalarCount() {
		return false
	}
	m.s.setLeaves(m.in, r)
	return true
}

// mulIntrinsic expands HLSL mul per the interpreter's cases.
func (m *mathEmitter) mulIntrinsic() bool {
	s := m.s
	x, y := m.in.Args[0], m.in.Args[1]
	tx, ty := x.Type(), y.Type()
	rt := m.in.Type()
	switch {
	case tx.IsScalar() || ty.IsScalar():
		if !splittable(rt) {
			return m.done(m.mul(x, y, true))
		}
		n := rt.ScalarCount()
		r := make([]ir.Value, n)
		for i := 0; i < n; i++ {
			r[i] = m.mul(s.scalarOf(x, i), s.scalarOf(y, i), false)
		}
		return m.vector(r)
	case tx.Kind == ir.KVector && ty.Kind == ir.KVector:
		return m.done(m.dot(s.getLeaves(x), s.getLeaves(y), true))
	case tx.Kind == ir.KVector && ty.Kind == ir.KMatrix:
		rows, cols := ty.Len, ty.Cols
		if tx.Len != rows || rt.ScalarCount() != cols {
			return false
		}
		xv, yv := s.getLeaves(x), s.getLeaves(y)
		r := make([]ir.Value, cols)
		for j := 0; j < cols; j++ {
			acc := m.mul(xv[0], yv[j], false)
			for i := 1; i < rows; i++ {
				acc = m.add(acc, m.mul(xv[i], yv[i*cols+j], false), false)
			}
			r[j] = acc
		}
		return m.vector(r)
	case tx.Kind == ir.KMatrix && ty.Kind == ir.KVector:
		rows, cols := tx.Len, tx.Cols
		if ty.Len != cols || rt.ScalarCount() != rows {
			return false
		}
		xv, yv := s.getLeaves(x), s.getLeaves(y)
		r := make([]ir.Value, rows)
		for i := 0; i < rows; i++ {
			r[i] = m.dot(xv[i*cols:(i+1)*cols], yv, false)
		}
		return m.vector(r)
	case tx.Kind == ir.KMatrix && ty.Kind == ir.KMatrix:
		n, k, p := tx.Len, tx.Cols, ty.Cols
		if ty.Len != k || rt.ScalarCount() != n*p {
			return false
		}
		xv, yv := s.getLeaves(x), s.getLeaves(y)
		r := make([]ir.Value, n*p)
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				acc := m.mul(xv[i*k], yv[j], false)
				for q := 1; q < k; q++ {
					acc = m.add(acc, m.mul(xv[i*k+q], yv[q*p+j], false), false)
				}
				r[i*p+j] = acc
			}
		}
		return m.vector(r)
	}
	return false
}

// determinant expands along the first row: sum_j (-1)^j m[0][j] det(minor),
// accumulated in order, as the interpreter computes it.
func (m *mathEmitter) determinant(v []ir.Value, n int, final bool) ir.Value {
	switch n {
	case 1:
		return v[0]
	case 2:
		return m.sub(m.mul(v[0], v[3], false), m.mul(v[1], v[2], false), final)
	}
	var acc ir.Value
	for j := 0; j < n; j++ {
		minor := make([]ir.Value, 0, (n-1)*(n-1))
		for r := 1; r < n; r++ {
			for c := 0; c < n; c++ {
				if c != j {
					minor = append(minor, v[r*n+c])
				}
			}
		}
		last := final && j == n-1
		term := m.mul(v[j], m.determinant(minor, n-1, false), false)
		switch {
		case j == 0:
			acc = term
		case j%2 == 1:
			acc = m.sub(acc, term, last)
		default:
			acc = m.add(acc, term, last)
		}
	}
	return acc
}
