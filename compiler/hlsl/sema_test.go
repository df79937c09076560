package hlsl

import (
	"strings"
	"testing"
)

func TestExprTypes(t *testing.T) {
	tests := []struct {
		prelude, expr, want string
	}{
		// Promotion and literals.
		{"float4 v; int i;", "v + i", "float4"},
		{"int a; uint b;", "a + b", "uint"},
		{"uint u;", "u + 1", "uint"},
		{"uint u;", "u - 1", "uint"},
		{"int i;", "i * 0.5", "float"},
		{"int i;", "i * 0.5f", "float"},
		{"float4 v;", "v * 2", "float4"},
		{"bool b;", "b + b", "int"},
		{"float3 v;", "v > 0", "bool3"},
		{"float f; int i;", "f == i", "bool"},
		{"", "0x10", "int"},
		{"", "010u", "uint"},
		{"", "4000000000", "uint"},
		{"", "1.5f", "float"},
		{"", "1e3h", "float"},
		{"", ".5", "float"},
		{"", "1 << 3", "int"},
		{"uint u;", "u >> 1", "uint"},
		{"", "~3", "int"},
		{"", "-true", "int"},
		{"float4 v;", "!v", "bool4"},
		{"int x, y;", "(x, y)", "int"},
		{"static int i;", "i++", "int"},
		{"float4 v; bool c;", "c ? v : 0", "float4"},
		{"float2 a; float4 b;", "true ? a : b", "float2"},
		{"float4 v; float1x4 m;", "v + m", "float4"},
		{"float1 a; float4 b;", "a * b", "float4"},
		// Swizzles and indexing.
		{"float4 v;", "v.xy", "float2"},
		{"float4 v;", "v.rgba", "float4"},
		{"float4 v;", "v.x", "float"},
		{"float4 v;", "v.xxxx", "float4"},
		{"float f;", "f.xxx", "float3"},
		{"float4 v;", "v[2]", "float"},
		{"float4x4 m;", "m[1]", "float4"},
		{"float4x3 m;", "m[1]", "float3"},
		{"float4x4 m;", "m._m00_m11", "float2"},
		{"float4x4 m;", "m._11", "float"},
		{"float a[3][2];", "a[1]", "float [2]"},
		{"struct S { float3 a; int b[2]; }; S s;", "s.b[1]", "int"},
		{"struct S { float3 a; int b[2]; }; S s;", "s.a.zy", "float2"},
		{"struct In { struct { float x; } inner; }; In s;", "s.inner.x", "float"},
		// Type spellings.
		{"vector<int, 3> v;", "v", "int3"},
		{"matrix<float, 2, 3> m;", "m", "float2x3"},
		{"vector v;", "v", "float4"},
		{"matrix m;", "m", "float4x4"},
		{"dword d;", "d", "uint"},
		{"typedef float3 f3; f3 x;", "x", "float3"},
		{"unsigned int u;", "u", "uint"},
		{"row_major float2x3 m;", "m", "row_major float2x3"},
		{"bool4x4 m;", "m", "bool4x4"},
		// Constructors and casts.
		{"float4 v;", "float4(v.xy, 1, 2)", "float4"},
		{"", "float2x2(1, 2, 3, 4)", "float2x2"},
		{"float4 v;", "(int2)v", "int2"},
		{"float4 v;", "float(v)", "float"},
		{"float4 v;", "(float4x1)v", "float4x1"},
		{"struct S { float a, b; };", "(S)0", "S"},
		{"", "vector<float, 2>(1, 2)", "float2"},
		// Intrinsics.
		{"float4 v; float4x4 m;", "mul(v, m)", "float4"},
		{"float4 v; float4x4 m;", "mul(m, v)", "float4"},
		{"float4 v; float4x3 m;", "mul(v, m)", "float3"},
		{"float4x3 a; float3x2 b;", "mul(a, b)", "float4x2"},
		{"float4x4 m;", "mul(2, m)", "float4x4"},
		{"float3 a, b;", "mul(a, b)", "float"},
		{"int3 a;", "mul(a, a)", "int"},
		{"float4 v;", "dot(v, v)", "float"},
		{"int3 i;", "abs(i)", "int3"},
		{"int3 i;", "sin(i)", "float3"},
		{"int3 i;", "max(i, 2)", "int3"},
		{"float4 v;", "length(v)", "float"},
		{"float4 v;", "normalize(v)", "float4"},
		{"float4 v;", "cross(v.xyz, v.xyz)", "float3"},
		{"float4 v;", "any(v)", "bool"},
		{"float4 v;", "all(v > 1)", "bool"},
		{"float4 v;", "isnan(v)", "bool4"},
		{"float4 v;", "asuint(v)", "uint4"},
		{"uint2 u;", "asfloat(u)", "float2"},
		{"int i;", "asint(i)", "int"},
		{"", "countbits(5u)", "uint"},
		{"int i;", "firstbithigh(i)", "int"},
		{"int i;", "firstbitlow(i)", "uint"},
		{"float4 v;", "sign(v)", "int4"},
		{"float4 v;", "lerp(v, 1, 0.5)", "float4"},
		{"float4 v;", "clamp(v, 0, 1)", "float4"},
		{"float4 v;", "saturate(v)", "float4"},
		{"float2x2 m;", "determinant(m)", "float"},
		{"float2x3 m;", "transpose(m)", "float3x2"},
		{"float3 i, n;", "reflect(i, n)", "float3"},
		{"float3 i, n;", "refract(i, n, 1.3)", "float3"},
		{"float a, b;", "atan2(a, b)", "float"},
		{"float a, b;", "distance(a, b)", "float"},
		{"float3 x; static float3 ip;", "modf(x, ip)", "float3"},
		{"float x;", "fmod(x, 2)", "float"},
		{"float4 x;", "smoothstep(0, 1, x)", "float4"},
		{"float4 x;", "step(0.5, x)", "float4"},
		{"float4 x;", "ldexp(x, 2)", "float4"},
		{"float4 x;", "mad(x, 2, 1)", "float4"},
		{"float4 x;", "rcp(x)", "float4"},
		{"float x;", "radians(x) + degrees(x) + exp2(x) + log10(x)", "float"},
		{"uint x;", "reversebits(x)", "uint"},
		{"float4 x;", "trunc(x) + round(x) + frac(x) + ceil(x) + floor(x)", "float4"},
		{"bool2 c; float2 a, b;", "select(c, a, b)", "float2"},
		// Wave intrinsics.
		{"", "WaveGetLaneIndex()", "uint"},
		{"", "WaveGetLaneCount()", "uint"},
		{"", "WaveIsFirstLane()", "bool"},
		{"uint3 v;", "WaveActiveSum(v)", "uint3"},
		{"float v;", "WaveActiveProduct(v)", "float"},
		{"int v;", "WaveActiveMin(v) + WaveActiveMax(v)", "int"},
		{"uint v;", "WaveActiveBitAnd(v) | WaveActiveBitOr(v) | WaveActiveBitXor(v)", "uint"},
		{"", "WaveActiveAllTrue(true) && WaveActiveAnyTrue(false)", "bool"},
		{"float2 v;", "WaveActiveAllEqual(v)", "bool2"},
		{"", "WaveActiveCountBits(true)", "uint"},
		{"", "WaveActiveBallot(true)", "uint4"},
		{"float4 v;", "WaveReadLaneFirst(v)", "float4"},
		{"float v;", "WaveReadLaneAt(v, 3)", "float"},
		{"int v;", "WavePrefixSum(v) + WavePrefixProduct(v)", "int"},
		{"", "WavePrefixCountBits(true)", "uint"},
		// Resources.
		{"RWStructuredBuffer<float4> b;", "b[0]", "float4"},
		{"StructuredBuffer<float3> b;", "b.Load(1)", "float3"},
		{"ByteAddressBuffer r;", "r.Load4(0)", "uint4"},
		{"Buffer<int2> r;", "r[3]", "int2"},
		{"RWBuffer<float> r;", "r[3] = 1", "float"},
		{"struct P { float3 p; uint id; }; RWStructuredBuffer<P> b;", "b[1].id", "uint"},
		{"RWStructuredBuffer<uint> b;", "b.IncrementCounter()", "uint"},
		{"RWByteAddressBuffer b;", "b.InterlockedAdd(0, 1)", "void"},
		{"RWByteAddressBuffer b; static uint o;", "b.InterlockedCompareExchange(0, 1, 2, o)", "void"},
		{"RWByteAddressBuffer b;", "b.Store3(4, uint3(1, 2, 3))", "void"},
		{"Buffer<float4> b; static uint n;", "b.GetDimensions(n)", "void"},
		// Assignments.
		{"static float4 v;", "v += 1", "float4"},
		{"static int i;", "i *= 2.5", "int"},
		{"static float4 v;", "v.zx = float2(1, 2)", "float2"},
		{"static const int N = 3; float a[N * 2];", "a", "float [6]"},
	}
	for _, tt := range tests {
		x, diags := exprOf(t, tt.prelude, tt.expr)
		if diags.HasErrors() {
			t.Errorf("%s | %s: unexpected errors:\n%s", tt.prelude, tt.expr, messages(diags))
			continue
		}
		if got := x.Type().String(); got != tt.want {
			t.Errorf("%s | %s: type %s, want %s", tt.prelude, tt.expr, got, tt.want)
		}
	}
}

