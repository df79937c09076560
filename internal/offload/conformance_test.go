package offload

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all"
	"passlens/compiler/target/spirv/vkrun"
	"passlens/internal/testtool"
)

// The offload-test-suite as a peer conformance suite. Every .test file of
// ../shared/conformance/offload-test-suite/test is classified: run (a
// compute pipeline whose resources are buffers, compiled by the frontend,
// its buffers converted to the interpreter's input), unsupported (with
// the reason: stage, resource kind, pipeline feature, REQUIRES, the
// frontend's rejection, a buffer whose layout is not one value per
// element leaf), or expected to fail (XFAIL for DirectX with DXC, the
// platform passlens models). Run tests execute on the interpreter
// (D3D's fp32 denormal rule; at the wave size the test requires, else at
// 4, 8, 16, 32 and 64) through the lowered module and after the spirv
// and dxil pipelines, the SPIR-V output also on lavapipe
// (lavapipe_test.go), and each Results entry is compared by its rule
// (compare.go). OFFLOAD_VERBOSE=1 lists every
// failure and unsupported test.

// suiteRoot is the suite's test directory beside the checkout.
const suiteRoot = "../../../shared/conformance/offload-test-suite/test"

// features are the lit features of the platform passlens models. (The
// interpreter runs a test at the wave size it requires, else at every
// size from 4 to 64; WaveSize_128 is beyond the interpreter's 64 lanes.)
var features = map[string]bool{"DirectX": true, "DXC": true, "WaveSize_32": true, "WaveSize_64": true,
	"Half": true, "Int16": true, "Double": true, "Int64": true, "SM_6_6": true,
	"Int64GroupSharedAtomics": true, "Int64TypedResourceAtomics": true}

// knownFailures are executed tests that fail, with the reason.
var knownFailures = map[string]string{}

// deviceDifferences are tests whose SPIR-V output passes on the
// interpreter but not on lavapipe (Mesa 22.3.6 llvmpipe), because of the
// driver: it keeps fp32 denormals although the module declares
// DenormFlushToZero 32 (D3D's rule, which the expected values follow),
// its atan returns 0 for NaN (at 16 bits too), and its double Fma rounds
// the product before the add (Vulkan lets Fma's precision be that of
// OpFMul then OpFAdd; D3D's fma of doubles is fused).
var deviceDifferences = map[string]string{
	"Feature/HLSLLib/atan.16.test":    "atan(NaN) is 0 on the device",
	"Feature/HLSLLib/fma.test":        "double Fma not fused on the device: (1+2^-52)*-(1-2^-52)+1 gives 0, not 2^-104",
	"Feature/HLSLLib/atan.32.test":    "atan(NaN) is 0 on the device",
	"Feature/HLSLLib/degrees.32.test": "fp32 denormal kept by the device",
	"Feature/HLSLLib/log.32.test":     "fp32 denormal kept by the device",
	"Feature/HLSLLib/log10.32.test":   "fp32 denormal kept by the device",
	"Feature/HLSLLib/log2.32.test":    "fp32 denormal kept by the device",
	"Feature/HLSLLib/sqrt.32.test":    "fp32 denormal kept by the device",
	// llvmpipe's quad operations in compute shaders: the same SPIR-V
	// (OpGroupNonUniformQuadSwap) agrees bit for bit with the interpreter
	// in fragment shaders (compiler/target/spirv TestLavapipeQuads), and
	// the interpreter gives the suite's expected values. The 16- and
	// 64-bit variants fail the same way at every width.
	"WaveOps/QuadReadAcrossY.32.test":                 "llvmpipe's vertical quad swap in compute reads 0 in lane 0",
	"WaveOps/QuadReadAcrossY.fp64.test":               "llvmpipe's vertical quad swap in compute reads 0 in lane 0",
	"WaveOps/QuadReadAcrossY.int16.test":              "llvmpipe's vertical quad swap in compute reads 0 in lane 0",
	"WaveOps/QuadReadAcrossY.int64.test":              "llvmpipe's vertical quad swap in compute reads 0 in lane 0",
	"WaveOps/QuadReadAcrossDiagonal.fp16.test":        "llvmpipe's diagonal quad swap in compute reads 0 in lane 0",
	"WaveOps/QuadReadAcrossDiagonal.fp64.test":        "llvmpipe's diagonal quad swap in compute reads 0 in lane 0",
	"WaveOps/QuadReadAcrossDiagonal.int16.test":       "llvmpipe's diagonal quad swap in compute reads 0 in lane 0",
	"WaveOps/QuadReadAcrossDiagonal.convergence.test": "llvmpipe's quad swap in divergent compute control flow reads 0",
}

