package spirv

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/internal/vkd3d"
	"passlens/samples"
)

// sizeStats describes a module without its debug instructions (OpName,
// OpMemberName, OpSource*, OpString, OpLine, OpModuleProcessed): the fair
// basis for comparing two compilers' output.
type sizeStats struct {
	bytes  int // header and non-debug instructions
	insts  int // non-debug instructions
	body   int // instructions inside functions (OpFunction..OpFunctionEnd)
	mem    int // OpLoad, OpStore, OpAccessChain, OpVariable in functions
	cf     int // OpLabel, OpBranch*, OpSelectionMerge, OpLoopMerge, OpPhi
	global int // types, constants, global variables, decorations, modes
}

func (s sizeStats) String() string {
	return fmt.Sprintf("%d B %d inst (body %d: mem %d, cf %d; global %d)", s.bytes, s.insts, s.body, s.mem, s.cf, s.global)
}

// codeStats measures a module.
func codeStats(words []uint32) (sizeStats, error) {
	d, err := Decode(words)
	if err != nil {
		return sizeStats{}, err
	}
	s := sizeStats{bytes: 20}
	inFunc := false
	for _, in := range d.Insts {
		switch in.Opcode {
		case OpName, OpMemberName, 3, 4, 7, 8, 330: // OpSource, OpSourceExtension, OpString, OpLine, OpModuleProcessed
			continue
		}
		s.insts++
		s.bytes += 4 * (1 + len(in.Operands))
		if in.Opcode == OpFunction {
			inFunc = true
		}
		if !inFunc {
			s.global++
			continue
		}
		s.body++
		switch in.Opcode {
		case OpLoad, OpStore, OpAccessChain, OpVariable:
			s.mem++
		case OpLabel, OpBranch, OpBranchConditional, OpSelectionMerge, OpLoopMerge, OpPhi, OpSwitch:
			s.cf++
		}
		if in.Opcode == OpFunctionEnd {
			inFunc = false
		}
	}
	return s, nil
}

// glslangStage is glslangValidator's -S name of an IR stage.
func glslangStage(st ir.Stage) string {
	return map[ir.Stage]string{ir.StageCompute: "comp", ir.StagePixel: "frag", ir.StageVertex: "vert"}[st]
}

// glslangSPIRV compiles HLSL with glslangValidator -V for Vulkan 1.1.
func glslangSPIRV(t testing.TB, glslang, name string, src []byte, entry, stage string) ([]uint32, error) {
	dir := t.TempDir()
	in := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".hlsl")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "g.spv")
	if msg, err := exec.Command(glslang, "-V", "-D", "-e", entry, "-S", stage, "--target-env", "vulkan1.1", "-o", out, in).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s", glslangError(string(msg)))
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Words(b)
	if err != nil {
		return nil, err
	}
	// glslang occasionally emits invalid modules (e.g. for matrices in
	// structured buffers); those are no basis for a comparison.
	if msg := spirvVal(t, w, "vulkan1.1"); msg != "" {
		return nil, fmt.Errorf("glslang's module is invalid: %s", firstLine(msg))
	}
	return w, nil
}

// glslangError picks the first ERROR line of glslang's output.
func glslangError(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "ERROR: ") && !strings.Contains(l, "compilation errors") {
			return strings.TrimPrefix(l, "ERROR: ")
		}
	}
	return firstLine(out)
}

// sizeRow is one compared shader.
type sizeRow struct {
	name, stage  string
	ours, theirs sizeStats
}

func (r sizeRow) ratio() float64 { return float64(r.ours.bytes) / float64(r.theirs.bytes) }

// sizeSummary aggregates rows: totals and the geometric mean of the
// byte ratios.
func sizeSummary(rows []sizeRow) string {
	var ob, gb, oi, gi, larger int
	logSum := 0.0
	for _, r := range rows {
		ob += r.ours.bytes
		gb += r.theirs.bytes
		oi += r.ours.insts
		gi += r.theirs.insts
		logSum += math.Log(r.ratio())
		if r.ours.bytes > r.theirs.bytes {
			larger++
		}
	}
	if len(rows) == 0 {
		return "no shaders"
	}
	return fmt.Sprintf("%d shaders: passlens %d B / %d inst, glslang %d B / %d inst (total ratio %.2f, geometric mean %.2f); passlens larger for %d",
		len(rows), ob, oi, gb, gi, float64(ob)/float64(gb), math.Exp(logSum/float64(len(rows))), larger)
}

// vkd3dSizeSelection are the vkd3d shaders given their own table row
// (file:line of the shader section), chosen to cover arithmetic, control
// flow, matrices, buffers and wave operations.
var vkd3dSizeSelection = []string{
	"arithmetic-float.shader_test:2", "cbuffer.shader_test:254", "for.shader_test:9", "loop.shader_test:26",
	"function-return.shader_test:4", "matrix-indexing.shader_test:2", "mul.shader_test:34", "mul.shader_test:96",
	"non-const-indexing.shader_test:232", "srv-structuredbuffer.shader_test:118", "barriers.shader_test:73",
	"tgsm.shader_test:152", "uav-atomics.shader_test:222", "wave-ops-int.shader_test:25", "wave-ops-uint.shader_test:75",
}