// TestConversions checks implicit conversions, their warnings and errors.
func TestConversions(t *testing.T) {
	tests := []struct {
		src  string
		want string // substring of the diagnostics, "" for none
	}{
		{"float4 v = 1; float2 w = v;", "warning: implicit truncation of vector type"},
		{"float4 v = 1; float f = v;", "warning: implicit truncation of vector type"},
		{"float3 v = float4(1, 2, 3, 4);", "warning: implicit truncation of vector type"},
		{"float4 a = 1; float2 b = 2; float2 c = a + b;", "warning: implicit truncation of vector type"},
		{"float4x4 m = 0; float3x3 n = m;", "warning: implicit truncation of vector type"},
		{"int i = 1.5;", ""},
		{"float4 v = 1;", ""},
		{"float2x2 m = 1;", ""},
		{"float4 v = int4(1, 2, 3, 4);", ""},
		{"bool b = 2.0;", ""},
		{"uint u = -1;", ""},
		{"float2x2 m = float4(1, 2, 3, 4);", ""},
		{"float4 v = float2(1, 2);", "error: cannot implicitly convert from 'float2' to 'float4' in initialization"},
		{"struct A { float a; }; struct B { float a; }; A a; B b = a;", "error: cannot implicitly convert from 'A' to 'B'"},
		{"float4 v = 1; v = float3(1, 2, 3);", "error: cannot implicitly convert from 'float3' to 'float4' in assignment"},
		{"float2x2 m = 0; float3 v = m;", "error: cannot implicitly convert from 'float2x2' to 'float3'"},
		{"float a[2] = {1, 2}; float b[3] = a;", "error: cannot implicitly convert"},
		{"float a[4] = {1, 2, 3, 4}; float4 v = a;", "error: cannot implicitly convert"},
		{"float4 v = (float4)float2(1, 2);", "error: cannot convert from 'float2' to 'float4'"},
		{"float4 v = 1; int2 i = (int2)v;", ""},
		{"struct S { float2 a; float b; }; float3 v = 1; S s = (S)v;", ""},
		{"float4 v = 1; float4 w = v && v;", "error: operands for short-circuiting logical binary operator must be scalar"},
		{"float4 v = 1; float4 w = v ? 1 : 0;", "error: condition for the ternary operator must be a scalar"},
		{"float f = 1; int i = f & 1;", "error: int or unsigned int type required"},
		{"float4 v = 1; float2x2 m = 1; float4 w = max(v, m);", "error: no matching intrinsic overload for 'max'"},
	}
	for _, tt := range tests {
		_, diags := compile(t, "void f() {\n"+tt.src+"\n}\n", Options{Library: true})
		got := messages(diags)
		if tt.want == "" {
			if len(diags) > 0 {
				t.Errorf("%s: unexpected diagnostics:\n%s", tt.src, got)
			}
			continue
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: diagnostics\n%s\ndo not contain %q", tt.src, got, tt.want)
		}
	}
}