type outcome struct {
	kind   string // "pass", "fail", "xfail-pass", "xfail-fail", "unsupported"
	reason string
	// device is the SPIR-V output's run on lavapipe: "pass", "fail",
	// "skip: why", or "" when it was not attempted (no device, or the
	// test failed before).
	device string
}

func TestOffloadSuite(t *testing.T) {
	if _, err := os.Stat(suiteRoot); err != nil {
		t.Skipf("no offload-test-suite at %s", suiteRoot)
	}
	var paths []string
	filepath.WalkDir(suiteRoot, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".test") {
			rel, _ := filepath.Rel(suiteRoot, p)
			paths = append(paths, rel)
		}
		return nil
	})
	sort.Strings(paths)
	counts := map[string]int{}
	reasons := map[string]int{}
	verbose := os.Getenv("OFFLOAD_VERBOSE") != ""
	var dev *vkrun.Info
	if lavapipeEnabled() {
		d, err := device()
		if err != nil {
			testtool.Unavailable(t, fmt.Sprintf("no Vulkan runner for the SPIR-V runs (OFFLOAD_LAVAPIPE=0 runs the interpreter only): %v", err))
		}
		dev = d
	}
	devCounts := map[string]int{}
	devSkips := map[string]int{}
	var failures []string
	for _, rel := range paths {
		tst, err := Read(suiteRoot, rel)
		if err != nil {
			t.Fatal(err)
		}
		o := runTest(tst, interp.DenormFTZ, dev)
		counts[o.kind]++
		switch {
		case o.device == "pass" || o.device == "fail":
			devCounts[o.device]++
		case strings.HasPrefix(o.device, "skip: "):
			devCounts["skip"]++
			devSkips[o.device[6:]]++
		}
		switch o.kind {
		case "pass":
			if verbose {
				t.Logf("%s: pass", rel)
			}
		case "unsupported":
			reasons[o.reason]++
			if verbose {
				t.Logf("%s: unsupported: %s", rel, o.reason)
			}
		case "fail":
			if why, ok := deviceDifferences[rel]; ok && o.device == "fail" {
				counts["fail"]--
				counts["pass"]++ // the interpreter and both pipelines pass
				devCounts["known"]++
				if verbose {
					t.Logf("%s: known device difference (%s): %s", rel, why, o.reason)
				}
				continue
			}
			if why, ok := knownFailures[rel]; ok {
				counts["known"]++
				t.Logf("%s: known failure (%s): %s", rel, why, o.reason)
				continue
			}
			failures = append(failures, fmt.Sprintf("%s: %s", rel, o.reason))
		case "xfail-fail", "xfail-pass":
			if verbose {
				t.Logf("%s: %s %s", rel, o.kind, o.reason)
			}
		}
	}
	var rs []string
	for r, n := range reasons {
		rs = append(rs, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(rs)
	executed := counts["pass"] + counts["fail"]
	t.Logf("offload-test-suite: %d tests; %d executed: %d pass, %d fail (%d known); expected to fail (XFAIL): %d fail, %d pass; unsupported %d: %s",
		len(paths), executed, counts["pass"], counts["fail"], counts["known"], counts["xfail-fail"], counts["xfail-pass"], counts["unsupported"], strings.Join(rs, ", "))
	if dev != nil {
		var ss []string
		for r, n := range devSkips {
			ss = append(ss, fmt.Sprintf("%s %d", r, n))
		}
		sort.Strings(ss)
		t.Logf("on %s (subgroup size %d), the SPIR-V output of the executed tests: %d run, %d pass, %d fail (%d known device differences); %d not run: %s",
			dev.Device, dev.SubgroupSize, devCounts["pass"]+devCounts["fail"], devCounts["pass"], devCounts["fail"], devCounts["known"], devCounts["skip"], strings.Join(ss, ", "))
		if devCounts["pass"] == 0 {
			t.Error("no test passed on the device")
		}
	}
	for _, f := range failures {
		t.Error(f)
	}
	if executed == 0 {
		t.Error("no test executed")
	}
}

// TestOffloadDetectsDifferences is the negative control: with float32
// denormals kept (IEEE) instead of D3D's flush, the HLSLLib tests that
// feed -denorm to log, log2, log10 and sqrt must fail (NaN instead of
// -inf or -0); all of them pass with the flush.
func TestOffloadDetectsDifferences(t *testing.T) {
	if _, err := os.Stat(suiteRoot); err != nil {
		t.Skipf("no offload-test-suite at %s", suiteRoot)
	}
	var failed []string
	for _, rel := range []string{"Feature/HLSLLib/log.32.test", "Feature/HLSLLib/log2.32.test", "Feature/HLSLLib/log10.32.test",
		"Feature/HLSLLib/sqrt.32.test", "Feature/HLSLLib/ceil.32.test", "Feature/HLSLLib/floor.32.test"} {
		tst, err := Read(suiteRoot, rel)
		if err != nil {
			t.Fatal(err)
		}
		if o := runTest(tst, interp.DenormFTZ, nil); o.kind != "pass" {
			t.Errorf("%s with flushed denormals: %s %s", rel, o.kind, o.reason)
		}
		if o := runTest(tst, interp.DenormPreserve, nil); o.kind == "fail" {
			failed = append(failed, rel)
		}
	}
	if len(failed) < 4 { // log, log2, log10 and sqrt of -denorm give NaN when it is kept
		t.Errorf("with denormals kept only %v fail; the comparison does not see the difference", failed)
	}
	t.Logf("with denormals kept, %d tests fail: %v", len(failed), failed)
}

// ignoreWaveRequirement makes runTest run every test at every wave size,
// for the negative control of the wave-size loop.
var ignoreWaveRequirement = false

// TestOffloadWaveSizesMatter is the negative control of running at every
// allowed wave size: tests that require wave size 32 or 64 must fail at
// some other size (so the sizes really differ in the runs), and pass at
// their own.
func TestOffloadWaveSizesMatter(t *testing.T) {
	if _, err := os.Stat(suiteRoot); err != nil {
		t.Skipf("no offload-test-suite at %s", suiteRoot)
	}
	failed := 0
	for _, rel := range []string{"WaveOps/WavePrefixCountBits.Wave32.test", "WaveOps/WaveActiveBallot.Wave32.test", "WaveOps/WavePrefixCountBits.Wave64.test"} {
		tst, err := Read(suiteRoot, rel)
		if err != nil {
			t.Fatal(err)
		}
		if o := runTest(tst, interp.DenormFTZ, nil); o.kind != "pass" {
			t.Errorf("%s at its wave size: %s %s", rel, o.kind, o.reason)
		}
		ignoreWaveRequirement = true
		o := runTest(tst, interp.DenormFTZ, nil)
		ignoreWaveRequirement = false
		if o.kind == "fail" && strings.Contains(o.reason, "wave size") {
			failed++
		}
		t.Logf("%s at every size: %s %s", rel, o.kind, o.reason)
	}
	if failed == 0 {
		t.Error("no wave-size-dependent test failed at another wave size; the sizes are not applied")
	}
}

// runTest classifies, compiles, runs and compares one test.
// dev is the Vulkan device the SPIR-V output also runs on, or nil.
func runTest(tst *Test, denorm interp.Denorm, dev *vkrun.Info) outcome {
	unsup := func(format string, args ...any) outcome {
		return outcome{kind: "unsupported", reason: fmt.Sprintf(format, args...)}
	}
	for _, r := range tst.Requires {
		for _, f := range strings.Split(r, ",") {
			if !Eval(strings.TrimSpace(f), func(s string) bool { return features[s] }) {
				return unsup("requires %s", strings.TrimSpace(f))
			}
		}
	}
	for _, u := range tst.Unsupported {
		for _, f := range strings.Split(u, ",") {
			if Eval(strings.TrimSpace(f), func(s string) bool { return features[s] }) {
				return unsup("unsupported on DirectX/DXC")
			}
		}
	}
	wave, waveRequired := 32, false
	for _, r := range tst.Requires {
		for _, w := range []int{32, 64} {
			if strings.Contains(r, fmt.Sprintf("WaveSize_%d", w)) {
				wave, waveRequired = w, true
			}
		}
	}
	xfail := false
	for _, x := range tst.XFail {
		for _, f := range strings.Split(x, ",") {
			xfail = xfail || Eval(strings.TrimSpace(f), func(s string) bool { return features[s] })
		}
	}
	p := tst.Pipeline
	switch {
	case tst.PipelineErr != nil:
		return unsup("pipeline.yaml not read: %v", tst.PipelineErr)
	case p == nil:
		return unsup("no pipeline.yaml")
	case len(p.Shaders) != 1 || p.Shaders[0].Stage != "Compute":
		var st []string
		for _, s := range p.Shaders {
			st = append(st, s.Stage)
		}
		return unsup("stage %s", strings.Join(st, "+"))
	case len(p.Other) > 0:
		return unsup("pipeline %s", p.Other[0])
	case len(p.Results) == 0:
		return unsup("checked by FileCheck")
	case len(tst.Runs) != 1:
		return unsup("%d compile RUN lines", len(tst.Runs))
	}
	for _, r := range p.Resources {
		if r.Reserved {
			return unsup("reserved (tiled) resource %s", r.Name)
		}
		switch r.Kind {
		case "StructuredBuffer", "RWStructuredBuffer", "Buffer", "RWBuffer", "ByteAddressBuffer", "RWByteAddressBuffer", "ConstantBuffer":
		case "Texture2D", "RWTexture2D", "Sampler", "SamplerComparison": // texture_test.go
		default:
			return unsup("resource %s", r.Kind)
		}
	}
	run := tst.Runs[0]
	if !strings.HasPrefix(run.Profile, "cs_6_") {
		return unsup("profile %s", run.Profile)
	}
	src, ok := tst.Sections[run.Source]
	if !ok {
		return unsup("RUN compiles %q, which is no section", run.Source)
	}
	opts := hlsl.Options{Entry: run.Entry, Stage: hlsl.StageCompute, Defines: run.Defines, RowMajor: run.RowMaj, Enable16BitTypes: run.Half,
		ReadFile: func(path string) ([]byte, error) {
			if s, ok := tst.Sections[filepath.Base(path)]; ok {
				return []byte(s), nil
			}
			return nil, os.ErrNotExist
		}}
	applyProfile(&opts, run.Profile) // cs_6_x: always known
	prog, diags := hlsl.Frontend(run.Source, []byte(src), opts)
	if diags.HasErrors() {
		return unsup("frontend: %s", category(diags))
	}
	m, ld := lower.Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		return unsup("lowering: %s", category(ld))
	}
	in, names, packed, why := inputs(m, p, src)
	if why == "" {
		why = constantBuffers(prog, m, p, in)
	}
	if why == "" {
		why = textureInputs(m, p, in, names)
	}
	if why != "" {
		return unsup("%s", why)
	}
	// compare checks the buffers of a run (cells by global name) against
	// the test's expected values by the test's rule.
	compare := func(cells func(global string) []uint64, where string) string {
		for _, r := range p.Results {
			want := p.Buffer(r.Expected)
			if want == nil || len(names[r.Actual]) == 0 {
				return fmt.Sprintf("result %s names unknown buffers", r.Name)
			}
			var got []uint64 // the elements of a resource array in order
			for _, n := range names[r.Actual] {
				got = append(got, cells(n)...)
			}
			if bits := packed[r.Actual]; bits != 0 {
				got = unpackWords(got, bits)
			}
			if d := Compare(r, got, want.Data, want.Bits, want.Float); d != "" {
				return where + ": " + d
			}
		}
		return ""
	}
	var last *interp.Result
	check := func(m *ir.Module, where string, wave int) string {
		res, err := interp.Run(m, in, interp.Options{Entry: run.Entry, WaveSize: wave, Denorm: denorm})
		if err != nil {
			return fmt.Sprintf("%s: run: %v", where, err)
		}
		last = res
		return compare(func(g string) []uint64 { return res.Buffer(g).Cells }, where)
	}
	// Every module runs at every wave size the test allows: the one it
	// requires, else each size from 4 to 64 lanes (D3D lets the driver
	// choose; the interpreter models up to 64).
	sizes := []int{wave}
	if !waveRequired || ignoreWaveRequirement {
		sizes = []int{4, 8, 16, 32, 64}
	}
	checkAll := func(m *ir.Module, where string) string {
		for _, w := range sizes {
			if msg := check(m, fmt.Sprintf("%s, wave size %d", where, w), w); msg != "" {
				return msg
			}
		}
		return ""
	}
	msg := checkAll(m, "lowered")
	var o outcome
	for _, tgt := range []target.Name{target.SPIRV, target.DXIL} {
		if msg != "" {
			break
		}
		spec, err := pipeline.Default(tgt)
		if err != nil {
			return outcome{kind: "fail", reason: err.Error()}
		}
		pr := pipeline.Run(context.Background(), ir.CloneModule(m), spec, pipeline.Options{Target: tgt, VerifyEach: true})
		if pr.Err != nil {
			msg = fmt.Sprintf("%s pipeline: %v", tgt, pr.Err)
			break
		}
		fm, err := pr.Final().FreshModule()
		if err != nil {
			msg = err.Error()
			break
		}
		if msg = checkAll(fm, "after the "+string(tgt)+" pipeline"); msg != "" || tgt != target.SPIRV || dev == nil {
			continue
		}
		// The SPIR-V output on the device, at its subgroup size.
		switch {
		case waveRequired && wave != dev.SubgroupSize:
			o.device = fmt.Sprintf("skip: requires wave size %d, the device has %d", wave, dev.SubgroupSize)
			continue
		}
		counts := map[string]int{}
		for _, b := range last.Buffers {
			counts[b.Name] = b.Count
		}
		cells, skip, err := runLavapipe(fm, run.Entry, in, counts)
		switch {
		case skip:
			o.device = "skip: " + err.Error()
		case err != nil:
			o.device = "fail"
			msg = "lavapipe: " + err.Error()
		default:
			if msg = compare(func(g string) []uint64 { return cells[g] }, fmt.Sprintf("lavapipe (subgroup size %d)", dev.SubgroupSize)); msg != "" {
				o.device = "fail"
			} else {
				o.device = "pass"
			}
		}
	}
	if tst.ExpectMismatch {
		// "not %offloader": the expected buffers are wrong on purpose.
		if strings.HasPrefix(msg, "lowered") && strings.Contains(msg, ", want ") {
			return outcome{kind: "pass"}
		}
		if msg == "" {
			msg = "the results match, but the test expects a mismatch"
		}
		return outcome{kind: "fail", reason: msg}
	}
	o.reason = msg
	switch {
	case xfail && msg == "":
		o.kind = "xfail-pass"
	case xfail:
		o.kind = "xfail-fail"
	case msg != "":
		o.kind = "fail"
	default:
		o.kind = "pass"
	}
	return o
}

