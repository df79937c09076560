package spirv

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/target/spirv/vkrun"
)

// TestGlobalsLayoutAgrees: $Globals members without register() declared
// before and after register(cN) members. The HLSL frontend's offsets (the
// ones tests and tools use to turn a constant buffer's bytes into the
// interpreter's uniforms) and the SPIR-V back end's must be the same
// (ir.PlaceMembers: the unreserved members follow every reserved one, as
// DXC and vkd3d place them): the buffer is filled by the frontend's
// offsets, run on lavapipe, and must give what the interpreter gives for
// the same values by name.
func TestGlobalsLayoutAgrees(t *testing.T) {
	t.Parallel()
	src := `float4 a;
float4 b : register(c0);
float c : register(c2);
float2 d;
float e : register(c1);
RWStructuredBuffer<float4> Out : register(u0);
[numthreads(1, 1, 1)]
void main() {
  Out[0] = a;
  Out[1] = b;
  Out[2] = float4(c, d, e);
}`
	opts := hlsl.Options{Entry: "main"}
	prog, diags := hlsl.Frontend("globals.hlsl", []byte(src), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	vals := map[string][]float32{"a": {1, 2, 3, 4}, "b": {5, 6, 7, 8}, "c": {9}, "d": {10, 11}, "e": {12}}
	// DXC: b at c0, e at c1, c at c2.x; then a at c3, d at c4.xy.
	wantOff := map[string]int{"a": 48, "b": 0, "c": 32, "d": 64, "e": 16}
	data := make([]byte, 80)
	for _, m := range prog.Buffers[0].Members {
		if m.Offset != wantOff[m.Name] {
			t.Errorf("frontend: %s at offset %d, want %d", m.Name, m.Offset, wantOff[m.Name])
		}
		for i, v := range vals[m.Name] {
			binary.LittleEndian.PutUint32(data[m.Offset+4*i:], math.Float32bits(v))
		}
	}
	m, ld := lower.Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		t.Fatal(ld)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	want := "<1.0, 2.0, 3.0, 4.0> <5.0, 6.0, 7.0, 8.0> <9.0, 10.0, 11.0, 12.0>"
	in := &interp.Input{Uniforms: map[string]any{}}
	for k, v := range vals {
		if len(v) == 1 {
			in.Uniforms[k] = v[0]
			continue
		}
		in.Uniforms[k] = v
	}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Buffer("Out")
	got := fmt.Sprintf("%s %s %s", interp.FormatValue(b.Elem, b.Element(0)), interp.FormatValue(b.Elem, b.Element(1)), interp.FormatValue(b.Elem, b.Element(2)))
	if got != want {
		t.Errorf("interpreter: Out = %s, want %s", got, want)
	}
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	needDevice(t)
	job := vkrun.Job{SPIRV: words, Entry: "main", Groups: [3]int{1, 1, 1}}
	out := -1
	for _, bd := range Bindings(m) {
		if bd.Uniform {
			l, err := typeLayout(bd.Global.ValType, ruleStd140)
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range bd.Global.ValType.Fields {
				if l.Offsets[i] != wantOff[f.Name] {
					t.Errorf("spirv: %s at offset %d, want %d", f.Name, l.Offsets[i], wantOff[f.Name])
				}
			}
			job.Buffers = append(job.Buffers, vkrun.Buffer{Set: bd.Set, Binding: bd.Binding, Uniform: true, Data: data})
			continue
		}
		out = len(job.Buffers)
		job.Buffers = append(job.Buffers, vkrun.Buffer{Set: bd.Set, Binding: bd.Binding, Data: make([]byte, 48)})
	}
	bufs, err := vkrun.Run(job)
	if err != nil {
		t.Fatal(err)
	}
	var dev []string
	for k := 0; k < 3; k++ {
		cells := make([]uint64, 4)
		for i := range cells {
			cells[i] = uint64(binary.LittleEndian.Uint32(bufs[out][16*k+4*i:]))
		}
		dev = append(dev, interp.FormatValue(ir.Vec(ir.F32, 4), cells))
	}
	if g := fmt.Sprint(dev[0], " ", dev[1], " ", dev[2]); g != want {
		t.Errorf("lavapipe, buffer filled by the frontend's offsets: Out = %s, want %s", g, want)
	}
}
