package pipeline

import (
	"context"
	"path"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/samples"
)

// loadSample compiles an embedded sample to IR (HLSL through the front end,
// .pir through the parser); ok is false for samples of other kinds or that
// the front end rejects (front-end problems are tested elsewhere).
func loadSample(t *testing.T, s samples.Sample) (string, bool) {
	switch path.Ext(s.File) {
	case ".pir":
		m, err := ir.ParseModule(s.File, s.Source)
		if err != nil {
			t.Fatalf("%s: %v", s.File, err)
		}
		return m.String(), true
	case ".hlsl":
		prog, diags := hlsl.Frontend(s.File, s.Source, hlsl.Options{})
		if diags.HasErrors() {
			t.Logf("%s: front end: %v", s.File, diags)
			return "", false
		}
		m, diags := lower.Lower(prog, hlsl.Options{})
		if diags.HasErrors() || m == nil {
			t.Logf("%s: lowering: %v", s.File, diags)
			return "", false
		}
		return m.String(), true
	}
	return "", false
}

// TestSamplesDifferential runs pipelines over every embedded sample and
// requires the interpreter to produce bit-identical results before and
// after (with the verifier after every pass).
func TestSamplesDifferential(t *testing.T) {
	specs := []string{
		"inline,sroa,simplify,scalarize,simplify",
		"inline,sroa,simplify,switch-to-if,eliminate-multilevel-break,simplify",
		"inline,sroa,simplify,switch-to-if<all>,eliminate-multilevel-break,simplify,scalarize,simplify",
	}
	for _, s := range samples.All() {
		text, ok := loadSample(t, s)
		if !ok {
			continue
		}
		in := &interp.Input{Rect: &interp.Rect{Width: 4, Height: 2}, VertexCount: 4}
		if s.Input != nil {
			var err error
			if in, err = interp.ParseInput(s.Input); err != nil {
				t.Fatalf("%s input: %v", s.File, err)
			}
		}
		m0, _ := ir.ParseModule(s.File, []byte(text))
		before, err := interp.Run(m0, in, interp.Options{WaveSize: 4})
		if err != nil {
			t.Logf("%s: not runnable as is (%v)", s.File, err)
			continue
		}
		for _, spec := range specs {
			t.Run(s.Name+"/"+spec, func(t *testing.T) {
				sp, err := Parse(spec)
				if err != nil {
					t.Skip(err)
				}
				m, _ := ir.ParseModule(s.File, []byte(text))
				res := Run(context.Background(), m, sp, Options{Target: "dxil", VerifyEach: true})
				if res.Err != nil {
					t.Fatalf("%v\n%s", res.Err, res.Final().Text())
				}
				after, err := interp.Run(m, in, interp.Options{WaveSize: 4})
				if err != nil {
					t.Fatalf("interp after %s: %v", spec, err)
				}
				if ok, diff := before.Equal(after); !ok {
					t.Errorf("results differ: %s\n%s", diff, m)
				}
			})
		}
	}
}