// inputs converts the pipeline's buffers to the interpreter's input: each
// resource's buffer fills the storage global bound at its register and
// space (t registers read-only, u writable), one data value per element
// leaf; an array of N resources (ArraySize) fills the globals of
// registers register..register+N-1 (the frontend's one global per
// element). It returns the globals of each buffer name, or why the
// buffers cannot be given.
func inputs(m *ir.Module, p *Pipeline, src string) (*interp.Input, map[string][]string, map[string]int, string) {
	in := &interp.Input{Dispatch: p.Shaders[0].Groups}
	names := map[string][]string{}
	packed := map[string]int{} // byte address buffers of 16- or 64-bit data: the data's width
	for _, r := range p.Resources {
		if _, ok := textureKinds[r.Kind]; ok {
			continue // textureInputs
		}
		b := p.Buffer(r.Name)
		if b == nil {
			return nil, nil, nil, "resource without a buffer"
		}
		if r.Kind == "ConstantBuffer" {
			continue // constantBuffers
		}
		readOnly := !strings.HasPrefix(r.Kind, "RW")
		n := max(b.ArraySize, 1)
		if len(b.Data)%n != 0 {
			return nil, nil, nil, fmt.Sprintf("buffer %s: %d values for %d resources", b.Name, len(b.Data), n)
		}
		per := len(b.Data) / n
		for k := 0; k < n; k++ {
			// The global bound at the register; without one (a resource
			// declared without register(), which DXC numbers in
			// declaration order) the global of the resource's name.
			var g *ir.Global
			for _, c := range m.Globals {
				if c.Space == ir.SpaceStorage && c.Set == r.Space && c.Binding == r.Register+k && c.ReadOnly == readOnly && !strings.HasSuffix(c.Name(), ".counter") {
					g = c
				}
			}
			if b.ArraySize == 0 {
				if named := m.Global(r.Name); named != nil && named.Space == ir.SpaceStorage && named.ReadOnly == readOnly && (g == nil || !hasRegister(src, r.Name)) {
					g = named
				}
			}
			// An unbounded array (Buf[]): one global at the first
			// register; element k is the interpreter's buffer "Buf.k".
			elemName := ""
			for _, c := range m.Globals {
				if b.ArraySize > 0 && c.ArrayLen == ir.UnboundedArray && c.Space == ir.SpaceStorage && max(c.Set, 0) == r.Space && c.Binding == r.Register && c.ReadOnly == readOnly {
					g, elemName = c, fmt.Sprintf("%s.%d", c.Name(), k)
				}
			}
			if g == nil {
				if b.ArraySize > 0 {
					return nil, nil, nil, "resource array element without a global"
				}
				// A resource the shader does not use has no global.
				break
			}
			if elemName == "" {
				elemName = g.Name()
			}
			names[r.Name] = append(names[r.Name], elemName)
			if why := typedViewDims(m, g, r, b); why != "" {
				return nil, nil, nil, why
			}
			data, bb := b.Data[k*per:(k+1)*per], b
			if strings.HasSuffix(r.Kind, "ByteAddressBuffer") && (b.Bits == 16 || b.Bits == 64) {
				// The buffer is 32-bit words (Load<T>/Store<T> of 16-
				// and 64-bit data): the data packed little-endian.
				data, packed[r.Name] = packWords(data, b.Bits), b.Bits
				cp := *b
				cp.Bits, cp.Stride = 32, 0
				bb = &cp
			}
			bi, why := bufferInput(g, bb, data)
			if why != "" {
				return nil, nil, nil, why
			}
			bi.Name = elemName
			in.Buffers = append(in.Buffers, bi)
		}
	}
	return in, names, packed, ""
}