func TestConversionNodes(t *testing.T) {
	// Splat: scalar int literal to float4 converts then splats.
	x, _ := exprOf(t, "static float4 v;", "v = 1")
	a := x.(*Assign)
	splat, ok := a.RHS.(*ImplicitCast)
	if !ok || splat.Kind != CastSplat || splat.Type().String() != "float4" {
		t.Fatalf("RHS is %T %v", a.RHS, a.RHS.Type())
	}
	conv, ok := splat.X.(*ImplicitCast)
	if !ok || conv.Kind != CastConvert || conv.Type() != TypeFloat {
		t.Fatalf("inner is %T", splat.X)
	}
	// Truncation then conversion.
	x, _ = exprOf(t, "float4 v; static int2 i;", "i = v")
	a = x.(*Assign)
	outer := a.RHS.(*ImplicitCast)
	inner := outer.X.(*ImplicitCast)
	if outer.Kind != CastConvert || inner.Kind != CastTruncate || inner.Type().String() != "float2" {
		t.Errorf("got %v(%v(%v))", outer.Kind, inner.Kind, inner.X.Type())
	}
	// Binary operands share OpType.
	x, _ = exprOf(t, "int i; float4 v;", "v * i")
	b := x.(*Binary)
	if b.OpType.String() != "float4" || b.X.Type().String() != "float4" || b.Y.Type().String() != "float4" {
		t.Errorf("binary operand types %v %v %v", b.OpType, b.X.Type(), b.Y.Type())
	}
	// Compound assignment keeps the LHS type, computes in OpType.
	x, _ = exprOf(t, "static int i;", "i *= 2.5")
	a = x.(*Assign)
	if a.OpType != TypeFloat || a.RHS.Type() != TypeFloat || a.Type() != TypeInt {
		t.Errorf("compound: op %v rhs %v result %v", a.OpType, a.RHS.Type(), a.Type())
	}
	if ClassifyConversion(TypeFloat, TypeInt) != CastConvert || ClassifyConversion(TypeFloat, VectorOf(TypeFloat, 3)) != CastSplat ||
		ClassifyConversion(VectorOf(TypeFloat, 4), TypeFloat) != CastTruncate {
		t.Error("ClassifyConversion")
	}
}

func TestSwizzleWrites(t *testing.T) {
	tests := []struct{ src, want string }{
		{"float4 v = 0; v.xz = 1;", ""},
		{"float4 v = 0; v.wzyx = v;", ""},
		{"float4x4 m = 0; m._m01_m10 = 1;", ""},
		{"float4 v = 0; v.xx = 1;", "invalid write mask 'xx'"},
		{"float4 v = 0; v.xyx = 1;", "invalid write mask 'xyx'"},
		{"float4 v = 0; v.xq = 1;", "illegal vector component name 'q'"},
		{"float2 v = 0; v.z = 1;", "vector component access exceeds type 'float2'"},
		{"float4 v = 0; v.xg = 1;", "cannot mix xyzw and rgba"},
		{"float4 v = 0; v.xyzwx = 1;", "more than 4 components"},
		{"float2x2 m = 0; m._m22 = 1;", "out of bounds"},
		{"float f = 0; f.x = 1;", ""},
		{"float f = 0; float2 g = f.xx;", ""},
		{"const float4 c = 1; c.x = 2;", "cannot assign to variable 'c' with const-qualified type"},
		{"float4 v = 0; (v + 1).x = 2;", "expression is not assignable"},
	}
	for _, tt := range tests {
		_, diags := compile(t, "void f() {\n"+tt.src+"\n}\n", Options{Library: true})
		got := messages(diags)
		if tt.want == "" && diags.HasErrors() || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s: got\n%s\nwant %q", tt.src, got, tt.want)
		}
	}
}

