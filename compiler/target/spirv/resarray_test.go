package spirv

import (
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/target/spirv/vkrun"
)

// resArrayShader has arrays of every descriptor type, indexed by
// constants, a uniform value (the group id) and a divergent one
// (NonUniformResourceIndex of the thread id). The arrays' Vulkan bindings
// (their first registers) do not overlap.
const resArrayShader = `
struct P { float4 v; };
ConstantBuffer<P> C[3] : register(b9);
Texture2D<float4> t[3] : register(t2);
SamplerState s[2] : register(s7);
RWTexture2D<uint> u[2] : register(u5);
RWStructuredBuffer<float4> o[2] : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 g : SV_GroupID) {
	uint i = id.x % 3;
	float4 a = t[NonUniformResourceIndex(i)].Load(int3(0, 0, 0));
	float4 b = t[g.x % 3].SampleLevel(s[g.x & 1], float2(0.5, 0.5), 0);
	float4 c = t[1].Load(int3(0, 0, 0)) + C[2].v + u[1][uint2(0, 0)];
	o[NonUniformResourceIndex(id.x & 1)][id.x] = a + b + c;
	o[g.x & 1][id.x + 8] = a;
}
`

// TestResourceArraysSPIRV: each resource array is one variable of
// OpTypeArray at one binding (the first register), indexed by access
// chains; NonUniform (with ShaderNonUniform and the descriptor type's
// *ArrayNonUniformIndexing capability) only on the divergent indices;
// spirv-val accepts it for Vulkan 1.1 and the disassembly equals
// spirv-dis. Without the device features (deviceOptions' fields) the
// divergent indices select between constant-index chains, the image
// arrays are indexed by constants only, and the module is valid too.
func TestResourceArraysSPIRV(t *testing.T) {
	m := lowerHLSL(t, resArrayShader)
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{}, {NoNonUniformIndexing: true}, {NoNonUniformIndexing: true, NoImageArrayIndexing: true}} {
		t.Logf("%+v", o)
		words, err := Assemble(m, o)
		if err != nil {
			t.Fatal(err)
		}
		if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
			t.Fatalf("%+v: spirv-val: %s", o, msg)
		}
		dis := spirvDis(t, words)
		if mine, err := Disassemble(words); err != nil || mine != dis {
			t.Errorf("%+v: disassembly differs from spirv-dis (%v)", o, err)
		}
		for name, binding := range map[string]string{"C": "9", "t": "2", "s": "7", "u": "5", "o": "0"} {
			if n := strings.Count(dis, "OpDecorate %"+name+" Binding "); n != 1 || !strings.Contains(dis, "OpDecorate %"+name+" Binding "+binding+"\n") {
				t.Errorf("%+v: array %s: %d bindings, want one at %s", o, name, n, binding)
			}
		}
		has := func(re string) bool { return regexp.MustCompile(re).MatchString(dis) }
		dynImage := has(`OpAccessChain %_ptr_UniformConstant_type_2d_image %t %rem_1\n`) // t[g.x % 3]
		dynNU := has(`OpAccessChain %_ptr_UniformConstant_type_2d_image %t %rem\n`)      // t[NURI(i)]
		switch {
		case o == Options{}:
			for _, want := range []string{"OpCapability ShaderNonUniform", "OpCapability SampledImageArrayNonUniformIndexing",
				"OpCapability StorageBufferArrayNonUniformIndexing", `OpExtension "SPV_EXT_descriptor_indexing"`} {
				if !strings.Contains(dis, want) {
					t.Errorf("missing %q", want)
				}
			}
			if !dynImage || !dynNU {
				t.Errorf("no dynamic access chains into t:\n%s", dis)
			}
			// Every access chain into an array with a dynamic index:
			// NonUniform exactly when the index is computed from the
			// thread id (t[NURI(i)], o[NURI(id.x & 1)]), not from the
			// group id (t[g.x % 3], s[g.x & 1], o[g.x & 1]).
			chains := regexp.MustCompile(`(?m)^\s*(%\S+) = OpAccessChain %\S+ %(t|s|o|u|C) (%\S+)$`).FindAllStringSubmatch(dis, -1)
			nu, uni := 0, 0
			for _, c := range chains {
				def := regexp.MustCompile(`(?m)^\s*` + c[3] + ` = .*$`).FindString(dis)
				if def == "" || strings.Contains(def, "OpConstant") {
					continue // a constant index
				}
				divergent := strings.Contains(def, "%id_x")
				if !divergent && !strings.Contains(def, "%g_x") {
					t.Errorf("index of %s not from the thread or group id: %s", c[1], def)
				}
				if decorated := strings.Contains(dis, "OpDecorate "+c[1]+" NonUniform\n"); decorated != divergent {
					t.Errorf("%s (index %s): NonUniform %v, divergent %v", c[1], def, decorated, divergent)
				}
				if divergent {
					nu++
				} else {
					uni++
				}
			}
			if nu != 2 || uni != 3 {
				t.Errorf("%d divergent and %d uniform dynamic access chains, want 2 and 3:\n%s", nu, uni, dis)
			}
		case o.NoImageArrayIndexing:
			if dynImage || dynNU || strings.Contains(dis, "ArrayNonUniformIndexing") {
				t.Errorf("%+v: a dynamic index into an image array or a NonUniform:\n%s", o, dis)
			}
		default:
			if !dynImage || dynNU || strings.Contains(dis, "ArrayNonUniformIndexing") {
				t.Errorf("%+v: want the uniform index only as an access chain:\n%s", o, dis)
			}
		}
	}
}

