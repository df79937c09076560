package hlslgen

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all"
	"passlens/internal/testtool"
)

func TestGenerateDeterministicAndSized(t *testing.T) {
	cfg := Config{Lines: 2000, Seed: 7}
	a, st := Generate(cfg)
	b, _ := Generate(cfg)
	if !bytes.Equal(a, b) {
		t.Fatal("same config gave different output")
	}
	c, _ := Generate(Config{Lines: 2000, Seed: 8})
	if bytes.Equal(a, c) {
		t.Fatal("different seeds gave the same output")
	}
	if n := bytes.Count(a, []byte("\n")); n != st.Lines || n < cfg.Lines || n > cfg.Lines+200 {
		t.Fatalf("lines = %d (stats %d), want %d..%d", n, st.Lines, cfg.Lines, cfg.Lines+200)
	}
	if st.Functions == 0 || st.Loops == 0 || st.Switches == 0 || st.WaveOps == 0 {
		t.Fatalf("missing constructs: %+v", st)
	}
	// Every generated function is called from main exactly once.
	for i := 0; i < st.Functions; i++ {
		call := []byte("acc += f" + strconv.Itoa(i) + "(")
		if bytes.Count(a, call) != 1 {
			t.Fatalf("f%d is called %d times", i, bytes.Count(a, call))
		}
	}
}

// TestBothCompilersAccept compiles generated shaders with passlens (default
// spirv pipeline and back end, validated by spirv-val) and with
// glslangValidator, the benchmark's two sides.
func TestBothCompilersAccept(t *testing.T) {
	glslang := testtool.Require(t, "glslangValidator", "glslang-tools")
	spirvVal := testtool.Require(t, "spirv-val", "spirv-tools")
	dir := t.TempDir()
	for seed := uint64(1); seed <= 4; seed++ {
		src, _ := Generate(Config{Lines: 1500, Seed: seed})
		path := filepath.Join(dir, "gen"+strconv.FormatUint(seed, 10)+".hlsl")
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(glslang, "-V", "-D", "-e", "main", "-S", "comp", "--target-env", "vulkan1.1",
			"-o", path+".glslang.spv", path).CombinedOutput(); err != nil {
			t.Fatalf("seed %d: glslangValidator: %v\n%s", seed, err, out)
		}
		bin := compileSPIRV(t, path)
		spv := path + ".spv"
		if err := os.WriteFile(spv, bin, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(spirvVal, "--target-env", "vulkan1.1", spv).CombinedOutput(); err != nil {
			t.Fatalf("seed %d: spirv-val rejects passlens's output: %v\n%s", seed, err, out)
		}
	}
}

func compileSPIRV(t testing.TB, path string) []byte {
	m, _, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	res := pipeline.Run(context.Background(), m, defaultSpec(t, target.SPIRV), pipeline.Options{Target: target.SPIRV})
	if res.Err != nil {
		t.Fatalf("%s: pass %s: %s", path, res.Err.Pass, res.Err.Msg)
	}
	o, err := target.Emit(target.SPIRV, m)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return o.Binary
}

func defaultSpec(t testing.TB, tgt target.Name) pipeline.Spec {
	text := ""
	for i, p := range passes.DefaultPipelines[tgt] {
		if i > 0 {
			text += ","
		}
		text += p
	}
	spec, err := pipeline.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// benchLines is the benchmark's shader size: PASSLENS_HLSL_LINES or 50,000.
func benchLines(b *testing.B) int {
	if s := os.Getenv("PASSLENS_HLSL_LINES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("PASSLENS_HLSL_LINES=%q: want a positive number", s)
		}
		return n
	}
	return Default.Lines
}

// BenchmarkHLSL runs the generated shader (Default, or PASSLENS_HLSL_LINES
// lines) through each phase in process:
//
//	go test ./bench/hlslgen -run X -bench HLSL -benchmem -benchtime 3x
//
// frontend = preprocess+parse+check+lower; pipeline = the default spirv
// pipeline with snapshots, verifier after every pass (like passlens
// compile); emit = the SPIR-V back end; all = the three together.
func BenchmarkHLSL(b *testing.B) {
	cfg := Default
	cfg.Lines = benchLines(b)
	src, st := Generate(cfg)
	b.Logf("%d lines, %d functions", st.Lines, st.Functions)
	frontend := func(b *testing.B) *hlsl.Program {
		prog, diags := hlsl.Parse("gen.hlsl", src, hlsl.Options{})
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		if diags := hlsl.Check(prog, hlsl.Options{}); diags.HasErrors() {
			b.Fatal(diags)
		}
		return prog
	}
	lowerProg := func(b *testing.B, prog *hlsl.Program) *ir.Module {
		m, diags := lower.Lower(prog, hlsl.Options{})
		if diags.HasErrors() || m == nil {
			b.Fatal(diags)
		}
		return m
	}
	spec := defaultSpec(b, target.SPIRV)
	run := func(b *testing.B, in *ir.Module) {
		res := pipeline.Run(context.Background(), in, spec, pipeline.Options{Target: target.SPIRV, VerifyEach: true})
		if res.Err != nil {
			b.Fatalf("pass %s: %s", res.Err.Pass, res.Err.Msg)
		}
	}
	emit := func(b *testing.B, in *ir.Module) {
		if _, err := target.Emit(target.SPIRV, in); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("parse+check", func(b *testing.B) {
		for b.Loop() {
			frontend(b)
		}
	})
	b.Run("lower", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			prog := frontend(b)
			b.StartTimer()
			lowerProg(b, prog)
		}
	})
	b.Run("pipeline", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			in := lowerProg(b, frontend(b))
			b.StartTimer()
			run(b, in)
		}
	})
	b.Run("emit", func(b *testing.B) {
		in := lowerProg(b, frontend(b))
		run(b, in)
		for b.Loop() { // the first call resets the timer
			emit(b, in)
		}
	})
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			in := lowerProg(b, frontend(b))
			run(b, in)
			emit(b, in)
		}
	})
}