// packWords packs values of bits (16 or 64) into little-endian 32-bit
// words; unpackWords undoes it.
func packWords(data []uint64, bits int) []uint64 {
	var out []uint64
	switch bits {
	case 16:
		for i := 0; i < len(data); i += 2 {
			w := data[i] & 0xFFFF
			if i+1 < len(data) {
				w |= data[i+1] & 0xFFFF << 16
			}
			out = append(out, w)
		}
	case 64:
		for _, v := range data {
			out = append(out, v&0xFFFFFFFF, v>>32)
		}
	}
	return out
}

func unpackWords(words []uint64, bits int) []uint64 {
	var out []uint64
	switch bits {
	case 16:
		for _, w := range words {
			out = append(out, w&0xFFFF, w>>16&0xFFFF)
		}
	case 64:
		for i := 0; i+1 < len(words); i += 2 {
			out = append(out, words[i]&0xFFFFFFFF|words[i+1]<<32)
		}
	}
	return out
}

// typedViewDims says why GetDimensions on a typed buffer cannot be
// checked: D3D counts the elements of the view, whose format the test
// gives (Channels, default 1), while the interpreter counts elements of
// the shader's element type; they differ when the two have different
// component counts (Buffer<int4> over an R32 view). "" otherwise.
func typedViewDims(m *ir.Module, g *ir.Global, r Resource, b *Buffer) string {
	if r.Kind != "Buffer" && r.Kind != "RWBuffer" || g.ValType.Kind != ir.KArray {
		return ""
	}
	n := len(leafTypes(g.ValType.Elem))
	if n == max(b.Channels, 1) {
		return ""
	}
	for _, f := range m.Funcs {
		for _, bl := range f.Blocks {
			for _, in := range bl.Instrs {
				if in.Op == ir.OpIntrinsic && in.Intr != nil && in.Intr.Name == "buf.length" && len(in.Args) == 1 && in.Args[0] == g {
					return fmt.Sprintf("GetDimensions of a typed buffer whose view has %d channel(s) and elements of %d components", max(b.Channels, 1), n)
				}
			}
		}
	}
	return ""
}