// TestCodeSize compares passlens's SPIR-V with glslangValidator -V's for
// the same HLSL: every HLSL sample (in its own stage) and a selection of
// vkd3d shaders (with SPIRV_SIZE_VKD3D=all, every vkd3d shader both
// compile: about 700 glslang runs, 1.5 minutes). It logs a Markdown table
// for BENCHMARKS.md and fails when passlens cannot compile a sample that
// glslang compiles, when a row of the selection is missing, or when
// passlens's vkd3d total exceeds 1.5 times glslang's (a regression
// guard).
func TestCodeSize(t *testing.T) {
	t.Parallel()
	glslang := needTool(t, "glslangValidator")
	var sampleRows []sizeRow
	for _, s := range samples.All() {
		if !strings.HasSuffix(s.File, ".hlsl") {
			continue
		}
		m, _, err := load.File("samples/"+s.Name, load.Options{})
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		if err := runSpirvPipeline(m); err != nil {
			t.Errorf("%s: pipeline: %v", s.Name, err)
			continue
		}
		for _, ep := range m.EntryPoints() {
			stage := glslangStage(ep.Entry.Stage)
			gw, gerr := glslangSPIRV(t, glslang, s.Name, s.Source, ep.Name(), stage)
			if gerr != nil {
				t.Logf("%s (-S %s): glslangValidator rejects it: %v", s.Name, stage, gerr)
				continue
			}
			ow, err := Assemble(m, Options{Entry: ep.Name()})
			if err != nil {
				t.Errorf("%s: glslang compiles it, passlens fails: %v", s.Name, err)
				continue
			}
			ours, _ := codeStats(ow)
			theirs, _ := codeStats(gw)
			sampleRows = append(sampleRows, sizeRow{s.Name, stage, ours, theirs})
		}
	}
	var vkRows, selRows []sizeRow
	glslangRejects, glslangInvalid := 0, 0
	all := os.Getenv("SPIRV_SIZE_VKD3D") == "all"
	if _, err := vkd3d.Dir(); err == nil {
		mods, _ := loadVKD3D(t)
		want := map[string]bool{}
		for _, k := range vkd3dSizeSelection {
			want[k] = true
		}
		for _, vm := range mods {
			key := vm.u.Key()
			if !all && !want[key] {
				continue
			}
			if err := runSpirvPipeline(vm.m); err != nil {
				continue
			}
			ow, err := Assemble(vm.m, Options{})
			if err != nil {
				continue // counted by TestVKD3D
			}
			eps := vm.m.EntryPoints()
			stage := glslangStage(eps[0].Entry.Stage)
			src := strings.Repeat("\n", vm.u.Line-1) + vm.u.Src
			gw, gerr := glslangSPIRV(t, glslang, vm.u.File, []byte(src), "main", stage)
			if gerr != nil {
				if strings.HasPrefix(gerr.Error(), "glslang's module is invalid") {
					glslangInvalid++
				} else {
					glslangRejects++
				}
				if all {
					t.Logf("vkd3d %s: %v", key, gerr)
				}
				continue
			}
			ours, _ := codeStats(ow)
			theirs, _ := codeStats(gw)
			r := sizeRow{key, stage, ours, theirs}
			vkRows = append(vkRows, r)
			if want[key] {
				selRows = append(selRows, r)
				delete(want, key)
			}
		}
		for k := range want {
			t.Errorf("vkd3d selection: %s was not compared (renumbered, or no longer compiles with both)", k)
		}
	}
	t.Log("| shader | stage | passlens B | glslang B | ratio | passlens inst (body, mem, cf) | glslang inst (body, mem, cf) |")
	t.Log("|---|---|---:|---:|---:|---:|---:|")
	for _, r := range append(sampleRows, selRows...) {
		t.Logf("| %s | %s | %d | %d | %.2f | %d (%d, %d, %d) | %d (%d, %d, %d) |", r.name, r.stage, r.ours.bytes, r.theirs.bytes, r.ratio(),
			r.ours.insts, r.ours.body, r.ours.mem, r.ours.cf, r.theirs.insts, r.theirs.body, r.theirs.mem, r.theirs.cf)
	}
	if all {
		for _, r := range vkRows {
			t.Logf("vkd3d %s %s: ratio %.2f; passlens %v; glslang %v", r.name, r.stage, r.ratio(), r.ours, r.theirs)
		}
	}
	t.Logf("samples: %s", sizeSummary(sampleRows))
	t.Logf("vkd3d: %s; glslang rejects %d that passlens compiles and emits %d invalid modules", sizeSummary(vkRows), glslangRejects, glslangInvalid)
	if len(sampleRows) == 0 {
		t.Error("no sample compared")
	}
	var ob, gb int
	for _, r := range vkRows {
		ob += r.ours.bytes
		gb += r.theirs.bytes
	}
	if 2*ob > 3*gb {
		t.Errorf("passlens's vkd3d total %d B exceeds 1.5 x glslang's %d B", ob, gb)
	}
}

// BenchmarkAssemble measures the encoder and disassembler on switch42.
func BenchmarkAssemble(b *testing.B) {
	m := parseFile(b, "../../interp/testdata/switch42.pir")
	if err := runSpirvPipeline(m); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w, err := Assemble(m, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Disassemble(w); err != nil {
			b.Fatal(err)
		}
	}
}
