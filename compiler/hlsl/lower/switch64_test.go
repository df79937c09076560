package lower

import (
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
)

// TestSwitch64 checks a switch on a 64-bit integer: the condition keeps
// its width (clang promotes only narrower types) and the labels convert
// to it, so 0x100000002 and 2 are different cases (vkd3d's
// switch.shader_test); against a 32-bit condition the label follows the
// literal rule (lex.literal: a literal int beyond 32 bits is INT_MIN, with
// a warning), as before.
func TestSwitch64(t *testing.T) {
	src := `
RWStructuredBuffer<uint64_t> In;
RWStructuredBuffer<uint> Out;
[numthreads(3, 1, 1)]
void main(uint id : SV_GroupIndex) {
	uint r;
	switch (In[id]) {
	case 0: r = 3; break;
	case 0x100000002: r = 4; break;
	case 2: r = 2; break;
	default: r = 5; break;
	}
	Out[id] = r;
}`
	opts := hlsl.Options{Entry: "main", Stage: hlsl.StageCompute}
	prog, diags := compile(t, src, opts)
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	m, ld := Lower(prog, opts)
	if ld.HasErrors() {
		t.Fatal(messages(ld))
	}
	if s := m.String(); !strings.Contains(s, "switch u64") || !strings.Contains(s, "case 4294967298") {
		t.Fatalf("want a u64 switch with case 4294967298:\n%s", s)
	}
	in, err := interp.ParseInput([]byte(`{"buffers": [{"name": "In", "data": ["0x100000002", "0x2", "0x200000002"]}, {"name": "Out", "count": 3}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Buffer("Out").Cells; len(got) != 3 || got[0] != 4 || got[1] != 2 || got[2] != 5 {
		t.Errorf("Out = %v, want [4 2 5]", got)
	}
	_, diags = compile(t, strings.Replace(src, "uint64_t> In", "uint> In", 1), opts)
	if diags.HasErrors() || !strings.Contains(messages(diags), "does not fit in 32 bits") {
		t.Errorf("32-bit condition: want only the literal warning, got %s", messages(diags))
	}
}