// bufferInput gives the data of one storage global.
func bufferInput(g *ir.Global, b *Buffer, data []uint64) (interp.BufferInput, string) {
	el := g.ValType
	if el.Kind != ir.KArray || el.Len >= 0 {
		return interp.BufferInput{}, "buffer type " + el.String()
	}
	leaves := leafTypes(el.Elem)
	for _, l := range leaves {
		w := l.Bits
		if l.Kind == ir.KBool {
			w = 32
		}
		if w != b.Bits {
			return interp.BufferInput{}, fmt.Sprintf("buffer layout (%s elements of %s, %d-bit data)", el.Elem, b.Format, b.Bits)
		}
	}
	if len(leaves) == 0 || len(data)%len(leaves) != 0 {
		return interp.BufferInput{}, fmt.Sprintf("buffer layout (%d values for %s elements)", len(data), el.Elem)
	}
	if b.Stride != 0 && b.Stride != len(leaves)*b.Bits/8 {
		return interp.BufferInput{}, fmt.Sprintf("buffer layout (stride %d for %s)", b.Stride, el.Elem)
	}
	bi := interp.BufferInput{Name: g.Name(), Count: len(data) / len(leaves)}
	if len(data) == 0 {
		return interp.BufferInput{}, "empty buffer"
	}
	for i := 0; i < len(data); i += len(leaves) {
		var e []any
		for k, l := range leaves {
			v := data[i+k]
			if l.Kind == ir.KBool {
				e = append(e, v != 0)
			} else {
				e = append(e, fmt.Sprintf("0x%x", v))
			}
		}
		if len(e) == 1 {
			bi.Data = append(bi.Data, e[0])
		} else {
			bi.Data = append(bi.Data, e)
		}
	}
	return bi, ""
}

