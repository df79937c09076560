package lower

import (
	"strings"
	"testing"

	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// TestResourceArrays: a global resource array is one global per element
// on consecutive registers (and Vulkan bindings); constant indices name the
// element, dynamic ones select it, counters are per element; the
// interpreter computes the expected buffers, and the uniformity analysis
// names a divergent resource index as the reason.
func TestResourceArrays(t *testing.T) {
	src := `[[vk::binding(4, 1)]] RWStructuredBuffer<uint> A[2] : register(u2, space3);
RWStructuredBuffer<uint> M[2][3] : register(u8);
[numthreads(8,1,1)]
void main(uint GI : SV_GroupIndex) {
  for (uint i = 0; i < 3; i++)
    M[1][i][GI] = A[0][GI] + i;
  A[1][GI] = M[1][NonUniformResourceIndex(GI % 3)][GI];
  M[0][2].IncrementCounter();
}
`
	prog, diags := compile(t, src, hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(render(prog, diags))
	}
	m, ld := Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(render(prog, ld))
	}
	for name, want := range map[string][4]int{ // set, binding, vk set, vk binding
		"A.0": {3, 2, 1, 4}, "A.1": {3, 3, 1, 5}, "M.0": {0, 8, 0, -1}, "M.5": {0, 13, 0, -1},
	} {
		g := m.Global(name)
		if g == nil {
			t.Fatalf("no global @%s in\n%s", name, m)
		}
		if got := [4]int{g.Set, g.Binding, g.VkSet, g.VkBinding}; got != want {
			t.Errorf("@%s: set, binding, vk set, vk binding %v, want %v", name, got, want)
		}
	}
	if m.Global("M.2.counter") == nil {
		t.Errorf("M[0][2] has no counter of its own:\n%s", m)
	}
	data := []any{3, 1, 4, 1, 5, 9, 2, 6}
	res, err := interp.Run(m, &interp.Input{Buffers: []interp.BufferInput{{Name: "A.0", Data: data}}}, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	a1 := res.Buffer("A.1").Cells
	for g, d := range data {
		// M[1][k][g] = A[0][g] + k, read with k = g % 3.
		if want := uint64(d.(int) + g%3); a1[g] != want {
			t.Errorf("A.1[%d] = %d, want %d", g, a1[g], want)
		}
	}
	if c := res.Buffer("M.2.counter"); c == nil || c.Cells[0] != 8 {
		t.Errorf("counter of M[0][2]: %+v, want 8", c)
	}
	// The select of M[1][…] by GI % 3 is divergent for the resource index.
	f := m.Func("main")
	u := uniformity.Uniformity(f)
	found := false
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpSelect && in.Type().Kind == ir.KPointer {
				if ex := u.FormatExplain(u.Explain(in)); strings.Contains(ex, "selects a resource by a divergent index") {
					found = true
				}
			}
		}
	}
	if !found {
		t.Errorf("no resource select explained as divergent by its index:\n%s", m)
	}
}