func TestOverloads(t *testing.T) {
	prelude := `
float f(float x) { return 1; }
int f(int x) { return 2; }
float2 g(float2 x) { return x; }
float g(float x) { return x; }
void h(int a, float b) {}
void h(float a, int b) {}
float3 k(float3 v, float s = 2) { return v * s; }
`
	tests := []struct{ expr, want string }{
		{"f(1)", "int"},
		{"f(1.0)", "float"},
		{"f(1u)", "int"},
		{"g(1.0)", "float"},
		{"g(float2(1, 2))", "float2"},
		{"k(1)", "float3"},
		{"k(1, 3)", "float3"},
		{"max(1.0, 2.0)", "float"},
	}
	for _, tt := range tests {
		x, diags := exprOf(t, prelude, tt.expr)
		if diags.HasErrors() {
			t.Errorf("%s: %s", tt.expr, messages(diags))
			continue
		}
		if got := x.Type().String(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.expr, got, tt.want)
		}
	}
	x, _ := exprOf(t, prelude, "k(1)")
	if c := x.(*Call); len(c.Args) != 2 || c.Func == nil || c.Func.Def == nil {
		t.Errorf("default argument not appended: %d args", len(c.Args))
	}
	errs := []struct{ expr, want string }{
		{"h(1u, 1u)", "call to 'h' is ambiguous"},
		// DXC ranks by the sum of per-argument scores (docs/hlsl-rules.md,
		// over.rank): bool to int and bool to float are both casts, float4
		// to float2 and to float both truncations.
		{"f(true)", "call to 'f' is ambiguous"},
		{"g(float4(1, 2, 3, 4))", "call to 'g' is ambiguous"},
		{"h(1)", "no matching function for call to 'h'"},
		{"lenght(1)", "use of undeclared identifier 'lenght'; did you mean 'length'?"},
		{"normalise(float3(1, 2, 3))", "did you mean 'normalize'?"},
		{"dot(1, 2, 3)", "too many arguments to function call 'dot', expected 2, have 3"},
	}
	for _, tt := range errs {
		_, diags := exprOf(t, prelude, tt.expr)
		if got := messages(diags); !strings.Contains(got, tt.want) {
			t.Errorf("%s: got\n%s\nwant %q", tt.expr, got, tt.want)
		}
	}
	// Candidates are listed as notes.
	_, diags := exprOf(t, prelude, "h(1)")
	for _, d := range diags {
		if strings.HasPrefix(d.Message, "no matching function") && len(d.Notes) != 2 {
			t.Errorf("want 2 candidate notes, have %d", len(d.Notes))
		}
	}
}

func TestStatements(t *testing.T) {
	tests := []struct{ src, want string }{
		{"void f() { for (int i = 0; i < 4; i++) { if (i == 2) continue; if (i == 3) break; } }", ""},
		{"void f() { int i = 0; while (i < 3) i++; do { i--; } while (i > 0); }", ""},
		{"void f() { [unroll] for (int i = 0; i < 4; i++) {} [unroll(2)] for (;;) { break; } [loop] while (false) {} [fastopt] do {} while (false); }", ""},
		{"void f() { int x = 1; [branch] if (x) {} [flatten] if (x) {} else {} }", ""},
		{"int f(int x) { switch (x) { case 0: case 1: x++; case 2: x--; break; default: return 3; case 4: break; } return x; }", ""},
		{"int f(int x) { switch (x) { default: return 1; } }", ""},
		{"void f() { break; }", "'break' statement not in loop or switch statement"},
		{"void f(int x) { switch (x) { case 0: continue; } }", "'continue' statement not in loop statement"},
		{"void f(int x) { switch (x) { case 1: break; case 1: break; } }", "duplicate case value '1'"},
		{"void f(int x) { switch (x) { default: break; default: break; } }", "multiple default labels in one switch"},
		{"void f(float x) { switch (x) { case 1: break; } }", "statement requires expression of integer type ('float' invalid)"},
		{"void f(int x) { switch (x) { case x: break; } }", "case value is not a constant expression"},
		{"int f(int x) { if (x) return 1; }", "not all control paths of 'f' return a value"},
		{"void f() { return 1; }", "void function 'f' should not return a value"},
		{"int f() { return; }", "non-void function 'f' should return a value"},
		{"void f() { case 1: ; }", "'case' statement not in switch statement"},
		{"void f() { float4 v = 1; if (v) {} }", "if condition must be a scalar, not 'float4'"},
		{"void f() { int x; int x; }", "redefinition of 'x'"},
		{"void f() { int x; { int x; } }", ""},
		{"void f() { [unroll] if (true) {} }", "warning: attribute 'unroll' ignored"},
		{"void f() { [loop] [unroll] for (;;) {} }", "conflicts with attribute"},
		{"int f() { while (true) {} }", ""},
		{"void f() { discard; }", ""},
	}
	for _, tt := range tests {
		expectDiag(t, tt.src, Options{Library: true}, tt.want)
	}
}

