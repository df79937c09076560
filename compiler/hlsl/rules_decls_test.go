package hlsl

// Rule cases of docs/hlsl-rules.md, "Structs and resources as values"
// (issue 17 item 4), appended to ruleCases (TestRules).
func init() {
	ruleCases = append(ruleCases, declRuleCases...)
}

var declRuleCases = []ruleCase{
	// class is a struct whose members are all accessible.
	{"decl.struct-class", "class C { float x; float get() { return x; } };\n" + rcs("C c; c.x = 2; Out[0] = c.x + c.get();"), ""},
	{"decl.struct-class", "class C { float x; };\n" + rcs("C c; c.x = 2; Out[0] = @c.y;"), "error: no member named 'y' in 'C'"},
	// Single inheritance: the base's fields first.
	{"decl.struct-base", "struct B { float a; };\nstruct D : B { float b; };\n" + rcs("D d; d.a = 1; d.b = 2; Out[0] = d.a + d.b;"), ""},
	{"decl.struct-base", "struct B { float a; };\nstruct D : public B { float b; };\n" + rcs("D d = { 1, 2 }; Out[0] = d.a;"), ""},
	{"decl.struct-base", "struct D : @Missing { float b; };\n" + rcs("Out[0] = 1;"), "error: expected struct name: 'Missing' is not a struct"},
	{"decl.struct-base", "struct A { float a; };\nstruct B { float b; };\nstruct D : A@, B { float c; };\n" + rcs("Out[0] = 1;"), "error: multiple inheritance is not supported"},
	{"decl.struct-base", "struct B { float a; };\nstruct D : @private B { float b; };\n" + rcs("Out[0] = 1;"), "error: 'private' inheritance is not supported"},
	{"decl.struct-base", "struct B { float a; };\nstruct D : B { float @a; };\n" + rcs("Out[0] = 1;"), "error: duplicate member 'a'"},
	// Member functions: this, implicit members, calls.
	{"decl.struct-method", "struct S { float x; void set(float v) { x = v; } float twice() { return this.x + get(); } float get() { return x; } };\n" + rcs("S s; s.set(3); Out[0] = s.twice();"), ""},
	{"decl.struct-method", "struct B { float a; void inc() { a += 1; } };\nstruct D : B { float b; void both() { inc(); b = a; } };\n" + rcs("D d; d.a = 1; d.both(); d.inc(); Out[0] = d.a + d.b;"), ""},
	{"decl.struct-method", "struct S { float x; };\n" + rcs("S s; s.x = 1; Out[0] = @s.get();"), "error: no member function named 'get' in 'S'"},
	// Out-of-line definitions and overloads (member_outofline.go).
	{"decl.struct-method", "struct S { float x; float get(); float twice(); static float sq(float v); };\nfloat S::twice() { return get() * 2; }\nfloat S::get() { return x; }\nfloat S::sq(float v) { return v * v; }\n" + rcs("S s; s.x = 1; Out[0] = s.twice() + S::sq(3);"), ""},
	{"decl.struct-method", "struct S { float x; float get() { return x; } float get(int k) { return x + k; } float get(float a, float b) { return a * b; } };\n" + rcs("S s; s.x = 1; Out[0] = s.get() + s.get(2) + s.get(2.0, 3.0);"), ""},
	{"decl.struct-method", "struct S { float x; float get() { return x; } float @get() { return 2; } };\n" + rcs("S s; s.x = 1; Out[0] = s.x;"), "error: class member 'get' cannot be redeclared"},
	{"decl.struct-method", "struct S { float x; float get(); };\nfloat @S::get(int k) { return k; }\n" + rcs("S s; s.x = 1; Out[0] = s.x;"), "error: out-of-line definition of 'get' does not match any declaration in 'S'"},
	{"decl.struct-method", "struct S { float x; float get(); };\nint @S::get() { return 1; }\n" + rcs("S s; s.x = 1; Out[0] = s.x;"), "error: return type of out-of-line definition of 'S::get' differs from that in the declaration"},
	{"decl.struct-method", "struct S { float x; float get(); };\nfloat S::get() { return x; }\nfloat @S::get() { return 2; }\n" + rcs("S s; s.x = 1; Out[0] = s.x;"), "error: redefinition of 'S::get'"},
	{"decl.struct-method", "struct S { float x; float get(); };\n" + rcs("S s; s.x = 1; Out[0] = @s.get();"), "error: function 'get' is declared but never defined"},
	{"decl.struct-method", "struct S { float x; float get(int a) { return a; } float get(uint a) { return a; } };\n" + rcs("S s; Out[0] = @s.get(2.5);"), "error: call to 'get' is ambiguous"},
	{"decl.struct-method", "struct S { float x; float get() { return x; } };\nstruct T { float y; };\n" + rcs("T t; t.y = 1; Out[0] = @t.get();"), "error: no member function named 'get' in 'T'"},
	// Static members.
	{"decl.struct-static", "struct S { float a; static float s; static float sq(float v) { return v * v; } };\nfloat S::s = 2;\n" + rcs("S o; o.a = 1; Out[0] = o.a + S::s + o.s + S::sq(3);"), ""},
	{"decl.struct-static", "struct S { float a; static float s; };\nfloat @S::t = 2;\n" + rcs("Out[0] = 1;"), "error: no static data member named 't' in 'S'"},
	{"decl.struct-static", "struct S { float a; float get() { return a; } };\n" + rcs("Out[0] = @S::get();"), "error: call to non-static member function 'S::get' without an object"},
	{"decl.struct-static", "struct S { float a; static float s; };\n" + rcs("Out[0] = @S::t;"), "error: no static member named 't' in 'S'"},
	// Buffers as values.
	{"decl.resource-value", "RWStructuredBuffer<float4> G : register(u1);\nRWStructuredBuffer<float4> K : register(u2);\nRWStructuredBuffer<float4> pick(bool c) { return c ? K : G; }\nstruct H { RWStructuredBuffer<float4> b; };\n" +
		rcs("RWStructuredBuffer<float4> r = Out; r = G; RWStructuredBuffer<float4> a[2]; a[0] = Out; a[1] = G; H h; h.b = a[id.x % 2]; h.b[0] = 1; pick(id.x > 0)[1] = 2; r[2] = 3;"), ""},
	{"decl.resource-value", "RWStructuredBuffer<float4> G : register(u1);\n" + rcs("@Out = G;"), "error: cannot assign to resource variable 'Out'"},
	{"decl.resource-value", "Texture2D<float4> T;\n" + rcs("Texture2D<float4> @t;"), "error: local resource variable 't' must be initialized"},
	{"decl.resource-value", "RWStructuredBuffer<float4> G : register(u1);\n" + rcs("RWStructuredBuffer<float> r = @G;"), "error: cannot implicitly convert from 'RWStructuredBuffer<float4>'"},
	// One register per class on a struct of resources.
	{"decl.resource-register", "struct P { RWBuffer<float> u; Buffer<float> t; };\nP p : register(u3) : register(t2);\n" + rcs("p.u[0] = p.t[0]; Out[0] = 1;"), ""},
	{"decl.resource-register", "RWBuffer<float> b : register(u3) : @register(t2);\n" + rcs("b[0] = 1; Out[0] = 1;"), "error: conflicting register reservations for the same declaration"},
	{"decl.resource-register", "struct P { RWBuffer<float> u; };\nP p : register(u3) : @register(u4);\n" + rcs("p.u[0] = 1; Out[0] = 1;"), "error: conflicting register reservations for the same declaration"},
	// Templated raw loads and stores.
	{"decl.raw-template", "struct S { int a; float2 b; bool c; };\ntypedef float3 F3x2[2];\nRWByteAddressBuffer R : register(u2);\n" + rcs("S s = R.Load<S>(0); float2x2 m = R.Load<float2x2>(16); R.Store<S>(32, s); R.Store(48, s); uint st; F3x2 f = R.Load<F3x2>(8, st); R.Store<F3x2>(64, f); Out[0] = s.b.x + m[1][0];"), ""},
	{"decl.raw-template", "RWByteAddressBuffer R : register(u2);\n" + rcs("double d = R.Load<double>(0); R.Store<uint64_t>(8, 1); Out[0] = d;"), ""},
	{"decl.raw-template", "RWByteAddressBuffer R : register(u2);\nstruct H { RWBuffer<float> b; };\n" + rcs("H h = R.Load<@H>(0); Out[0] = 1;"), "error: 'Load<H>': a resource cannot be loaded or stored"},
	{"decl.raw-template", "RWStructuredBuffer<float> S : register(u2);\n" + rcs("Out[0] = @S.Load<float>(0);"), "error: 'Load' of 'RWStructuredBuffer<float>' takes no template argument"},
	{"decl.raw-template", "ByteAddressBuffer R : register(t2);\n" + rcs("@R.Store<float>(0, 1.0);"), "error: no member function named 'Store' in 'ByteAddressBuffer'"},
	// A comparison with a constructor after a member is no template argument.
	{"decl.raw-template", "struct S { float x; };\n" + rcs("S s; s.x = id.x; Out[0] = s.x < float(3) ? 1 : 0;"), ""},
	// select on structs.
	{"expr.select-struct", "struct S { float a; int b; };\n" + rcs("S x = { 1, 2 }; S y = { 3, 4 }; S z = select(id.x > 0, x, y); Out[0] = z.a + z.b;"), ""},
	{"expr.select-struct", "struct S { float a; };\nstruct T { float a; };\n" + rcs("S x = { 1 }; T y = { 3 }; S z = @select(id.x > 0, x, y); Out[0] = z.a;"), "error: no matching intrinsic overload for 'select': operands of different types ('S' and 'T')"},
	{"expr.select-struct", "struct S { float a; };\n" + rcs("S x = { 1 }; S z = select(@id.xy > 0, x, x); Out[0] = z.a;"), "error: no matching intrinsic overload for 'select': the condition of a select on structs must be a scalar"},
	// Append and consume buffers.
	{"decl.append-consume", "struct E { float v; uint k; };\nAppendStructuredBuffer<E> A : register(u1);\nConsumeStructuredBuffer<E> C : register(u2);\n" + rcs("E e = C.Consume(); A.Append(e); uint n, s; A.GetDimensions(n, s); Out[0] = n + s;"), ""},
	{"decl.append-consume", "AppendStructuredBuffer<float> A : register(u1);\n" + rcs("Out[0] = @A[0];"), "error: 'AppendStructuredBuffer<float>' cannot be indexed; use its Append/Consume methods"},
	{"decl.append-consume", "ConsumeStructuredBuffer<float> C : register(u1);\n" + rcs("@C.Append(1.0); Out[0] = 1;"), "error: no member function named 'Append' in 'ConsumeStructuredBuffer<float>'"},
	{"decl.append-consume", "[[vk::counter_binding(4)]] AppendStructuredBuffer<float> A : register(u1);\n" + rcs("A.Append(1.0); Out[0] = 1;"), ""},
	{"decl.append-consume", "[[@vk::counter_binding(4)]] RWBuffer<float> B : register(u1);\n" + rcs("B[0] = 1; Out[0] = 1;"), "error: 'vk::counter_binding' applies to RWStructuredBuffer, AppendStructuredBuffer and ConsumeStructuredBuffer globals, not to 'B'"},
	// Local ConstantBuffer<T>: a const copy of the buffer.
	{"decl.cbuffer-local", "struct S { float4 v; };\nConstantBuffer<S> C[2] : register(b1);\n" + rcs("ConstantBuffer<S> c = C[id.x % 2]; ConstantBuffer<S> d = C[1]; Out[0] = c.v + d.v;"), ""},
	{"decl.cbuffer-local", "struct S { float4 v; };\nConstantBuffer<S> C : register(b1);\n" + rcs("ConstantBuffer<S> c = C; @c.v = 1; Out[0] = c.v;"), "error: cannot assign to variable 'c' with const-qualified type"},
	{"decl.cbuffer-local", rcs("ConstantBuffer<@float4> c; Out[0] = 1;"), "error: a local ConstantBuffer needs a struct type, not 'float4'"},
	{"decl.cbuffer-local", "struct S { float4 v; };\n" + rcs("ConstantBuffer<S> c = @(S)1; Out[0] = c.v;"), "error: cannot initialize a variable of type 'ConstantBuffer<S>' with a value that is not a ConstantBuffer"},
	// Load with a status, CheckAccessFullyMapped.
	{"intr.status", "StructuredBuffer<float4> S : register(t1);\nByteAddressBuffer R : register(t2);\n" + rcs("uint st, st2; float4 v = S.Load(0, st); uint2 w = R.Load2(0, st2); Out[0] = CheckAccessFullyMapped(st) && CheckAccessFullyMapped(st2) ? v : w.x;"), ""},
	{"intr.status", "StructuredBuffer<float4> S : register(t1);\n" + rcs("uint st; float4 v = @S.Load(0, st, st); Out[0] = v;"), "error: 'Load' of 'StructuredBuffer<float4>' expects 1 argument, have 3"},
}