// leafTypes lists the scalar leaves of t in cell order.
func leafTypes(t *ir.Type) []*ir.Type {
	switch t.Kind {
	case ir.KVector:
		out := make([]*ir.Type, t.Len)
		for i := range out {
			out[i] = t.Elem
		}
		return out
	case ir.KMatrix:
		var out []*ir.Type
		for i := 0; i < t.Len*t.Cols; i++ {
			out = append(out, t.Elem)
		}
		return out
	case ir.KArray:
		var out []*ir.Type
		for i := 0; i < t.Len; i++ {
			out = append(out, leafTypes(t.Elem)...)
		}
		return out
	case ir.KStruct:
		var out []*ir.Type
		for _, f := range t.Fields {
			out = append(out, leafTypes(f.Type)...)
		}
		return out
	}
	return []*ir.Type{t}
}

// category summarizes the first error of a rejection for the report.
func category(d hlsl.Diagnostics) string {
	for _, e := range d {
		if e.Severity == hlsl.Error {
			m := e.Message
			if i := strings.IndexAny(m, "'\""); i > 0 {
				if j := strings.IndexAny(m[i+1:], "'\""); j > 0 {
					return m[:i+j+2]
				}
			}
			return m
		}
	}
	return "errors"
}

// hasRegister reports whether the source declares name with register().
func hasRegister(src, name string) bool {
	for _, l := range strings.Split(src, "\n") {
		f := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' || r == ';' || r == ':' || r == '<' || r == '>' })
		for i, w := range f {
			if w == name && i > 0 && strings.Contains(l, "register(") {
				return true
			}
		}
	}
	return false
}