func TestSwitchClauses(t *testing.T) {
	prog, diags := compile(t, `int f(int x) {
	switch (x) {
	case 0:
	case 1:
		x++;
	case 2:
		x--;
		break;
	default:
	case 4:
		return 9;
	}
	return x;
}`, Options{Library: true})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	sw := findFunc(prog, "f").Body.Stmts[0].(*SwitchStmt)
	if len(sw.Cases) != 3 {
		t.Fatalf("%d clauses", len(sw.Cases))
	}
	if got := sw.Cases[0].Values; len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("clause 0 values %v", got)
	}
	if !sw.Cases[2].HasDefault || len(sw.Cases[2].Values) != 1 || sw.Cases[2].Values[0] != 4 {
		t.Errorf("clause 2: %+v", sw.Cases[2])
	}
}

func TestRecursion(t *testing.T) {
	tests := []struct{ src, want string }{
		{"int f(int x) { return f(x - 1); }", "recursive call to 'f' is not allowed (call cycle: 'f' -> 'f')"},
		{"int b(int x);\nint a(int x) { return b(x); }\nint b(int x) { return a(x); }",
			"recursive call to 'a' is not allowed (call cycle: 'a' -> 'b' -> 'a')"},
		{"int c(int x);\nint b(int x) { return c(x); }\nint a(int x) { return b(x); }\nint c(int x) { return a(x); }",
			"(call cycle: 'b' -> 'c' -> 'a' -> 'b')"},
		{"int b(int x);\nint a(int x) { return x; }\nint c(int x) { return a(x) + a(x); }", "function 'b' is declared but never defined"},
	}
	for _, tt := range tests {
		_, diags := compile(t, tt.src, Options{Library: true})
		if got := messages(diags); !strings.Contains(got, tt.want) {
			if !strings.Contains(tt.want, "never defined") {
				t.Errorf("%s:\ngot  %s\nwant %q", tt.src, got, tt.want)
			}
		}
	}
}

func TestUnsupportedTypes(t *testing.T) {
	for _, ty := range []string{"RasterizerOrderedTexture2D", "FeedbackTexture2D"} {
		src := "uniform " + ty + " x;\n"
		_, diags := compile(t, src, Options{Library: true})
		if len(diags) != 1 || diags[0].Severity != Error {
			t.Errorf("%s: want one error, got\n%s", ty, messages(diags))
			continue
		}
		d := diags[0]
		want := "unsupported type '" + strings.Split(ty, "<")[0] + "'"
		if d.Message != want || d.Pos.Line != 1 || d.Pos.Col != 9 {
			t.Errorf("%s: got %s %q, want 1:9 %q", ty, d.Pos, d.Message, want)
		}
	}
}

// TestMinPrecisionTypes checks DXC's default mode (no
// -enable-16bit-types): half and the min-precision types are distinct
// types (computed at 32 bits by the lowering) that promote below their
// 32-bit type, and the explicitly 16-bit types are refused at their use.
func TestMinPrecisionTypes(t *testing.T) {
	for _, ty := range []string{"half", "half4", "min16float2x3", "min10float3", "min16int", "min12int2", "min16uint4"} {
		e, diags := exprOf(t, "uniform "+ty+" x;", "x")
		if len(diags) > 0 {
			t.Errorf("%s: %s", ty, messages(diags))
			continue
		}
		if got := e.Type().String(); got != ty {
			t.Errorf("%s: type %s", ty, got)
		}
	}
	for _, tt := range []struct{ prelude, expr, want string }{
		{"uniform min16float a; uniform float b;", "a + b", "float"},
		{"uniform half2 a; uniform min10float b;", "a * b", "half2"},
		{"uniform min16int a; uniform int b;", "a - b", "int"},
		{"uniform min16int a;", "a + 1", "min16int"},
		{"uniform half a;", "a * 2.0", "half"},
	} {
		e, diags := exprOf(t, tt.prelude, tt.expr)
		if len(diags) > 0 || e.Type().String() != tt.want {
			t.Errorf("%s: type %s, want %s %s", tt.expr, e.Type(), tt.want, messages(diags))
		}
	}
	// Overloads tell half from float, as DXC's AST does.
	expectDiag(t, "float f(float4 x) { return 1; }\nfloat f(half4 x) { return 2; }\n", Options{Library: true}, "")
	// DXC refuses signed division on minimum-precision integers.
	expectDiag(t, "int f(min16int a, min16int b) { return a / b; }", Options{Library: true},
		"signed integer division is not supported on minimum-precision types, cast to int to use 32-bit division")
	expectDiag(t, "int f(min16int a, min16int b) { return a % b; }", Options{Library: true}, "signed integer division is not supported")
	expectDiag(t, "uint f(min16uint a, min16uint b) { return a / b; }", Options{Library: true}, "")
}