// TestLavapipeResourceArrayDescriptors runs resArrayShader (two groups:
// the group id changes the uniform indices) on lavapipe, every array
// bound as one arrayed descriptor with one element per descriptor, and
// in the interpreter: both buffers of o bit for bit. The device gets the
// form for the features it has (deviceOptions: lavapipe has no
// non-uniform indexing and no image array indexing).
func TestLavapipeResourceArrayDescriptors(t *testing.T) {
	info := needDevice(t)
	m := lowerHLSL(t, resArrayShader)
	in := &interp.Input{Dispatch: [3]int{2, 1, 1}}
	job := vkrun.Job{Entry: "main", Groups: [3]int{2, 1, 1}}
	for _, b := range Bindings(m) {
		g := b.Global
		vb := vkrun.Buffer{Set: b.Set, Binding: b.Binding, ArrayElement: b.ArrayIndex}
		k := uint32(b.ArrayIndex)
		switch g.Kind {
		case "Texture2D":
			var level []any
			var data []byte
			for c := uint32(0); c < 4; c++ {
				v := math.Float32bits(float32(10*k + c + 1))
				level = append(level, fmt.Sprintf("0x%08X", v))
				data = binary.LittleEndian.AppendUint32(data, v)
			}
			in.Textures = append(in.Textures, interp.TextureInput{Name: g.Name(), Format: "RGBA32F", Width: 1, Height: 1, Levels: [][]any{level}})
			vb.Image = &vkrun.Image{Format: 109, TexelBytes: 16, Width: 1, Height: 1, Layers: 1, Levels: 1, ViewType: 1, Data: data}
		case "RWTexture2D":
			in.Textures = append(in.Textures, interp.TextureInput{Name: g.Name(), Format: "R32UI", Width: 1, Height: 1, Levels: [][]any{{100 * (k + 1)}}})
			vb.Image = &vkrun.Image{Format: 98, TexelBytes: 4, Width: 1, Height: 1, Layers: 1, Levels: 1, ViewType: 1,
				Data: binary.LittleEndian.AppendUint32(nil, 100*(k+1)), Storage: true}
		case "SamplerState":
			in.Samplers = append(in.Samplers, interp.SamplerInput{Name: g.Name(), Filter: "point"})
			vb.Sampler = &vkrun.Sampler{Address: [3]uint32{2, 2, 2}, MaxLOD: 1000}
		case "cbuffer":
			vb.Uniform, vb.Data = true, make([]byte, 16) // zero, as the interpreter's default
		case "RWStructuredBuffer":
			in.Buffers = append(in.Buffers, interp.BufferInput{Name: g.Name(), Count: 16})
			vb.Data = make([]byte, 16*16)
		default:
			t.Fatalf("unexpected global %s of kind %s", g.Name(), g.Kind)
		}
		job.Buffers = append(job.Buffers, vb)
	}
	res, err := interp.Run(m, in, interp.Options{WaveSize: info.SubgroupSize})
	if err != nil {
		t.Fatal(err)
	}
	out := runOnDevice(t, m, deviceOptions(info), job)
	checked := 0
	for i, b := range Bindings(m) {
		if b.Global.Kind != "RWStructuredBuffer" {
			continue
		}
		cells := res.Buffer(b.Global.Name()).Cells
		for j, c := range cells {
			if got := binary.LittleEndian.Uint32(out[i][4*j:]); got != uint32(c) {
				t.Errorf("%s word %d: device %#x, interpreter %#x", b.Global.Name(), j, got, uint32(c))
			}
			if c != 0 {
				checked++
			}
		}
	}
	// Lane 0 (group 0) writes o[0][0] = t[0] + t[0] (s[0]) + t[1] + u[1]: x = 1 + 1 + 11 + 200.
	if got := math.Float32frombits(uint32(res.Buffer("o.0").Cells[0])); got != 213 {
		t.Errorf("interpreter o[0][0].x = %v, want 213", got)
	}
	if checked < 32 {
		t.Errorf("only %d non-zero words compared", checked)
	}
}

