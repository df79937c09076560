package hlsl

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestRules checks the rules of docs/hlsl-rules.md, each with valid and
// invalid variants written from DXC's semantic analysis and the HLSL
// specification drafts (the sources are cited per rule in the doc), not
// from the conformance data. A valid variant must compile without errors
// (and without warnings unless it names one); an invalid one must report
// the named diagnostic at the named line:col.
//
// In a case, "@" marks where the diagnostic must be (it is removed from
// the source before compiling); want is "error: text" or "warning: text"
// (a substring of the message), or "" for a valid variant.
type ruleCase struct {
	rule string // the rule's id in docs/hlsl-rules.md
	src  string
	want string
}

// rcs wraps statements in a compute entry point.
func rcs(body string) string {
	return "RWStructuredBuffer<float4> Out;\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\n" + body + "\n}\n"
}

var ruleCases = []ruleCase{
	// --- Overload resolution: ranks of implicit conversion sequences.
	// conv.exact: an exact match beats a conversion.
	{"over.rank", "struct A { int a; };\nA f(int x) { A r = { x }; return r; }\nfloat f(float x) { return x; }\n" + rcs("A r = f(2); Out[0] = r.a;"), ""},
	{"over.rank", "struct A { int a; };\nA f(int x) { A r = { x }; return r; }\nfloat f(float x) { return x; }\n" + rcs("A r = @f(2.0f); Out[0] = r.a;"), "error: cannot implicitly convert from 'float' to 'A' in initialization"},
	// A splat (Extension) beats a conversion.
	{"over.rank", "struct A { int a; };\nA f(float2 x) { A r = { 1 }; return r; }\nfloat f(int x) { return x; }\n" + rcs("float v = id.x; A r = f(v); Out[0] = r.a;"), ""},
	// A conversion beats a truncation.
	{"over.rank", "struct A { int a; };\nA f(int3 x) { A r = { x.x }; return r; }\nfloat f(float2 x) { return x.x; }\n" + rcs("float3 v = id; A r = f(v); Out[0] = r.a;"), ""},
	// A truncation beats a conversion truncation.
	{"over.rank", "struct A { int a; };\nA f(float2 x) { A r = { 1 }; return r; }\nfloat f(int2 x) { return x.x; }\n" + rcs("float3 v = id; A r = f(@v); Out[0] = r.a;"), "warning: implicit truncation of vector type"},
	// A signed/unsigned change beats a conversion between kinds.
	{"over.rank", "struct A { int a; };\nA f(int x) { A r = { x }; return r; }\nfloat f(float x) { return x; }\n" + rcs("uint u = id.x; A r = f(u); Out[0] = r.a;"), ""},
	// Scores add up over the arguments, each flag outweighing any number
	// of the flags below it: a cast from the argument's kind (uint to
	// float) weighs more than a signed/unsigned change and a cast to the
	// parameter's kind (uint to int, float to int) together.
	{"over.rank", "struct A { int a; };\nfloat f(float x, float y) { return x; }\nA f(int x, int y) { A r = { 1 }; return r; }\n" + rcs("uint u = id.x; float v = id.y; A r = f(u, v); Out[0] = r.a;"), ""},
	// Two candidates of the same rank: ambiguous.
	{"over.ambiguous", "float f(int x) { return x; }\nfloat f(float x) { return x; }\n" + rcs("bool b = id.x; Out[0] = @f(b);"), "error: call to 'f' is ambiguous"},
	{"over.ambiguous", "float f(float x) { return x; }\nfloat f(float1 x) { return x; }\n" + rcs("float v = id.x; Out[0] = @f(v);"), "error: call to 'f' is ambiguous"},
	{"over.ambiguous", "float f(float4 x) { return x.x; }\nfloat f(float2x2 x) { return x._11; }\n" + rcs("float4 v = id.xyzx; Out[0] = @f(v);"), "error: call to 'f' is ambiguous"},
	{"over.ambiguous", "float f(float2 x) { return x.x; }\nfloat f(float x) { return x; }\n" + rcs("float4 v = id.xyzx; Out[0] = @f(v);"), "error: call to 'f' is ambiguous"},
	{"over.ambiguous", "float f(int x, float y) { return x; }\nfloat f(float x, int y) { return x; }\n" + rcs("float v = id.x; Out[0] = @f(v, v);"), "error: call to 'f' is ambiguous"},
	// An untyped literal converts to every type of its family for free:
	// int and uint tie for 20, float wins for 1.5 (DXC's
	// tools/clang/test/SemaHLSL/literals.hlsl, overload1).
	{"over.ambiguous", "float f(int x) { return x; }\nfloat f(uint x) { return x; }\nfloat f(float x) { return x; }\n" + rcs("Out[0] = @f(20);"), "error: call to 'f' is ambiguous"},
	{"over.rank", "struct A { int a; };\nfloat f(int x) { return x; }\nfloat f(uint x) { return x; }\nA f(float x) { A r = { 1 }; return r; }\n" + rcs("A r = f(1.5); float s = f(20u) + f(-2 + id.x); Out[0] = r.a + s;"), ""},
	// in/out/inout: an out parameter scores only the copy back, inout both
	// ways (DXC's tools/clang/test/SemaHLSL/functions.hlsl, fn_uint_oload*).
	{"over.ambiguous", "void f(uint u) { }\nvoid f(out uint u) { u = 1; }\n" + rcs("uint u = id.x; @f(u); Out[0] = u;"), "error: call to 'f' is ambiguous"},
	{"over.rank", "struct A { int a; };\nA f(uint u) { A r = { 1 }; return r; }\nfloat f(out uint u) { u = 1; return 0; }\nfloat g(inout uint u) { return 0; }\nA g(out uint u) { A r = { 2 }; u = 1; return r; }\n" + rcs("float2 f2 = id.xy; A r = f(f2.x); A s = g(f2.x); Out[0] = r.a + s.a;"), ""},
	{"over.ambiguous", "int h(int i) { return i; }\nint h(int2 i) { return i.y; }\n" + rcs("Out[0] = h(int2(1, 2)) + h(30) + @h(int3(1, 2, 3));"), "error: call to 'h' is ambiguous"},
	// Default arguments that make two candidates viable.
	{"over.ambiguous", "float f(int x = 1) { return x; }\nfloat f(float y = 2.0f) { return y; }\n" + rcs("Out[0] = f(1) + f(3.0f) + @f();"), "error: call to 'f' is ambiguous"},
	// No viable candidate: too many arguments, or no conversion.
	{"over.viable", "float f(float x) { return x; }\n" + rcs("Out[0] = @f(1, 2);"), "error: no matching function for call to 'f'"},
	{"over.viable", "struct S { float x; };\nfloat f(float x) { return x; }\n" + rcs("S s = { 1 }; Out[0] = @f(s);"), "error: no matching function for call to 'f'"},

	// --- Implicit conversions.
	{"conv.splat", rcs("float4 v = 1; float4 w = float1(2); float2x2 m = 3; Out[0] = v + w + m[0].xyxy;"), ""},
	{"conv.trunc", rcs("float4 v = id.xyzx; float2 t = @v; Out[0] = t.xyxy;"), "warning: implicit truncation of vector type"},
	{"conv.trunc", rcs("float3x3 m = 1; float2x2 t = @m; Out[0] = t[0].xyxy;"), "warning: implicit truncation of vector type"},
	{"conv.trunc", rcs("float4 v = id.xyzx; float s = @v; Out[0] = s;"), "warning: implicit truncation of vector type"},
	{"conv.extend", rcs("float2 v = id.xy; float4 w = @v; Out[0] = w;"), "error: cannot implicitly convert from 'float2' to 'float4'"},
	{"conv.extend", rcs("float2x2 m = 1; float3x3 w = @m; Out[0] = w[0].xyzx;"), "error: cannot implicitly convert from 'float2x2' to 'float3x3'"},
	{"conv.struct", "struct S { float x; };\n" + rcs("S s = { 1 }; float f = @s; Out[0] = f;"), "error: cannot implicitly convert from 'S' to 'float'"},
	{"conv.matvec", rcs("float2x2 m = 1; float4 v = m; float2x2 n = v; Out[0] = v + n[1].xyxy;"), ""},

	// --- Initializer lists flatten their elements.
	{"init.flatten", rcs("float4 v = { 1, float2(2, 3), 4 }; Out[0] = v;"), ""},
	{"init.flatten", "struct S { float2 a; int b; };\n" + rcs("S s = { float3(1, 2, 3) }; S t = { 1, 2, 3 }; Out[0] = s.a.xyxy + t.b;"), ""},
	{"init.flatten", rcs("int a[] = { 1, 2, 3 }; float2x2 m = { float2(1, 2), 3, 4 }; Out[0] = a[2] + m[1].xyxy;"), ""},
	{"init.count", rcs("float4 v = @{ 1, 2, 3 }; Out[0] = v;"), "error: too few initializers in list for type 'float4' (expected 4 but was 3)"},
	{"init.count", rcs("float2 v = @{ 1, 2, 3 }; Out[0] = v.xyxy;"), "error: too many initializers in list for type 'float2' (expected 2 but was 3)"},
	{"init.count", rcs("int a[2] = @{ 1, 2, 3 }; Out[0] = a[0];"), "error: too many initializers in list for type 'int [2]'"},
	{"init.count", rcs("Out[0] = @float4(1, 2);"), "error: too few elements in vector initialization (expected 4 elements, have 2)"},
	{"init.empty", rcs("float4 v = @{}; Out[0] = v;"), "error: too few initializers in list for type 'float4' (expected 4 but was 0)"},

	// --- out and inout arguments.
	{"param.out", "void f(out float x) { x = 1; }\nvoid g(inout float2 x) { x += 1; }\n" + rcs("float4 v = 0; f(v.y); g(v.zw); int i; f(i); Out[0] = v + i;"), ""},
	{"param.out", "void f(out float x) { x = 1; }\n" + rcs("f(@1.0); Out[0] = 0;"), "error: expression is not assignable"},
	{"param.out", "void f(out float x) { x = 1; }\nstatic const float c = 1;\n" + rcs("f(@c); Out[0] = c;"), "error: cannot assign to variable 'c' with const-qualified type 'const float'"},
	{"param.out", "void f(out float2 x) { x = 1; }\n" + rcs("float4 v = 0; f(@v.xx); Out[0] = v;"), "error: invalid write mask 'xx': vector is not assignable (contains duplicate components)"},
	{"param.out", "void f(out float x) { x = 1; }\n" + rcs("float4 v = 0; f((@v.x + 1)); Out[0] = v;"), "error: expression is not assignable"},

	// --- Control flow conditions and switch.
	{"stmt.cond", rcs("float4 v = id.xyzx; if (@v) Out[0] = 1;"), "error: if condition must be a scalar, not 'float4'"},
	{"stmt.cond", rcs("float2 v = id.xy; while (@v) { Out[0] = 1; break; }"), "error: while condition must be a scalar, not 'float2'"},
	{"stmt.switch", rcs("switch (id.x) { case 1: Out[0] = 1; break; case @1: break; }"), "error: duplicate case value '1'"},
	{"stmt.switch", rcs("switch (id.x) { default: break; @default: break; }"), "error: multiple default labels"},
	{"stmt.switch", rcs("float f = id.x; switch (@f) { case 1: break; }"), "error: statement requires expression of integer type ('float' invalid)"},
	{"stmt.switch", rcs("uint k = 2; switch (id.x) { case @k: break; }"), "error: case value is not a constant expression"},
	{"stmt.switch", rcs("switch (id.x) { case 1: case 2 + 1: Out[0] = 1; default: break; }"), ""},
	{"stmt.switch", rcs("uint64_t v = id.x; switch (v) { case 2: Out[0] = 1; break; case 0x100000002: Out[0] = 2; break; }"), ""},
	{"stmt.switch", rcs("uint64_t v = id.x; switch (v) { case 0x100000002: break; case @4294967298ull: break; }"), "error: duplicate case value '4294967298'"},

	// --- Loop and branch attributes.
	{"attr.loop", rcs("[unroll] for (int i = 0; i < 4; i++) Out[i] = i;\n[unroll(2)] for (int j = 0; j < 4; j++) Out[j] = j;\n[loop] while (id.x > 9) { Out[0] = 1; }\n[fastopt] do { Out[1] = 1; } while (id.x > 9);\n[allow_uav_condition] for (uint k = 0; k < id.x; k++) Out[k] = 2;"), ""},
	{"attr.loop", rcs("@[loop] if (id.x) Out[0] = 1;"), "warning: attribute 'loop' ignored: it applies to loop statements"},
	{"attr.loop", rcs("@[unroll] if (id.x) Out[0] = 1;"), "warning: attribute 'unroll' ignored: it applies to loop statements"},
	{"attr.loop", rcs("[unroll(0)] for (int i = 0; i < 2; i++) Out[i] = i; [unroll(2.0)] for (int j = 0; j < 2; j++) Out[j] = j;"), ""},
	{"attr.loop", rcs("@[unroll(-1)] for (int i = 0; i < 2; i++) Out[i] = i;"), "warning: attribute 'unroll' must have a uint literal argument"},
	{"attr.loop", rcs("@[unroll(1.5)] for (int i = 0; i < 2; i++) Out[i] = i;"), "warning: attribute 'unroll' must have a uint literal argument"},
	{"attr.loop", rcs("int n = id.x; [unroll(@n)] for (int i = 0; i < 2; i++) Out[i] = i;"), "error: 'unroll' attribute requires an integer constant"},
	{"attr.loop", rcs("[fastopt] @[unroll] for (int i = 0; i < 2; i++) Out[i] = i;"), "error: attribute 'unroll' conflicts with attribute 'fastopt'"},
	{"attr.branch", rcs("[branch] if (id.x) Out[0] = 1; [flatten] if (id.y) Out[1] = 1; [forcecase] switch (id.x) { default: break; } [call] switch (id.y) { default: break; }"), ""},
	{"attr.branch", rcs("@[branch] for (int i = 0; i < 2; i++) Out[i] = i;"), "warning: attribute 'branch' ignored: it applies to if statements"},
	{"attr.branch", rcs("@[forcecase] if (id.x) Out[0] = 1;"), "warning: attribute 'forcecase' ignored: it applies to switch statements"},
	{"attr.loop", rcs("@[unroll] [loop] for (int i = 0; i < 2; i++) Out[i] = i;"), "error: attribute 'unroll' conflicts with attribute 'loop'"},

	// --- Storage classes and qualifiers.
	{"decl.global-const", "float g;\n" + rcs("@g = 1; Out[0] = g;"), "error: cannot assign to uniform variable 'g': uniforms are read-only"},
	{"decl.global-const", "static float g;\n" + rcs("g = 1; Out[0] = g;"), ""},
	{"decl.const", rcs("const float c = 1; @c = 2; Out[0] = c;"), "error: cannot assign to variable 'c' with const-qualified type 'const float'"},
	{"decl.modifier", rcs("groupshared float @g; Out[0] = g;"), "error: local variables cannot be declared 'uniform', 'extern', 'shared' or 'groupshared'"},
	{"decl.modifier", rcs("uniform float @u = 1; Out[0] = u;"), "error: local variables cannot be declared 'uniform', 'extern', 'shared' or 'groupshared'"},
	{"decl.modifier", "in float @g;\n" + rcs("Out[0] = g;"), "error: 'in'/'out' are only allowed on parameters"},
	{"decl.modifier", "static uniform float @g = 1;\n" + rcs("Out[0] = g;"), "error: 'static' and 'uniform' cannot be combined"},
	{"decl.modifier", "uniform float g;\nstatic float h = 2;\nvoid f(float u, in float i, inout float io) { io = u + i; }\n" + rcs("float x = 1; f(g, h, x); Out[0] = x;"), ""},
	{"decl.modifier", "void f(uniform float @u, out float o) { o = u; }\n" + rcs("float x; f(1, x); Out[0] = x;"), "error: 'uniform' is only allowed on entry point parameters"},
	{"decl.groupshared", "groupshared float g[8192];\n" + rcs("g[id.x] = 1; Out[0] = g[0];"), ""},
	{"decl.groupshared", "groupshared float g[8193];\n" + rcs("@g[id.x] = 1; Out[0] = g[0];"), "error: entry point 'main' uses 32772 bytes of groupshared memory with 'g'; at most 32768 are allowed"},

	// --- Interpolation modifiers.
	{"decl.interp", "struct V { nointerpolation float4 a : A; linear centroid float4 b : B; noperspective float4 c : C; float4 p : SV_Position; };\nfloat4 main(V v, sample float4 d : D) : SV_Target { return v.a + v.b + v.c + d; }\n", ""},
	{"decl.interp", "float4 main(nointerpolation linear float4 @x : TEXCOORD0) : SV_Target { return x; }\n", "error: 'nointerpolation' and 'linear' cannot be used together for a parameter"},
	{"decl.interp", "struct V { nointerpolation centroid float4 @a : A; };\nfloat4 main(V v) : SV_Target { return v.a; }\n", "error: 'nointerpolation' and 'centroid' cannot be used together for a field"},
	{"decl.interp", "nointerpolation float4 @g;\nfloat4 main() : SV_Target { return g; }\n", "error: 'nointerpolation' is not a valid modifier for a global variable"},
	{"decl.interp", rcs("linear float @l = 1; Out[0] = l;"), "error: 'linear' is not a valid modifier for a local variable"},
	{"decl.interp", "float4 main(centroid sample float4 @x : TEXCOORD0) : SV_Target { return x; }\n", "warning: 'centroid' will be overridden by 'sample' for parameter 'x'"},
	// --- Recursion, checked in the entry point's call graph only.
	{"decl.recursion", "int f(int x) { return x > 0 ? f(x - 1) : 0; }\n" + rcs("Out[0] = 1;"), ""},
	{"decl.recursion", "int f(int x) { return x > 0 ? @f(x - 1) : 0; }\n" + rcs("Out[0] = f(2);"), "error: recursive call to 'f' is not allowed (call cycle: 'f' -> 'f')"},
	{"decl.recursion", "int g(int x);\nint f(int x) { return x > 0 ? @g(x - 1) : 0; }\nint g(int x) { return f(x); }\n" + rcs("Out[0] = g(2);"), "error: recursive call to 'g' is not allowed (call cycle: 'g' -> 'f' -> 'g')"},
	// groupshared memory exists in compute shaders only.
	{"decl.groupshared", "groupshared float g;\nfloat4 main() : SV_Target { return 1; }\n", ""},
	{"decl.groupshared", "groupshared float g;\nfloat h() { return @g; }\nfloat4 main() : SV_Target { return h(); }\n", "error: groupshared variable 'g' is used in a pixel shader; only compute shaders have groupshared memory"},
	// --- Constant buffer size.
	{"decl.cbuffer-size", "cbuffer C { float4 a[4096]; }\nfloat4 b[4095];\nfloat4 c;\n" + rcs("Out[0] = a[1] + b[2] + c;"), ""},
	{"decl.cbuffer-size", "cbuffer C { float4 a[4097]; }\n" + rcs("Out[0] = 1;"), ""},
	{"decl.cbuffer-size", "cbuffer C { float4 x; float4 @a[4096]; }\n" + rcs("Out[0] = a[1];"), "error: constant buffer 'C' takes 65552 bytes with 'a'; at most 65536 (4096 registers) are allowed"},
	{"decl.cbuffer-size", "float4 b[4096];\nfloat @c;\n" + rcs("Out[0] = b[2] + c;"), "error: constant buffer '$Globals' takes 65540 bytes with 'c'; at most 65536 (4096 registers) are allowed"},
	// --- Literals.
	{"lex.literal", rcs("float a = 1.0; float b = 1.5h; float c = 1.5f; uint d = 0xFFFFFFFF; uint e = 10u; int f = 0x7fffffff; int g = 017; Out[0] = a + b + c + d + e + f + g;"), ""},
	{"lex.literal", rcs("float b = 5000000000 / 2; uint c = 1 << 31; int d = 0x7fffffff + 1; Out[0] = b + c + d;"), ""},
	{"lex.literal", rcs("int d = @3000000000 + 3000000000; Out[0] = d;"), "warning: literal expression value 6000000000 does not fit in 32 bits; it is used as -2147483648"},
	{"lex.literal", rcs("int c = @0x1FFFFFFFF; Out[0] = c;"), "warning: integer literal '0x1FFFFFFFF' does not fit in 32 bits; it is used as -2147483648"},
	{"lex.literal", rcs("Out[0] = @1.5x;"), "error: invalid floating point constant '1.5x'"},

	// --- Constant division by zero.
	{"expr.div0", rcs("int x = 1 / @0; Out[0] = x;"), "warning: division by zero is undefined"},
	{"expr.div0", rcs("int x = 1 % @0; Out[0] = x;"), "warning: remainder by zero is undefined"},

	// --- Entry points.
	{"entry.numthreads", "RWStructuredBuffer<float> Out;\n[numthreads(1024, 1, 1)] void main() { Out[0] = 1; }\n", ""},
	{"entry.numthreads", "RWStructuredBuffer<float> Out;\n[numthreads(@1025, 1, 1)] void main() { Out[0] = 1; }\n", "error: numthreads x dimension must be between 1 and 1024 (is 1025)"},
	{"entry.numthreads", "RWStructuredBuffer<float> Out;\n@[numthreads(32, 32, 2)] void main() { Out[0] = 1; }\n", "error: numthreads total thread count 2048 exceeds 1024"},
	{"entry.semantic", "float4 main(float4 @p) : SV_Target { return p; }\n", "error: missing semantic for entry point input 'p'"},
	{"entry.semantic", "float4 @main(float4 p : SV_Position) { return p; }\n", "error: missing semantic for entry point output return value"},
	{"entry.semantic", "float4 main(float4 p : TEXCOORD0, float4 q : @TEXCOORD0) : SV_Target { return p + q; }\n", "error: input semantic 'TEXCOORD0' is used more than once"},
	{"entry.sysvalue", "float4 main(uint3 id : @SV_DispatchThreadID) : SV_Target { return id.x; }\n", "error: invalid semantic 'SV_DispatchThreadID' for pixel shader input"},
	{"entry.sysvalue", "RWStructuredBuffer<float> Out;\n[numthreads(1, 1, 1)] void main(float4 p : @SV_Position) { Out[0] = p.x; }\n", "error: invalid semantic 'SV_Position' for compute shader input"},
	{"entry.sysvalue", "RWStructuredBuffer<uint> Out;\n[numthreads(4, 1, 1)] void main(uint3 d : SV_DispatchThreadID, uint2 g : SV_GroupID, uint t : SV_GroupThreadID, uint i : SV_GroupIndex) { Out[i] = d.x + g.y + t; }\n", ""},
	{"entry.sysvalue", "struct O { float4 c : SV_Target0; float4 d : SV_Target1; float z : SV_Depth; };\nO main(float4 p : SV_Position, bool f : SV_IsFrontFace, uint s : SV_SampleIndex) { O o; o.c = p; o.d = f; o.z = s; return o; }\n", ""},
	{"entry.sysvalue", "float4 main(uint v : SV_VertexID, uint i : SV_InstanceID) : SV_Position { return float4(v, i, 0, 1); }\n", ""},
	{"entry.sysvalue", "float4 main(float4 c : @SV_Target) : SV_Target { return c; }\n", "error: invalid semantic 'SV_Target' for pixel shader input"},
	{"entry.sysvalue", "RWStructuredBuffer<uint> Out;\n[numthreads(1, 1, 1)] void main(float2 i : @SV_GroupIndex) { Out[0] = i.x; }\n", "error: semantic 'SV_GroupIndex' requires a uint scalar, not 'float2'"},
	{"entry.return", "RWStructuredBuffer<float> Out;\n[numthreads(1, 1, 1)] float @main() : SV_Target { return 1; }\n", "error: compute entry point 'main' must return void"},

	// Only what the entry point uses is checked, as DXC's validator sees it.
	{"reg.overlap", "RWStructuredBuffer<float> A : register(u0);\nRWStructuredBuffer<float> B : register(u0);\n[numthreads(1, 1, 1)] void main() { A[0] = 1; }\n", ""},
	{"reg.overlap", "RWStructuredBuffer<float> A[4] : register(u0);\nRWStructuredBuffer<float> B : @register(u3);\n[numthreads(1, 1, 1)] void main() { A[1][0] = 1; B[0] = 2; }\n", "error: resource 'B' at register u3 in space 0 overlaps resource 'A' at u0 (size 4)"},
	{"reg.overlap", "cbuffer C : register(b1) { float k; }\ncbuffer D : @register(b1) { float j; }\nRWStructuredBuffer<float> Out;\n[numthreads(1, 1, 1)] void main() { Out[0] = k + j; }\n", "error: resource 'D' at register b1 in space 0 overlaps resource 'C' at b1 (size 1)"},
	{"reg.overlap", "RWStructuredBuffer<float> A : register(u0);\nStructuredBuffer<float> B : register(t0);\n[numthreads(1, 1, 1)] void main() { A[0] = B[0]; }\n", ""},
	{"decl.groupshared", "groupshared float g[8193];\nRWStructuredBuffer<float> Out;\n[numthreads(1, 1, 1)] void main() { Out[0] = 1; }\n", ""},
	{"decl.groupshared", "groupshared float4 a[1024];\ngroupshared float4 b[1024];\nRWStructuredBuffer<float> Out;\nvoid f(uint i) { b[i] = 1; }\n[numthreads(1, 1, 1)] void main(uint i : SV_GroupIndex) { a[i] = 1; f(i); Out[0] = a[0].x + b[1].x; }\n", ""},
	{"decl.groupshared", "groupshared float4 a[1024];\ngroupshared float4 b[1024];\ngroupshared float c;\nRWStructuredBuffer<float> Out;\nvoid f(uint i) { b[i] = 1; }\n[numthreads(1, 1, 1)] void main(uint i : SV_GroupIndex) { a[i] = 1; f(i); c = 1; Out[0] = a[0].x + @b[1].x + c; }\n", "error: entry point 'main' uses 32772 bytes of groupshared memory with 'b'"},
	{"entry.semantic", "float4 main(float4 p[2] : TEXCOORD0, float4 q : @TEXCOORD1) : SV_Target { return p[0] + q; }\n", "error: input semantic 'TEXCOORD1' is used more than once"},
	{"entry.semantic", "struct O { float4 a : SV_Target0; float4 b : @SV_Target0; };\nO main() { O o = (O)0; return o; }\n", "error: output semantic 'SV_Target0' is used more than once"},
	{"entry.semantic", "void main(float4 p : TEXCOORD0, inout float4 q : TEXCOORD1, out float4 o : SV_Position) { o = p + q; }\n", ""},
	{"entry.semantic", "RWStructuredBuffer<uint> Out;\n[numthreads(1, 1, 1)] void main(uint3 a : SV_DispatchThreadID, uint3 b : @SV_DispatchThreadID) { Out[0] = a.x + b.x; }\n", "error: input semantic 'SV_DispatchThreadID' is used more than once"},
	// Semantic cascading: a struct's members take consecutive indices, an
	// array member one per element.
	{"entry.semantic", "struct A { float a; float b[4]; float2 c; };\nfloat4 main(A s : CASCADE, float x : CASCADE6) : SV_Position { return float4(s.a, s.b[3], s.c) + x; }\n", ""},
	{"entry.semantic", "struct A { float a; float b[4]; float2 c; };\nfloat4 main(A s : CASCADE, float x : @CASCADE5) : SV_Position { return float4(s.a, s.b[3], s.c) + x; }\n", "error: input semantic 'CASCADE5' is used more than once"},

	// --- Types: template defaults and unsigned spellings.
	{"type.template", rcs("vector v = 1; vector<int> a = 2; vector<uint, 2> b = 3; matrix m = 4; matrix<int> c = 5; matrix<int, 2> d = 6; matrix<float, 2, 3> e = 7; Out[0] = v + a.w + b.y + m._44 + c._44 + d._24 + e._23;"), ""},
	{"type.template", rcs("@vector<int, 2, 3> v = 1; Out[0] = v.x;"), "error: too many template arguments for 'vector'"},
	{"type.template", rcs("vector<int, @5> v = 1; Out[0] = v.x;"), "error: vector dimension must be between 1 and 4 (is 5)"},
	{"type.unsigned", rcs("unsigned a = 1; unsigned int b = 2; unsigned int2 c = 3; unsigned int2x3 d = 4; unsigned dword e = 5; Out[0] = a + b + c.y + d._23 + e;"), ""},
	{"type.unsigned", "int f(uint2 x) { return 1; }\nfloat f(int2 x) { return 0; }\n" + rcs("unsigned int2 u = 1; int r = f(u); Out[0] = r;"), ""},
	{"lex.reserved", rcs("@signed int a = 1; Out[0] = a;"), "error: 'signed' is a reserved keyword in HLSL"},

	// --- Return paths: constant conditions are folded as clang's CFG does.
	{"stmt.return", "int f(int x) { if (true) return x; }\nint g(int x) { if (0) { } else { return x; } }\nint h(int x) { while (1) { if (x) return 1; } }\nstatic const bool k = true;\nint j(int x) { if (k) return 2; }\n" + rcs("Out[0] = f(1) + g(2) + h(3) + j(4);"), ""},
	{"stmt.return", "int f(int x) { if (x) return 1; @}\n" + rcs("Out[0] = f(1);"), "error: not all control paths of 'f' return a value"},
	{"stmt.return", "int f(int x) { if (false) return 1; @}\n" + rcs("Out[0] = f(1);"), "error: not all control paths of 'f' return a value"},

	// --- const locals without an initializer (default initialization is a
	// no-op in DXC's HLSL initialization).
	{"decl.const", rcs("const float c; static const int k; Out[0] = 1;"), ""},

	// --- Swizzles and indices.
	{"expr.swizzle", rcs("float4 v = 1; v.xz = 2; v.w = v.y; float4x4 m = 1; m._m00_m11 = 3; Out[0] = v + m._11;"), ""},
	{"expr.swizzle", rcs("float4 v = 1; @v.xx = 2; Out[0] = v;"), "error: invalid write mask 'xx': vector is not assignable (contains duplicate components)"},
	{"expr.swizzle", rcs("float4 v = 1; Out[0] = @v.xyrg;"), "error: invalid swizzle 'xyrg': cannot mix xyzw and rgba components"},
	{"expr.swizzle", rcs("float4 v = 1; Out[0] = @v.xyzwx;"), "error: swizzle 'xyzwx' has more than 4 components"},
	{"expr.swizzle", rcs("float4x4 m = 1; Out[0] = @m._55;"), "error: matrix swizzle '_55' is out of bounds for 'float4x4'"},
	{"expr.index", rcs("int a[2] = { 1, 2 }; Out[0] = a[@2];"), "error: array index 2 is out of bounds (the array has 2 elements)"},
	{"expr.index", rcs("float4 v = 1; Out[0] = v[@4];"), "error: index 4 is out of bounds for 'float4'"},
	{"expr.array-op", rcs("int a[2] = { 1, 2 }; int b[2] = { 1, 2 }; Out[0] = @a == b;"), "error: invalid operands to binary expression ('int [2]' and 'int [2]')"},
	{"expr.bool-op", rcs("bool b = true; @b++; Out[0] = b;"), "error: operator '++' cannot be applied to type 'bool'"},
	{"expr.shift", rcs("int x = id.x; Out[0] = x << @40;"), "warning: shift count 40 is not less than the width of 'int' (32 bits); only its low 5 bits are used (8)"},
	// Literal operands fold at 64 bits instead (lex.literal): no warning.
	{"expr.shift", rcs("Out[0] = @1 << 40;"), "warning: literal expression value 1099511627776 does not fit in 32 bits; it is used as -2147483648"},

	// --- Register bindings.
	{"reg.class", "RWStructuredBuffer<float> Out : register(u0);\nStructuredBuffer<float> In : register(t0, space1);\ncbuffer C : register(b3) { float k; }\nfloat g : register(c5);\n[numthreads(1, 1, 1)] void main() { Out[0] = In[0] + k + g; }\n", ""},
	{"reg.class", "RWStructuredBuffer<float> Out : @register(t0);\n[numthreads(1, 1, 1)] void main() { Out[0] = 1; }\n", "error: invalid register class 't' for 'RWStructuredBuffer<float>': expected 'u'"},
	{"reg.class", "StructuredBuffer<float> In : @register(u0);\nRWStructuredBuffer<float> Out;\n[numthreads(1, 1, 1)] void main() { Out[0] = In[0]; }\n", "error: invalid register class 'u' for 'StructuredBuffer<float>': expected 't'"},
	{"reg.class", "cbuffer C : @register(t0) { float k; }\nRWStructuredBuffer<float> Out;\n[numthreads(1, 1, 1)] void main() { Out[0] = k; }\n", "error: invalid register class 't' for constant buffer: expected 'b'"},
	{"reg.class", "RWStructuredBuffer<int> A[2] : register(u0);\nStructuredBuffer<int> B[2][3] : register(t4, space2);\n[numthreads(1, 1, 1)] void main() { A[1][0] = 1; }\n", ""},
	{"reg.class", "RWStructuredBuffer<int> A[2] : @register(t0);\n[numthreads(1, 1, 1)] void main() { A[1][0] = 1; }\n", "error: invalid register class 't' for 'RWStructuredBuffer<int> [2]': expected 'u'"},
	{"reg.syntax", "RWStructuredBuffer<float> Out : register(@x0);\n[numthreads(1, 1, 1)] void main() { Out[0] = 1; }\n", "error: invalid register 'x0': expected b, t, u, s, c or i and a number"},
	// The number may be omitted (register 0), and i is a class for numbers.
	{"reg.syntax", "float g : register(c);\nint h : register(i1);\nfloat k : register(b2);\nRWStructuredBuffer<float> Out : register(u);\nfloat4 main() : SV_Target { Out[0] = h; return g + k; }\n", ""},
	{"reg.class", "float g : @register(t0);\nfloat4 main() : SV_Target { return g; }\n", "error: invalid register class 't' for 'float': expected 'b', 'c' or 'i'"},
	{"reg.syntax", "RWStructuredBuffer<float> Out : register(u0, @space);\n[numthreads(1, 1, 1)] void main() { Out[0] = 1; }\n", "error: invalid register space 'space': expected 'space' and a number from 0 to 4294967295"},
	{"reg.syntax", "float4 a : register(c2[-1]);\nfloat4 b : register(c0[1 + 2]);\nfloat4 main() : SV_Target { return a + b; }\n", ""},
	{"reg.overlap", "RWStructuredBuffer<float> A : register(u0);\nRWStructuredBuffer<float> B : @register(u0);\n[numthreads(1, 1, 1)] void main() { A[0] = 1; B[0] = 2; }\n", "error: resource 'B' at register u0 in space 0 overlaps resource 'A' at u0 (size 1)"},
	{"reg.overlap", "RWStructuredBuffer<float> A : register(u0);\nRWStructuredBuffer<float> B : register(u0, space1);\n[numthreads(1, 1, 1)] void main() { A[0] = 1; B[0] = 2; }\n", ""},

	// --- Intrinsics.
	{"intr.overload", rcs("Out[0] = sin(1) + abs(-2) + dot(float3(1, 2, 3), id) + max(id.x, 2u) + lerp(0, 1, 0.5);"), ""},
	// A vector given for a scalar template parameter is truncated, and
	// arguments sharing a dimension template take the smallest one, both
	// with the truncation warning (DXC's MatchArguments).
	{"intr.overload", "RWStructuredBuffer<uint> U;\n[numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { U[0] = WaveActiveCountBits(@id.xy > 1); }\n", "warning: implicit truncation of vector type"},
	{"intr.overload", rcs("Out[0] = dot(float3(1, 2, 3), @float4(1, 2, 3, 4));"), "warning: implicit truncation of vector type"},
	{"intr.overload", rcs("Out[0] = @sin(1, 2);"), "error: too many arguments to function call 'sin', expected 1, have 2"},
	{"intr.quad", "RWStructuredBuffer<float4> Out;\n[numthreads(4, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\nfloat v = id.x; Out[0] = float4(ddx(v), ddy_fine(v), fwidth(v), QuadReadLaneAt(v, 2)) + (QuadAny(v > 1) ? 1 : 0);\n}\n", ""},
	{"intr.quad", rcs("float2x2 m = id.x; Out[0] = @QuadReadAcrossX(m)[0].xyxy;"), "error: 'QuadReadAcrossX' does not accept matrices"},
	{"intr.overload", "struct S { float x; };\n" + rcs("S s = { 1 }; Out[0] = abs(@s);"), "error: no matching intrinsic overload for 'abs': argument of type 'S' is not a scalar, vector or matrix"},
}