// TestSizedTypes checks -enable-16bit-types (half, float16_t and the
// minimum-precision types are 16-bit) and the 64-bit types (both modes):
// their widths, spellings, promotion and literal types.
func TestSizedTypes(t *testing.T) {
	half := Options{Library: true, Enable16BitTypes: true}
	for _, tt := range []struct {
		opts     Options
		ty, want string
		kind     Kind
		bits     int
	}{
		{half, "half", "half", KindFloat, 16}, {half, "float16_t2", "half2", KindFloat, 16}, {half, "min16float4", "half4", KindFloat, 16},
		{half, "min10float", "half", KindFloat, 16}, {half, "int16_t3", "int16_t3", KindInt, 16}, {half, "min16int", "int16_t", KindInt, 16},
		{half, "uint16_t", "uint16_t", KindUint, 16}, {half, "min16uint2x2", "uint16_t2x2", KindUint, 16},
		{Options{Library: true}, "double", "double", KindFloat, 64}, {Options{Library: true}, "float64_t4", "double4", KindFloat, 64},
		{Options{Library: true}, "int64_t2", "int64_t2", KindInt, 64}, {half, "uint64_t", "uint64_t", KindUint, 64},
	} {
		prog, diags := compile(t, "uniform "+tt.ty+" x;\nvoid __t() { x; }\n", tt.opts)
		if len(diags) > 0 {
			t.Errorf("%s: %s", tt.ty, messages(diags))
			continue
		}
		e := findFunc(prog, "__t").Body.Stmts[0].(*ExprStmt).X
		if s := e.Type().Scalar(); e.Type().String() != tt.want || s.Kind != tt.kind || s.Width() != tt.bits {
			t.Errorf("%s: %s (%d bits), want %s (%d bits)", tt.ty, e.Type(), s.Width(), tt.want, tt.bits)
		}
	}
	for _, tt := range []struct{ prelude, expr, want string }{
		{"uniform half a; uniform float b;", "a + b", "float"},
		{"uniform int16_t a; uniform int b;", "a * b", "int"},
		{"uniform uint16_t a; uniform int16_t b;", "a - b", "uint16_t"},
		{"uniform int64_t a; uniform uint b;", "a + b", "int64_t"},
		{"uniform uint64_t a; uniform int64_t b;", "a + b", "uint64_t"},
		{"uniform double a; uniform float b;", "a * b", "double"},
		{"uniform double a; uniform int64_t b;", "a + b", "double"},
		{"uniform half a;", "a * 2.0", "half"},
		// (Unsuffixed, a literal beyond 32 bits stays DXC's literal int:
		// INT_MIN with a warning where used as 32 bits, its whole value in
		// a 64-bit context: TestLiteralInts, constfold.go.)
		{"", "0xFFFFFFFFFFFFFFFFull", "uint64_t"},
		{"", "1.5h", "half"},
		{"", "1.5L", "double"},
		{"", "1ull", "uint64_t"},
		{"", "2l", "int64_t"},
		{"", "asdouble(1u, 2u)", "double"},
		{"uniform uint2 a;", "asdouble(a, a)", "double2"},
		{"uniform uint2 a;", "AddUint64(a, a)", "uint2"},
		{"uniform uint4 a;", "AddUint64(a, a)", "uint4"},
		{"uniform int16_t2 a;", "asfloat16(a)", "half2"},
		{"uniform uint64_t a;", "countbits(a)", "uint"},
		{"uniform uint64_t a;", "reversebits(a)", "uint64_t"},
		{"uniform half3 a;", "length(a)", "half"},
		{"uniform double2 a;", "sqrt(a)", "double2"},
	} {
		src := tt.prelude + "\nvoid __t() {\n" + tt.expr + ";\n}\n"
		prog, diags := compile(t, src, half)
		if len(diags) > 0 {
			t.Errorf("%s: %s", tt.expr, messages(diags))
			continue
		}
		if got := findFunc(prog, "__t").Body.Stmts[0].(*ExprStmt).X.Type().String(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.expr, got, tt.want)
		}
	}
	// DXC's rules for the word intrinsics and 64-bit values.
	for _, tt := range []struct{ src, want string }{
		{"uniform double d; float f() { return asfloat(d); }", "'asfloat' requires a 32-bit argument, not 'double'"},
		{"uniform half h; uint f() { return asuint(h); }", "'asuint' requires a 32-bit argument, not 'half' (use asfloat16, asint16 or asuint16)"},
		{"uniform double d; void f() { uint a, b; asuint(d, a, b); splitdouble(d, a, b); }", ""},
		{"uniform uint3x3 a; double3 f() { return asdouble(a, a); }", "'asdouble' requires uint scalar or vector arguments"},
		{"uniform uint3 a; uint3 f() { return AddUint64(a, a); }", "'AddUint64' requires two uint2 or two uint4 arguments"},
	} {
		expectDiag(t, tt.src, Options{Library: true, Enable16BitTypes: true}, tt.want)
	}
	expectDiag(t, "double2 main() : SV_Target { return 0; }", Options{Entry: "main"}, "render target output 'SV_Target' cannot have the 64-bit type 'double2'")
	// Folding keeps the width: 2^40 survives as int64_t, half rounds.
	for _, tt := range []struct {
		expr string
		want float64
	}{{"(int64_t)1 << 40", 1 << 40}, {"(half)0.1", 0.0999755859375}, {"(uint16_t)70000", 70000 - 65536}, {"(double)1 / 3", 1.0 / 3}} {
		prog, diags := compile(t, "void __t() {\n"+tt.expr+";\n}\n", half)
		if len(diags) > 0 {
			t.Errorf("%s: %s", tt.expr, messages(diags))
			continue
		}
		k, ok := ConstEval(findFunc(prog, "__t").Body.Stmts[0].(*ExprStmt).X)
		if !ok || k.AsFloat() != tt.want {
			t.Errorf("%s folds to %v (%v), want %v", tt.expr, k.AsFloat(), ok, tt.want)
		}
	}
	// 1.5h is a float literal in this mode.
	if e, diags := exprOf(t, "", "1.5h"); len(diags) > 0 || e.Type() != TypeFloat {
		t.Errorf("1.5h: %v %s", e, messages(diags))
	}
	for _, ty := range []string{"float16_t", "int16_t2", "uint16_t"} {
		_, diags := compile(t, "uniform "+ty+" x;\n", Options{Library: true})
		want := "'" + ty + "' requires -enable-16bit-types"
		if len(diags) != 1 || diags[0].Message != want || diags[0].Pos.Line != 1 || diags[0].Pos.Col != 9 {
			t.Errorf("%s: got %s, want 1:9 %q", ty, messages(diags), want)
		}
	}
}

