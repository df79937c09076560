package spvread_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"passlens/compiler/analysis"
	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/spvread"
	"passlens/compiler/target/spirv"
	"passlens/internal/testtool"
	"passlens/internal/vkd3d"
	"passlens/samples"
)

func TestMain(m *testing.M) { vkd3d.Main(m) }

// corpusModule is a module passlens compiles to SPIR-V.
type corpusModule struct {
	name string
	m    *ir.Module
}

// corpus returns every embedded sample and every vkd3d unit that the
// HLSL frontend lowers, after the spirv pipeline (the module the back end
// assembles), as target/spirv's tests enumerate them.
func corpus(t *testing.T) []corpusModule {
	t.Helper()
	var out []corpusModule
	for _, s := range samples.All() {
		m, _, err := load.File("samples/"+s.Name, load.Options{})
		if err != nil || len(m.EntryPoints()) == 0 {
			continue
		}
		out = append(out, corpusModule{"samples/" + s.Name, m})
	}
	for _, f := range vkd3d.Load(t) {
		for _, u := range f.Units() {
			sm, ok := u.SM6()
			if !ok || u.ExpectFail(sm) || u.OutsideSubset() != "" {
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
			}
			for _, o := range u.Options {
				if o == "row-major" {
					opts.RowMajor = true
				}
			}
			opts.Enable16BitTypes = u.Native16Bit() // dxc -enable-16bit-types, as vkd3d compiles native-16-bit units
			prog, diags := hlsl.Frontend(u.File, []byte(u.Src), opts)
			if diags.HasErrors() {
				continue
			}
			m, ld := lower.Lower(prog, opts)
			if m == nil || ld.HasErrors() {
				continue
			}
			out = append(out, corpusModule{u.Label(), m})
		}
	}
	return out
}

func spirvPipeline(m *ir.Module) error {
	spec, err := pipeline.Default("spirv")
	if err != nil {
		return err
	}
	if r := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: "spirv", VerifyEach: true}); r.Err != nil {
		return r.Err
	}
	return nil
}