// constantBuffers gives the interpreter the members of each ConstantBuffer
// resource as uniforms: the buffer's bytes are read at the offsets the
// frontend's D3D layout gives the cbuffer's members (16-byte registers;
// rows of a matrix as the IR stores it, and array elements, each start a
// register). Members of 32-bit scalars, vectors, matrices and arrays of
// them are supported. It returns why the buffers cannot be given, or "".
func constantBuffers(prog *hlsl.Program, m *ir.Module, p *Pipeline, in *interp.Input) string {
	for _, r := range p.Resources {
		if r.Kind != "ConstantBuffer" {
			continue
		}
		b := p.Buffer(r.Name)
		// An array of N constant buffers (ArraySize) fills the buffers at
		// registers register..register+N-1, each from its part of Data.
		n := max(b.ArraySize, 1)
		if len(b.Data)%n != 0 {
			return fmt.Sprintf("buffer %s: %d values for %d constant buffers", b.Name, len(b.Data), n)
		}
		per := len(b.Data) / n
		for k := 0; k < n; k++ {
			var cb *hlsl.CBuffer
			for _, c := range prog.Buffers {
				if reg := c.Register; reg != nil && reg.Class == 'b' && reg.Index == r.Register+k && reg.Space == r.Space {
					cb = c
				}
			}
			if cb == nil && n == 1 {
				for _, c := range prog.Buffers {
					if c.Name == r.Name {
						cb = c
					}
				}
			}
			if cb == nil {
				continue // not used by the shader
			}
			if why := fillConstantBuffer(m, cb, dataBytes(b.Data[k*per:(k+1)*per], b.Bits), in); why != "" {
				return why
			}
		}
	}
	return ""
}