// cut returns src without its "@" marker and the marker's line and
// column (0, 0 when there is none).
func cut(src string) (string, int, int) {
	i := strings.IndexByte(src, '@')
	if i < 0 {
		return src, 0, 0
	}
	line := 1 + strings.Count(src[:i], "\n")
	col := i - strings.LastIndexByte(src[:i], '\n')
	return src[:i] + src[i+1:], line, col
}

func TestRules(t *testing.T) {
	rules := map[string]int{}
	for i, c := range ruleCases {
		src, line, col := cut(c.src)
		name := fmt.Sprintf("%s#%d", c.rule, i)
		rules[c.rule]++
		prog, diags := compile(t, src, ruleOptions(t, src))
		if c.want == "" {
			for _, d := range diags {
				t.Errorf("%s: valid variant reports %s: %s\n%s", name, d.Pos, d.Message, src)
			}
			continue
		}
		sev, text, _ := strings.Cut(c.want, ": ")
		found := false
		for _, d := range diags {
			if d.Severity.String() == sev && strings.Contains(d.Message, text) && (line == 0 || d.Pos.Line == line && d.Pos.Col == col) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want %q at %d:%d, got:\n%s\n%s", name, c.want, line, col, render(prog, diags), src)
		}
		if line == 0 && sev == "error" && !diags.HasErrors() {
			t.Errorf("%s: invalid variant accepted", name)
		}
		if sev == "warning" && diags.HasErrors() {
			t.Errorf("%s: variant valid with a warning reports errors:\n%s", name, render(prog, diags))
		}
	}
	t.Logf("%d rules, %d cases", len(rules), len(ruleCases))
	// docs/hlsl-rules.md describes every rule the table tests, and the
	// table tests every rule the doc lists ("### id" headings).
	doc, err := os.ReadFile("../../docs/hlsl-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, l := range strings.Split(string(doc), "\n") {
		if id, ok := strings.CutPrefix(l, "### "); ok {
			id, _, _ = strings.Cut(id, " ")
			documented[strings.Trim(id, "`")] = true
		}
	}
	for r := range rules {
		if !documented[r] {
			t.Errorf("rule %s is tested but not in docs/hlsl-rules.md", r)
		}
	}
	for r := range documented {
		if rules[r] == 0 {
			t.Errorf("rule %s is in docs/hlsl-rules.md but has no case", r)
		}
	}
}