// unboundedShader indexes an unbounded buffer array with constants, a
// uniform value (the group id) and a divergent one.
const unboundedShader = `
[[vk::binding(3)]] RWBuffer<int> Buf[] : register(u0);
RWStructuredBuffer<int> o : register(u1);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 g : SV_GroupID) {
	Buf[NonUniformResourceIndex(id.x)][0] += 100;
	o[id.x] = Buf[g.x][1] + Buf[2][2];
}
`

// TestUnboundedArraySPIRV: an unbounded array is one OpTypeRuntimeArray
// variable at its binding with RuntimeDescriptorArray (DXC's form), or an
// OpTypeArray of Options.UnboundedArrayLen; NonUniform only on the
// divergent index; a device without non-uniform indexing selects between
// the bound elements. spirv-val accepts every form; the disassembly
// equals spirv-dis; the device form without an element count is a clear
// error.
func TestUnboundedArraySPIRV(t *testing.T) {
	m := lowerHLSL(t, unboundedShader)
	for _, o := range []Options{{}, {UnboundedArrayLen: 5}, {UnboundedArrayLen: 5, NoNonUniformIndexing: true}} {
		words, err := Assemble(m, o)
		if err != nil {
			t.Fatal(err)
		}
		if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
			t.Fatalf("%+v: spirv-val: %s", o, msg)
		}
		dis := spirvDis(t, words)
		if mine, err := Disassemble(words); err != nil || mine != dis {
			t.Errorf("%+v: disassembly differs from spirv-dis (%v)", o, err)
		}
		wants := []string{"OpDecorate %Buf Binding 3\n"}
		switch {
		case o.UnboundedArrayLen == 0:
			wants = append(wants, "OpCapability RuntimeDescriptorArray", "OpTypeRuntimeArray %type_Buf", "OpCapability StorageBufferArrayNonUniformIndexing")
		case !o.NoNonUniformIndexing:
			wants = append(wants, "OpTypeArray %type_Buf %uint_5")
		default:
			wants = append(wants, "OpCapability VariablePointersStorageBuffer")
		}
		for _, w := range wants {
			if !strings.Contains(dis, w) {
				t.Errorf("%+v: missing %q in\n%s", o, w, dis)
			}
		}
		if o.UnboundedArrayLen > 0 && strings.Contains(dis, "RuntimeDescriptorArray") {
			t.Errorf("%+v: a runtime descriptor array on a device without them", o)
		}
		if o.NoNonUniformIndexing {
			if strings.Contains(dis, "ArrayNonUniformIndexing") {
				t.Errorf("%+v: non-uniform indexing on a device without it", o)
			}
			continue
		}
		// The divergent index's chain is NonUniform, the uniform one's not.
		for idx, want := range map[string]bool{"%id_x": true, "%g_x": false} {
			c := regexp.MustCompile(`(?m)^\s*(%\S+) = OpAccessChain %_ptr_StorageBuffer_type_Buf %Buf ` + idx + `$`).FindStringSubmatch(dis)
			if c == nil {
				t.Errorf("%+v: no access chain into Buf by %s:\n%s", o, idx, dis)
				continue
			}
			if got := strings.Contains(dis, "OpDecorate "+c[1]+" NonUniform\n"); got != want {
				t.Errorf("%+v: chain by %s NonUniform %v, want %v", o, idx, got, want)
			}
		}
	}
	if _, err := Assemble(m, Options{NoNonUniformIndexing: true}); err == nil || !strings.Contains(err.Error(), "divergent index into the unbounded resource array") {
		t.Errorf("no element count on a device without non-uniform indexing: %v", err)
	}
}