func TestMisc(t *testing.T) {
	tests := []struct{ src, want string }{
		{"struct S { float a; float a; };", "duplicate member 'a'"},
		{"struct S { float a; }; void f() { S s; s.b = 1; }", "no member named 'b' in 'S'"},
		{"float4 x; float4 x;", "redefinition of 'x'"},
		{"typedef float myf; typedef int myf;", "redefinition of 'myf'"},
		{"void f() { undefinedThing = 1; }", "use of undeclared identifier 'undefinedThing'"},
		{"uniform float4 u; void f() { u = 1; }", "cannot assign to uniform variable 'u'"},
		{"StructuredBuffer<float> b; void f() { b[0] = 1; }", "cannot write to read-only resource"},
		{"float a[2]; void f() { float x = a[1.5]; }", ""},
		{"void f() { float4 v = 0; float x = v[4]; }", "index 4 is out of bounds for 'float4'"},
		{"void f() { float a[2] = {1, 2}; float x = a[2]; }", "array index 2 is out of bounds"},
		{"void f() { float a[] = {1, 2, 3}; float3 b = {a}; }", ""},
		{"void f() { float a[][2] = {1, 2, 3, 4, 5, 6}; float x = a[2][1]; }", ""},
		{"void f() { float4 v = {1, 2, 3}; }", "too few initializers in list for type 'float4' (expected 4 but was 3)"},
		{"void f() { float2 v = {1, 2, 3}; }", "too many initializers in list for type 'float2' (expected 2 but was 3)"},
		{"void f() { float4 v = float4(1, 2, 3); }", "too few elements in vector initialization (expected 4 elements, have 3)"},
		{"void f() { float2x2 m = float2x2(1, 2, 3, 4, 5); }", "too many elements in matrix initialization (expected 4 elements, have 5)"},
		{"struct S { float2 a; int b[2]; float3x1 c; }; void f() { S s = {1, 2, 3, 4, {5, 6}, 7}; }", ""},
		{"void f() { int a = 1; float b[a]; }", "array size is not an integer constant expression"},
		{"void f() { float b[0]; }", "array size must be positive"},
		{"static const int n = 2 + 3 * 4; float arr[n]; static const uint m = n % 4; float arr2[m];", ""},
		{"cbuffer A { float x; } cbuffer A { float y; }", "redefinition of constant buffer 'A'"},
		{"cbuffer A : register(t0) { float x; }", "invalid register class 't' for constant buffer"},
		{"cbuffer A { float4 a : packoffset(c0.y); }", "crosses a register boundary"},
		{"cbuffer A { float4x4 m : packoffset(c1.y); }", "must start at a register boundary"},
		{"cbuffer A { float4 a : packoffset(c0); float b : packoffset(c0.w); }", "packoffset of 'b' overlaps 'a'"},
		{"RWStructuredBuffer<float4> b : register(t0);", "invalid register class 't'"},
		{"groupshared float g = 1;", "groupshared variables cannot have an initializer"},
		{"void f() { static float s = 1; s += 1; }", ""},
		{"column_major float4 f;", "'column_major' can only be applied to matrix types"},
		{"typedef row_major float4x4 M; column_major M m;", "conflicts with the row_major storage"},
		{"unorm int i;", "'unorm' and 'snorm' can only be applied to float types"},
		{"RWBuffer<unorm float4> b;", ""},
		{"float4 float;", "type name 'float' cannot be used as a variable name"},
		{"struct S { float x; }; struct T t;", "'T' is not a struct"},
		{"void f(uniform float x) {}", ""},
		{"float4 precise; float4 g() { return precise; }", ""},
		{"float f { state = 1; };", ""},
		{"[numthreads(1, 2)] void g() {}", "'numthreads' takes 3 arguments"},
		{"[numthreads(1.5, 1, 1)] void g() {}", "numthreads argument must be an integer constant"},
		{"[numthreads(2048, 1, 1)] void g() {}", "numthreads x dimension must be between 1 and 1024"},
		{"groupshared uint g; void f() { uint o; InterlockedAdd(g, 1); InterlockedOr(g, 2, o); InterlockedCompareStore(g, 1, 2); InterlockedExchange(g, 3, o); }", ""},
		{"RWStructuredBuffer<int> b; void f() { InterlockedMin(b[2], 1); InterlockedCompareExchange(b[0], 1, 2, b[1]); }", ""},
		{"void f() { uint x = 0; InterlockedAdd(x, 1); }", "destination must be a groupshared variable or an element of a RW buffer"},
		{"groupshared float g; void f() { InterlockedAdd(g, 1); }", "requires an int or uint destination"},
		{"void f() { float s, c; sincos(1.0, s, c); }", ""},
		{"void f() { float s; sincos(1.0, s, 2); }", "expression is not assignable"},
	}
	for _, tt := range tests {
		_, diags := compile(t, tt.src, Options{Library: true})
		got := messages(diags)
		if tt.want == "" && diags.HasErrors() || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s:\ngot  %s\nwant %q", tt.src, got, tt.want)
		}
	}
}

