package dxil

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	"passlens/internal/testtool/llvmverify"
	"passlens/internal/vkd3d"
)

// TestVKD3DThroughDXIL runs every vkd3d shader unit that applies to shader
// model 6, is not expected to fail, and that the HLSL frontend accepts and
// lowers, through the default dxil pipeline and Emit. Each unit either
// emits LLVM text that llvm-as-22 accepts (its parser and LLVM's IR
// verifier, through internal/testtool/llvmverify: one process for all
// modules) and
// that mentions no vector type, or is rejected with an error that names
// its source location (file:line:col) or the function and instruction it
// concerns; rejections are counted by reason. Units the interpreter runs
// with its default input must give bit-identical results before and after
// the pipeline. An invalid output, an
// internal error (recovered panic) or an unlocated rejection fails the
// test. The units come from passlens/internal/vkd3d, as for the HLSL
// conformance tests. Set DXIL_VKD3D_VERBOSE=1 to list the rejections.
func TestVKD3DThroughDXIL(t *testing.T) {
	t.Parallel()
	files := vkd3d.Load(t)
	spec, err := pipeline.Default(target.DXIL)
	if err != nil {
		t.Fatal(err)
	}
	verbose := os.Getenv("DXIL_VKD3D_VERBOSE") != ""
	var units, parsed, accepted, emitted, invalid, unchecked int
	type toolJob struct{ label, text string }
	var jobs []toolJob
	rejected := map[string]int{}
	var notes []string
	noInline, err := pipeline.Parse("sroa,simplify,scalarize,simplify")
	if err != nil {
		t.Fatal(err)
	}
	var withCalls, withCallsOK int
	// try runs one module through a pipeline and Emit; it queues the text
	// for the tools and reports whether it was emitted.
	var ran, same int
	try := func(m *ir.Module, sp pipeline.Spec, label, prefix string) bool {
		// The interpreter's results (default input) before and after the
		// pipeline must be bit-identical, when the unit runs at all.
		iopts := interp.Options{WaveSize: 4, MaxSteps: 1_000_000}
		before, ierr := interp.Run(ir.CloneModule(m), &interp.Input{}, iopts)
		res := pipeline.Run(context.Background(), m, sp, pipeline.Options{Target: target.DXIL, VerifyEach: true})
		if res.Err != nil {
			if res.Err.Kind == pipeline.KindVerify || res.Err.Kind == pipeline.KindPanic {
				t.Errorf("%s: dxil pipeline broke the module: %v", label, res.Err)
				return false
			}
			rejected[prefix+"pipeline: "+firstWords(res.Err.Error())]++
			notes = append(notes, label+": "+res.Err.Error())
			return false
		}
		if ierr == nil {
			ran++
			after, err := interp.Run(m, &interp.Input{}, iopts)
			if err != nil {
				t.Errorf("%s: runs before the pipeline, not after: %v", label, err)
			} else if ok, diff := before.Equal(after); !ok {
				t.Errorf("%s: results differ after the dxil pipeline: %s", label, diff)
			} else {
				same++
			}
		}
		out, err := Emit(m)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "internal error") || !locatedError.MatchString(msg) {
				t.Errorf("%s: emit error without a location: %v", label, err)
			}
			rejected[prefix+dxilReason(msg)]++
			notes = append(notes, label+": "+msg)
			return false
		}
		if vectorType.MatchString(out.Text) {
			t.Errorf("%s: vector type in the output", label)
			invalid++
			return false
		}
		if testing.Short() && (len(jobs)+unchecked)%8 != 0 {
			unchecked++ // -short: the tools check every 8th output only
			return true
		}
		jobs = append(jobs, toolJob{label, out.Text})
		return true
	}
	for _, f := range files {
		for _, u := range f.Units() {
			sm, ok := u.SM6()
			if !ok || u.ExpectFail(sm) || strings.Contains(u.Header, "-hex") {
				continue
			}
			opts := hlsl.Options{Entry: "main"}
			switch u.Stage {
			case "pixel":
				opts.Stage = hlsl.StagePixel
			case "vertex":
				opts.Stage = hlsl.StageVertex
			case "compute":
				opts.Stage = hlsl.StageCompute
			default:
				continue
			}
			for _, o := range u.Options {
				if o == "row-major" {
					opts.RowMajor = true
				}
			}
			opts.Enable16BitTypes = u.Native16Bit() // dxc -enable-16bit-types, as vkd3d compiles native-16-bit units
			units++
			prog, diags := hlsl.Frontend(u.File, []byte(u.Src), opts)
			if diags.HasErrors() {
				continue
			}
			parsed++
			m, ld := lower.Lower(prog, opts)
			if m == nil || ld.HasErrors() {
				continue
			}
			accepted++
			label := u.Label()
			if hasHelpers(m) {
				// The same unit without inline: its helper functions keep
				// their calls, so scalarize flattens their signatures.
				withCalls++
				c := ir.CloneModule(m)
				if try(c, noInline, label+" (no inline)", "no inline: ") {
					withCallsOK++
				}
			}
			try(m, spec, label, "")
		}
	}
	// One helper process checks every output (llvmverify): a process per
	// module used to dominate the test's time.
	for _, j := range jobs {
		if err := llvmverify.Text(t, j.label+".ll", j.text); err != nil {
			invalid++
			t.Errorf("%s: llvm-as-22 rejects the output: %v", j.label, err)
		} else {
			emitted++
		}
	}
	var rs []string
	total := 0
	for r, n := range rejected {
		rs = append(rs, fmt.Sprintf("%s=%d", r, n))
		total += n
	}
	sort.Strings(rs)
	t.Logf("vkd3d through dxil: %d SM6 units; %d accepted by the HLSL frontend, %d of them lowered; %d of these also run without inline (they have helper functions), %d of them emitted", units, parsed, accepted, withCalls, withCallsOK)
	t.Logf("  interpreter (default input): %d of %d runnable pipeline runs bit-identical before and after", same, ran)
	t.Logf("  %d outputs emitted and verified as llvm-as-22 does (%d more emitted, not checked under -short); %d rejected with a located error [%s]; %d invalid outputs",
		emitted, unchecked, total, strings.Join(rs, ", "), invalid)
	if verbose {
		for _, n := range notes {
			t.Log(n)
		}
	}
	if accepted == 0 {
		t.Fatal("no unit was accepted by the frontend")
	}
}

// locatedError matches an error that names a source position
// (file:line:col) or a function and instruction (@f: %x = ...).
var locatedError = regexp.MustCompile(`\.\w+:\d+:\d+: |@[\w.$]+: `)

// dxilReason classifies a back-end rejection for the summary.
func dxilReason(msg string) string {
	for _, r := range []string{"vector value survived", "vector constant", "return type", "parameter", "no DXIL overload", "initializer"} {
		if strings.Contains(msg, r) {
			return r
		}
	}
	if i := strings.Index(msg, "no DXIL operation for intrinsic "); i >= 0 {
		return "no DXIL operation for " + strings.Fields(msg[i+len("no DXIL operation for intrinsic "):])[0]
	}
	return firstWords(msg)
}

func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 6 {
		f = f[:6]
	}
	return strings.Join(f, " ")
}

// hasHelpers reports whether m defines a function besides its entry points.
func hasHelpers(m *ir.Module) bool {
	for _, f := range m.Funcs {
		if !f.IsDeclaration() && f.Entry == nil {
			return true
		}
	}
	return false
}
