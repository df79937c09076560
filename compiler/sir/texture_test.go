package sir

import (
	"strings"
	"testing"
)

// testdata/textures.sm3.pir is compiler/target/sm3/testdata/textures.hlsl
// after the sm3 pipeline: six reads (Sample, SampleLevel, SampleGrad,
// SampleBias on a Texture2D with two samplers, Sample of a cube, one
// component of a SampleLevel of a volume). Lowered, each read is one OpTex
// per component with the same operands, the pairs are listed once each in
// first-read order with their sampler's register, the optimizations keep
// only the volume read's used component, and the text round-trips.
func TestLowerTextures(t *testing.T) {
	f, err := Lower(loadPIR(t, "textures.sm3.pir"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(f); err != nil {
		t.Fatal(err)
	}
	var pairs []string
	for _, s := range f.Samplers {
		pairs = append(pairs, s.Texture+"+"+s.State+":"+s.Dim.String()+":"+string(rune('0'+s.Binding)))
	}
	if got, want := strings.Join(pairs, " "), "t2+s:2d:1 t2+p:2d:0 tc+s:cube:1 tv+p:volume:0"; got != want {
		t.Errorf("pairs %q, want %q", got, want)
	}
	count := func() map[TexKind]int {
		n := map[TexKind]int{}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == OpTex {
					n[TexDescOf(in).Kind()]++
				}
			}
		}
		return n
	}
	// Four components per read before optimization.
	if got := count(); got[TexLD] != 8 || got[TexLDL] != 8 || got[TexLDD] != 4 || got[TexLDB] != 4 {
		t.Errorf("OpTex per kind before optimizing: %v", got)
	}
	Optimize(f)
	if got := count(); got[TexLDL] != 5 {
		t.Errorf("after optimizing, want the 2D texldl's 4 components and the volume read's .y, got %d texldl", got[TexLDL])
	}
	text := f.String()
	g, err := Parse(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if got := g.String(); got != text {
		t.Errorf("round trip differs:\n%s\nvs\n%s", got, text)
	}
	if err := Validate(g); err != nil {
		t.Errorf("parsed function: %v", err)
	}
	// A descriptor naming no pair is invalid.
	g.Samplers = g.Samplers[:1]
	if err := Validate(g); err == nil || !strings.Contains(err.Error(), "names no kind or sampler pair") {
		t.Errorf("validating a read of a missing pair: %v", err)
	}
}