// dataBytes lays out a buffer's values (each bits wide) as the bytes of
// the buffer, little-endian.
func dataBytes(vals []uint64, bits int) []byte {
	n := bits / 8
	out := make([]byte, 0, len(vals)*n)
	for _, v := range vals {
		for k := range n {
			out = append(out, byte(v>>(8*k)))
		}
	}
	return out
}

// fillConstantBuffer gives the interpreter the members of one constant
// buffer from its bytes.
func fillConstantBuffer(m *ir.Module, cb *hlsl.CBuffer, data []byte, in *interp.Input) string {
	g := m.Global(cb.Name)
	if g == nil || g.Space != ir.SpaceUniform || g.ValType.Kind != ir.KStruct || len(g.ValType.Fields) != len(cb.Members) {
		return "constant buffer " + cb.Name + " not lowered as one struct"
	}
	if in.Uniforms == nil {
		in.Uniforms = map[string]any{}
	}
	for i, mem := range cb.Members {
		f := g.ValType.Fields[i]
		var cells []any
		if !cbRead(f.Type, mem.Offset, data, &cells) {
			return fmt.Sprintf("constant buffer member of type %s", f.Type)
		}
		in.Uniforms[g.Name()+"."+f.Name] = cells
	}
	return ""
}

// cbScalar is the size of a scalar in a constant buffer: its width (2
// bytes for the 16-bit types, 8 for the 64-bit ones; a bool 4).
func cbScalar(t *ir.Type) int {
	if t.Kind == ir.KBool {
		return 4
	}
	return t.Bits / 8
}

// cbRead appends the values of a t at byte offset off of a constant
// buffer's bytes (zero beyond the data).
func cbRead(t *ir.Type, off int, data []byte, out *[]any) bool {
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat:
		n := cbScalar(t)
		if off%n != 0 {
			return false
		}
		var w uint64
		for k := n - 1; k >= 0; k-- {
			w <<= 8
			if off+k < len(data) {
				w |= uint64(data[off+k])
			}
		}
		if t.Kind == ir.KBool {
			*out = append(*out, w != 0)
		} else {
			*out = append(*out, fmt.Sprintf("0x%x", w))
		}
		return true
	case ir.KVector:
		for i := 0; i < t.Len; i++ {
			if !cbRead(t.Elem, off+cbScalar(t.Elem)*i, data, out) {
				return false
			}
		}
		return true
	case ir.KMatrix:
		for r := 0; r < t.Len; r++ {
			if !cbRead(ir.Vec(t.Elem, t.Cols), off+16*r, data, out) {
				return false
			}
		}
		return true
	case ir.KArray:
		stride := (cbSize(t.Elem) + 15) &^ 15 // each element starts a register
		for k := 0; k < t.Len; k++ {
			if !cbRead(t.Elem, off+stride*k, data, out) {
				return false
			}
		}
		return true
	case ir.KStruct:
		o := 0
		for _, f := range t.Fields {
			o = cbPlace(o, f.Type)
			if !cbRead(f.Type, off+o, data, out) {
				return false
			}
			o += cbSize(f.Type)
		}
		return true
	}
	return false
}

// cbSize is the size of a t in a constant buffer.
func cbSize(t *ir.Type) int {
	switch t.Kind {
	case ir.KVector:
		return cbScalar(t.Elem) * t.Len
	case ir.KMatrix:
		return 16*(t.Len-1) + cbScalar(t.Elem)*t.Cols
	case ir.KArray:
		e := cbSize(t.Elem)
		return (t.Len-1)*((e+15)&^15) + e
	case ir.KStruct:
		o := 0
		for _, f := range t.Fields {
			o = cbPlace(o, f.Type) + cbSize(f.Type)
		}
		return o
	}
	return cbScalar(t)
}

// cbPlace is where a t goes when the next free byte is off: matrices,
// arrays and structs start a register, nothing straddles one, and a
// scalar or vector starts at a multiple of its scalar size (as
// hlsl.CBufferPlace places the frontend's members).
func cbPlace(off int, t *ir.Type) int {
	size := cbSize(t)
	switch t.Kind {
	case ir.KMatrix, ir.KArray, ir.KStruct:
		return (off + 15) &^ 15
	}
	n := cbScalar(t.Scalar())
	off = (off + n - 1) / n * n
	if off/16 != (off+size-1)/16 {
		return (off + 15) &^ 15
	}
	return off
}
