package passes

import (
	"strings"
	"testing"

	"passlens/compiler/ir"
)

// vectorValues lists instructions of m producing vector or matrix values,
// except the boundary cases scalarize documents (call results and
// arguments, returns, intrinsics whose result is inherently a vector).
func vectorValues(m *ir.Module) []string {
	var out []string
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				t := in.Type()
				if t == nil || !(t.Kind == ir.KVector || t.Kind == ir.KMatrix) {
					continue
				}
				if in.Op == ir.OpCall || in.Op == ir.OpIntrinsic && !in.Intr.Attrs.Has(ir.AttrElementwise) && !waveComponentwise[in.Intr.Name] {
					continue
				}
				if in.Op == ir.OpConstruct || in.Op == ir.OpExtractValue && len(in.Args) == 1 {
					continue // rebuilt for (or taken from) a boundary
				}
				out = append(out, f.Name()+": "+ir.InstrString(in))
			}
		}
	}
	return out
}

// TestScalarizeIntrinsicsDifferential expands every vector intrinsic and
// checks, with the interpreter, that results are bit-identical and that no
// vector value is left.
func TestScalarizeIntrinsicsDifferential(t *testing.T) {
	t.Parallel()
	m := caseAfter(t, "intrinsics", "scalarize,simplify")
	if vs := vectorValues(m); len(vs) > 0 {
		t.Errorf("vector values left after scalarize:\n%v\n%s", vs, m)
	}
	if m.Global("k").ValType.String() != "[2 x f32]" {
		t.Errorf("private <2 x f32> not flattened: %s", m.Global("k").ValType)
	}
}

// TestScalarizeCompositeIntrinsics expands smoothstep, step, sign,
// degrees, radians and ldexp (scalar and vector, float and int operands)
// into scalar arithmetic: no call of them may remain, and the
// interpreter's results must be bit-identical, including NaN, infinities,
// signed zeros and the saturate edges of smoothstep.
func TestScalarizeCompositeIntrinsics(t *testing.T) {
	t.Parallel()
	m := caseAfter(t, "composite_intrinsics", "scalarize,simplify")
	text := m.String()
	for name := range compositeIntrinsics {
		if strings.Contains(text, " "+name+"(") {
			t.Errorf("%s left after scalarize:\n%s", name, text)
		}
	}
	if vs := vectorValues(m); len(vs) > 0 {
		t.Errorf("vector values left after scalarize:\n%v", vs)
	}
	// DXC's shapes: smoothstep keeps a saturate, sign is zext - zext.
	for _, w := range []string{
		"%ss.t = intr f32 saturate(f32 %ss.q)",
		"%sg = sub i32 %sg.p, %sg.n",
		"%st.ge = fcmp oge f32 %y, %x",
		"%le.e = intr f32 exp2(f32 %y)",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in\n%s", w, text)
		}
	}
}

// TestScalarizeSignatures flattens the signatures of functions that keep
// vectors, matrices and structs holding them in their parameters and
// return types (here, as after a pipeline without inline): parameters
// become one scalar per leaf, returns a struct of the leaves. Calls with
// constant, constructed and loaded arguments, a constant return, an out
// pointer and a nested call chain are executed by the interpreter before
// and after; no vector may remain in any signature or value.
func TestScalarizeSignatures(t *testing.T) {
	t.Parallel()
	m := caseAfter(t, "signatures", "scalarize,simplify")
	text := m.String()
	for _, w := range []string{
		"type %rot.ret = { f32 e0_x, f32 e0_y, f32 e1_x, f32 e1_y }",
		"define %rot.ret @rot(f32 %a, f32 %s.x, f32 %s.y) {",
		"define f32 @shade(f32 %l.dir.x, f32 %l.dir.y, f32 %l.dir.z, f32 %l.power, f32 %n.x, f32 %n.y, f32 %n.z, ptr<function, <3 x f32>> %out) {",
		"define %one.ret @one(f32 %v.x, f32 %v.y, f32 %v.z) {",
		"ret %one.ret {0.5, 0.25}",
		"define %chain.ret @chain(f32 %v.x, f32 %v.y, f32 %v.z, f32 %l.dir.x, f32 %l.dir.y, f32 %l.dir.z, f32 %l.power) {",
		"call %rot.ret @rot(f32 %x, f32 1.5, f32 -0.5)",
		"call f32 @shade(f32 %x, f32 %y, f32 %m.e0_y, f32 %m.e1_x, f32 0.0, f32 1.0, f32 0.0, ptr<function, <3 x f32>> %tmp)",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in\n%s", w, text)
		}
	}
	for _, f := range m.Funcs {
		for _, p := range f.Params {
			if holdsVector(p.Type()) && p.Type().Kind != ir.KPointer {
				t.Errorf("@%s: parameter %s keeps %s", f.Name(), p.Ref(), p.Type())
			}
		}
		if holdsVector(f.Ret) {
			t.Errorf("@%s returns %s", f.Name(), f.Ret)
		}
	}
}

// TestScalarizeOneColumnMatrix: the rows of a one-column matrix are
// scalars (<2 x 1 x f32> row 0 is an f32), so its flattened memory is
// [2 x f32], not [2 x [1 x f32]] — a vkd3d shader (cf-cond-types,
// `static const float1x1 f; if (f);`) once made scalarize load an f32
// through a pointer to [1 x f32].
func TestScalarizeOneColumnMatrix(t *testing.T) {
	t.Parallel()
	m := caseAfter(t, "one_column_matrix", "scalarize,simplify")
	if got := m.Global("f").ValType.String(); got != "[2 x f32]" {
		t.Errorf("flattened type %s, want [2 x f32]\n%s", got, m)
	}
}