func TestCBufferLayout(t *testing.T) {
	prog, diags := compile(t, `
cbuffer C : register(b3, space1)
{
	float a;      // 0
	float3 b;     // 4
	float2 c;     // 16
	float3 d;     // 32 (would straddle)
	float4x4 m;   // 48
	float e[2];   // 112, elements 16 apart
	float f;      // 132
};
float4 g1;
float g2;
`, Options{Library: true})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	want := map[string]int{"a": 0, "b": 4, "c": 16, "d": 32, "m": 48, "e": 112, "f": 132, "g1": 0, "g2": 16}
	for _, v := range prog.Globals {
		if w, ok := want[v.Name]; ok && v.Offset != w {
			t.Errorf("%s at offset %d, want %d", v.Name, v.Offset, w)
		}
	}
	if len(prog.Buffers) != 2 || !prog.Buffers[0].Implicit || prog.Buffers[0].Name != "$Globals" {
		t.Fatalf("buffers: %d", len(prog.Buffers))
	}
	cb := prog.Buffers[1]
	if cb.Register == nil || cb.Register.Class != 'b' || cb.Register.Index != 3 || cb.Register.Space != 1 {
		t.Errorf("register %+v", cb.Register)
	}
}

// TestUnnamedStructUniformInit: DXC rejects an initializer on a $Globals
// uniform of an unnamed struct type (vkd3d default-values.shader_test:270)
// and accepts every variant that names the type, is static, has no
// initializer or lives in a cbuffer.
func TestUnnamedStructUniformInit(t *testing.T) {
	const msg = "uniform 'u' of an unnamed struct type cannot have an initializer"
	tests := []struct{ src, want string }{
		{"struct { float a; } u = {1};", msg},
		{"struct { float2x2 m; } u = {1, 2, 3, 4};", msg},
		{"uniform struct { float a; } u[2] = {1, 2};", msg},
		{"struct { float a; } u;", ""},
		{"struct S { float a; } u = {1};", ""},
		{"typedef struct { float a; } T; T u = {1};", ""},
		{"static struct { float a; } u = {1};", ""},
		{"static const struct { float a; } u = {1};", ""},
		{"cbuffer cb { struct { float a; } u = {1}; }", ""},
	}
	for _, tt := range tests {
		expectDiag(t, tt.src, Options{Library: true}, tt.want)
	}
	_, diags := compile(t, "struct\n{ float a; } u = {1};", Options{Library: true})
	if len(diags) != 1 || len(diags[0].Notes) != 1 || diags[0].Pos.Line != 2 || diags[0].Notes[0].Pos.Line != 2 {
		t.Errorf("diagnostic positions: %+v", diags)
	}
}

// TestUnsizedCBufferMember: a cbuffer member array without a size is
// sized from its initializer, or is an error (FuzzLower found it lowered
// to a runtime-sized array in uniform memory, which does not verify).
func TestUnsizedCBufferMember(t *testing.T) {
	expectDiag(t, "cbuffer A { int a; float b[]; }", Options{Library: true},
		"definition of variable 'b' with array type needs an explicit size or an initializer")
	prog, diags := compile(t, "cbuffer A { int a; float b[] = {1, 2, 3}; }", Options{Library: true})
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics: %s", messages(diags))
	}
	if b := prog.Buffers[0].Members[1]; b.Type.Kind != KindArray || b.Type.Len != 3 {
		t.Errorf("b has type %s, want float[3]", b.Type)
	}
}

// TestCBufferMemberRegister: register(cN) on a cbuffer member is accepted
// and ignored at SM6; another register class is an error (vkd3d's cbuffer
// tests).
func TestCBufferMemberRegister(t *testing.T) {
	expectDiag(t, "cbuffer cb { float4 w : register(c3); };", Options{Library: true}, "")
	expectDiag(t, "cbuffer cb { float4 w : register(t3); };", Options{Library: true}, "invalid register class 't' for constant buffer member 'w': expected 'c'")
	expectDiag(t, "void f() { float4 w : register(c3); }", Options{Library: true}, "register binding is only allowed on global variables")
}
