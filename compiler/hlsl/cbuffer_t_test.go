package hlsl

import (
	"strings"
	"testing"
)

func TestConstantBufferTArray(t *testing.T) {
	src := `struct S { int4 c; };
[[vk::binding(3)]] ConstantBuffer<S> CB[3] : register(b2, space1);
RWStructuredBuffer<int4> o : register(u0);
[numthreads(1,1,1)] void main() { o[0] = CB[0].c + CB[2].c; }
`
	prog, diags := compile(t, src, Options{})
	if len(diags) > 0 {
		t.Fatalf("%s", render(prog, diags))
	}
	var names []string
	for _, b := range prog.Buffers {
		names = append(names, b.Name)
		if strings.HasPrefix(b.Name, "CB.") {
			k := int(b.Name[3] - '0')
			if b.Register == nil || b.Register.Index != 2+k || b.Register.Space != 1 || b.Vk.Binding != 3+k || len(b.Members) != 1 {
				t.Errorf("%s: register %+v vk %+v", b.Name, b.Register, b.Vk)
			}
		}
	}
	if got := strings.Join(names, " "); got != "CB.0 CB.1 CB.2" {
		t.Errorf("buffers %s, want one per element", got)
	}
}

func TestConstantBufferT(t *testing.T) {
	src := `struct S { int a; float4 b; };
[[vk::binding(2)]] ConstantBuffer<S> CB : register(b4);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(1,1,1)] void main() { o[0] = CB.b * CB.a; }
`
	prog, diags := compile(t, src, Options{})
	if len(diags) > 0 {
		t.Fatalf("%s", render(prog, diags))
	}
	var cb *CBuffer
	for _, b := range prog.Buffers {
		if b.Name == "CB" {
			cb = b
		}
	}
	if cb == nil || cb.Of == nil || cb.Of.Struct.Name != "S" || len(cb.Members) != 1 || cb.Members[0].Name != "CB" {
		t.Fatalf("CB is not a constant buffer holding one S: %+v", cb)
	}
	if cb.Register == nil || cb.Register.Class != 'b' || cb.Register.Index != 4 || !cb.Vk.HasBinding || cb.Vk.Binding != 2 {
		t.Errorf("bindings %+v %+v", cb.Register, cb.Vk)
	}
	for _, tc := range []struct{ src, want string }{
		{"ConstantBuffer<float4> c;", "1:16: error: 'ConstantBuffer' needs a struct type, not 'float4'"},
		{"struct S { float x; };\nConstantBuffer<S> c : register(t0);", "2:23: error: invalid register class 't' for ConstantBuffer: expected 'b'"},
		{"struct S { float x; };\nConstantBuffer<S> c[2][2];", "2:1: error: arrays of ConstantBuffer<S> with more than one dimension are not supported"},
		{"struct S { float x; };\nConstantBuffer<S> c[];", "2:1: error: an array of ConstantBuffer<S> needs a size"},
		{"struct S { float x; };\nConstantBuffer<S> c[2] : register(u0);", "2:26: error: invalid register class 'u' for ConstantBuffer: expected 'b'"},
		{"struct S { float x; };\nConstantBuffer<S> c[2];\n[numthreads(1,1,1)] void f() { c[0].x = 1; }", "3:32: error: cannot assign to uniform variable 'c'"},
		{"struct S { float x; };\nstatic ConstantBuffer<S> c;", "error: a ConstantBuffer cannot be static or groupshared"},
		{"struct S { float x; };\nfloat c;\nConstantBuffer<S> c;", "3:19: error: redefinition of 'c'"},
		{"ConstantBuffer<Nope> c;", "1:16: error: unknown type name 'Nope'"},
	} {
		_, diags := compile(t, tc.src+vkMain, Options{})
		if got := diags.String(); !strings.Contains(got, tc.want) {
			t.Errorf("%s\ngot  %s\nwant %s", tc.src, got, tc.want)
		}
	}
}