// disassemble runs spirv-dis (friendly names, or --raw-id).
func disassemble(t *testing.T, bin []byte, raw bool) []byte {
	t.Helper()
	dis := testtool.Require(t, "spirv-dis", "spirv-tools")
	f := filepath.Join(t.TempDir(), "m.spv")
	if err := os.WriteFile(f, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--no-color", f}
	if raw {
		args = append([]string{"--raw-id"}, args...)
	}
	out, err := exec.Command(dis, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("spirv-dis: %v\n%s", err, out)
	}
	return out
}

// sameResults compares two runs: storage buffers by name and contents,
// render targets by semantic and pixels, lane outputs. Element types may
// differ in integer signedness or bool-as-u32 (SPIR-V buffers hold no
// bools), so cells are compared, not type spellings.
func sameResults(a, b *interp.Result) string {
	// The back end declares only the globals the entry point uses: an
	// unused buffer of the original has no variable to read back.
	for i := range b.Buffers {
		y := &b.Buffers[i]
		x := a.Buffer(y.Name)
		if x == nil {
			return fmt.Sprintf("buffer %s is not in the original", y.Name)
		}
		if fmt.Sprint(x.Cells) != fmt.Sprint(y.Cells) {
			return fmt.Sprintf("buffer %s: %v\nvs %v", x.Name, clip(x.Cells), clip(y.Cells))
		}
	}
	if len(a.Targets) != len(b.Targets) {
		return fmt.Sprintf("%d render targets vs %d", len(a.Targets), len(b.Targets))
	}
	for i := range a.Targets {
		x, y := &a.Targets[i], &b.Targets[i]
		if x.Semantic != y.Semantic || fmt.Sprint(x.Cells) != fmt.Sprint(y.Cells) || fmt.Sprint(x.Written) != fmt.Sprint(y.Written) {
			return fmt.Sprintf("render target %s vs %s differ", x.Semantic, y.Semantic)
		}
	}
	if len(a.Lanes) != len(b.Lanes) {
		return fmt.Sprintf("%d lanes vs %d", len(a.Lanes), len(b.Lanes))
	}
	for i := range a.Lanes {
		x, y := &a.Lanes[i], &b.Lanes[i]
		// Outputs are compared as one multiset of cells: the back end
		// packs SV_ClipDistance0 and 1 (and the cull distances, by
		// index) into one ClipDistance (CullDistance) array.
		var cx, cy []uint64
		for _, o := range x.Outputs {
			cx = append(cx, o.Cells...)
		}
		for _, o := range y.Outputs {
			cy = append(cy, o.Cells...)
		}
		slices.Sort(cx)
		slices.Sort(cy)
		if x.Killed != y.Killed || fmt.Sprint(cx) != fmt.Sprint(cy) {
			return fmt.Sprintf("invocation %d: outputs %v vs %v (discarded %v vs %v)", x.Index, cx, cy, x.Killed, y.Killed)
		}
	}
	return ""
}

func clip(c []uint64) []uint64 {
	if len(c) > 16 {
		return c[:16]
	}
	return c
}

// treesOf describes the dominator, post-dominator and cycle trees of
// every function with a body by block name, independent of block layout:
// per block its immediate dominator and post-dominator and its innermost
// cycle's header, per cycle its header, depth and blocks.
func treesOf(m *ir.Module) string {
	var lines []string
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		fg := analysis.NewFuncGraph(f)
		g := fg.Graph
		dom, pdom, cyc := analysis.Dominators(g), analysis.PostDominators(g), analysis.Cycles(g)
		name := func(t *analysis.DomTree, n int) string {
			if n < 0 || n >= len(g.Names) {
				return "-"
			}
			return g.Names[n]
		}
		for i, n := range g.Names {
			lines = append(lines, fmt.Sprintf("%s %s idom=%s ipdom=%s", f.Name(), n, name(dom, dom.IDom(i)), name(pdom, pdom.IDom(i))))
		}
		for c := 0; c < cyc.Len(); c++ {
			var bs []string
			for _, b := range cyc.Blocks(c) {
				bs = append(bs, g.Names[b])
			}
			sort.Strings(bs)
			lines = append(lines, fmt.Sprintf("%s cycle %s depth %d: %s", f.Name(), g.Names[cyc.Header(c)], cyc.Depth(c), strings.Join(bs, " ")))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestRoundTrip: every sample and vkd3d unit that the SPIR-V back end
// assembles is read back — from the binary, from spirv-dis's text and
// from its --raw-id text — and the read module verifies, has the same
// dominator, post-dominator and cycle trees as the module it came from,
// and, run in the interpreter, gives the same results.
func TestRoundTrip(t *testing.T) {
	testtool.Require(t, "spirv-dis", "spirv-tools")
	mods := corpus(t)
	var assembled, ran, treesEqual, readWords, opaqueImages int
	var readTime time.Duration
	for _, cm := range mods {
		if err := spirvPipeline(cm.m); err != nil {
			continue
		}
		words, err := spirv.Assemble(cm.m, spirv.Options{})
		if err != nil {
			continue
		}
		assembled++
		bin := spirv.Bytes(words)
		t0 := time.Now()
		fromBin, err := spvread.Read(cm.name+".spvasm", bin)
		readTime += time.Since(t0)
		readWords += len(words)
		if err != nil {
			t.Errorf("%s: binary: %v", cm.name, err)
			continue
		}
		fromText, err := spvread.Read(cm.name+".spvasm", disassemble(t, bin, false))
		if err != nil {
			t.Errorf("%s: text: %v", cm.name, err)
			continue
		}
		fromRaw, err := spvread.Read(cm.name+".spvasm", disassemble(t, bin, true))
		if err != nil {
			t.Errorf("%s: raw text: %v", cm.name, err)
			continue
		}
		// The binary and the --raw-id text name every id alike: the
		// modules print identically.
		if a, b := fromBin.String(), fromRaw.String(); a != b {
			t.Errorf("%s: binary and --raw-id text read differently:\n%s\n----\n%s", cm.name, a, b)
		}
		bad := false
		for _, m := range []*ir.Module{fromBin, fromText} {
			if err := ir.Verify(m); err != nil {
				t.Errorf("%s: read module does not verify: %v\n%s", cm.name, err, m)
				bad = true
			}
		}
		if bad {
			continue
		}
		want, got := treesOf(cm.m), treesOf(fromText)
		if want != got {
			t.Errorf("%s: trees differ:\n%s\n----\n%s", cm.name, want, got)
		} else {
			treesEqual++
		}
		r0, err0 := interp.Run(ir.CloneModule(cm.m), nil, interp.Options{WaveSize: 4})
		r1, err1 := interp.Run(fromText, nil, interp.Options{WaveSize: 4})
		if err0 != nil {
			continue // the interpreter refuses the original too (needs input)
		}
		if err1 != nil {
			if readsImages(fromText) {
				// Images and samplers are opaque to the reader
				// (docs/spirv-reader.md): the module keeps its trees
				// and uniformity, not its execution.
				opaqueImages++
				continue
			}
			t.Errorf("%s: the original runs, the read module does not: %v", cm.name, err1)
			continue
		}
		if d := sameResults(r0, r1); d != "" {
			t.Errorf("%s: results differ: %s", cm.name, d)
			continue
		}
		ran++
	}
	t.Logf("%d modules assembled; trees equal on %d; %d run with equal results; %d not run (images, opaque to the reader); binaries read at %.1f M words/s",
		assembled, treesEqual, ran, opaqueImages, float64(readWords)/readTime.Seconds()/1e6)
	if assembled < 20 {
		t.Errorf("only %d modules assembled", assembled)
	}
}

// readsImages reports whether m holds an opaque image or sampler
// operation (the reader keeps them as spirv.opaque.Image*/SampledImage).
func readsImages(m *ir.Module) bool {
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if spvread.IsOpaque(in) && in.Intr != nil && (strings.Contains(in.Intr.Name, "Image") || strings.Contains(in.Intr.Name, "Sampler")) {
					return true
				}
			}
		}
	}
	return false
}
