package hlsl

import (
	"strings"
	"testing"
)

func TestEntryCompute(t *testing.T) {
	prog, diags := compile(t, `
struct CSIn { uint3 gtid : SV_GroupThreadID; uint gi : SV_GroupIndex; };
RWStructuredBuffer<uint> o;
[numthreads(8, 4, 2)]
void main(uint3 id : SV_DispatchThreadID, CSIn s, uint2 gid : SV_GroupID)
{
	o[id.x] = s.gi + gid.y;
}`, Options{})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	ep := prog.Entry
	if ep.Stage != StageCompute || ep.NumThreads != [3]int{8, 4, 2} {
		t.Fatalf("stage %v threads %v", ep.Stage, ep.NumThreads)
	}
	var got []string
	for _, in := range ep.Inputs {
		got = append(got, in.Name)
	}
	if strings.Join(got, ",") != "SV_DISPATCHTHREADID,SV_GROUPTHREADID,SV_GROUPINDEX,SV_GROUPID" {
		t.Errorf("inputs %v", got)
	}
	if ep.Inputs[2].SysValue != SVGroupIndex || len(ep.Inputs[2].Path) != 1 || ep.Inputs[2].Path[0] != 1 {
		t.Errorf("struct member input: %+v", ep.Inputs[2])
	}
}

func TestEntryPixel(t *testing.T) {
	prog, diags := compile(t, `
struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; nointerpolation uint id : ID; };
struct PSOut { float4 c0 : SV_Target0; float4 c1 : SV_Target1; float d : SV_Depth; };
PSOut main(VSOut i, bool front : SV_IsFrontFace, out float4 extra : COLOR2)
{
	PSOut o = (PSOut)0;
	o.c0 = i.pos;
	extra = 1;
	return o;
}`, Options{})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	ep := prog.Entry
	if ep.Stage != StagePixel {
		t.Fatalf("stage %v", ep.Stage)
	}
	if len(ep.Inputs) != 4 || len(ep.Outputs) != 4 {
		t.Fatalf("%d inputs, %d outputs", len(ep.Inputs), len(ep.Outputs))
	}
	if ep.Inputs[2].Interp&ModNoInterpolation == 0 {
		t.Error("nointerpolation lost")
	}
	extra := ep.Outputs[0]
	if extra.SysValue != SVTarget || extra.Index != 2 || extra.Param == nil {
		t.Errorf("COLOR2 output: %+v", extra)
	}
	if ep.Outputs[3].SysValue != SVDepth || ep.Outputs[3].Param != nil {
		t.Errorf("depth output: %+v", ep.Outputs[3])
	}
}

func TestEntryVertexAndOptions(t *testing.T) {
	src := `
float4x4 mvp;
void vsmain(float3 p : POSITION, uint vid : SV_VertexID, out float4 o : SV_Position, out float2 uv : TEXCOORD)
{
	o = mul(float4(p, 1), mvp);
	uv = float2(vid & 1, vid >> 1);
}`
	prog, diags := compile(t, src, Options{Entry: "vsmain"})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	if prog.Entry.Stage != StageVertex || len(prog.Entry.Outputs) != 2 {
		t.Fatalf("stage %v outputs %d", prog.Entry.Stage, len(prog.Entry.Outputs))
	}
	_, diags = compile(t, src, Options{})
	if got := messages(diags); !strings.Contains(got, "missing entry point function 'main'") {
		t.Errorf("got %s", got)
	}
	_, diags = compile(t, src, Options{Entry: "vsmain", Stage: StagePixel})
	if got := messages(diags); !strings.Contains(got, "invalid semantic 'SV_VertexID' for pixel shader input") {
		t.Errorf("got %s", got)
	}
}

func TestEntryErrors(t *testing.T) {
	tests := []struct {
		src  string
		opts Options
		want string
	}{
		{"void main(uint3 id : SV_DispatchThreadID) {}", Options{Stage: StageCompute}, "requires a [numthreads(x, y, z)] attribute"},
		{"[numthreads(1,1,1)] void main(float4 p : SV_Position) {}", Options{}, "invalid semantic 'SV_Position' for compute shader input"},
		{"[numthreads(1,1,1)] void main(uint id) {}", Options{}, "missing semantic for entry point input 'id'"},
		{"[numthreads(1,1,1)] void main(float id : SV_GroupIndex) {}", Options{}, "requires a uint scalar"},
		{"[numthreads(32,32,2)] void main() {}", Options{}, "exceeds 1024"},
		{"float4 main() : SV_Target { return 0; } ", Options{}, ""},
		{"float4 main() { return 0; }", Options{Stage: StagePixel}, "missing semantic for entry point output return value"},
		{"float4 main() : TEXCOORD { return 0; }", Options{Stage: StagePixel}, "invalid semantic 'TEXCOORD' for pixel shader output"},
		{"float4 main() : SV_Target9 { return 0; }", Options{}, "render target index 9"},
		{"float4 main() : SV_Foo { return 0; }", Options{Stage: StagePixel}, "unknown system value semantic 'SV_Foo'"},
		{"void main(out float4 a : SV_Target, out float4 b : SV_Target0) {}", Options{}, "output semantic 'SV_Target0' is used more than once"},
		{"void main() {}", Options{}, "cannot infer the shader stage"},
		{"float4 main() : SV_Target { GroupMemoryBarrierWithGroupSync(); return 0; }", Options{}, "only available in compute shaders"},
		{"[numthreads(1,1,1)] void main() { discard; }", Options{}, "'discard' is only allowed in pixel shaders"},
		{"float4 main(uniform float4 c) : SV_Target { return c; }", Options{}, ""},
		{"[numthreads(4,1,1)] void main();\nvoid main() {}", Options{}, ""},
	}
	for _, tt := range tests {
		_, diags := compile(t, tt.src, tt.opts)
		got := messages(diags)
		if tt.want == "" && diags.HasErrors() || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s:\ngot  %s\nwant %q", tt.src, got, tt.want)
		}
	}
}
