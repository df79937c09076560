package spirv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/load"
	"passlens/samples"
)

// codeStats counts a module's words and its instructions other than debug
// names and source annotations (OpName, OpMemberName, OpSource*,
// OpString, OpLine, OpModuleProcessed), the fair basis for comparing two
// compilers' output.
func codeStats(words []uint32) (total, nonDebug int, err error) {
	d, err := Decode(words)
	if err != nil {
		return 0, 0, err
	}
	for _, in := range d.Insts {
		switch in.Opcode {
		case OpName, OpMemberName, 3, 4, 7, 8, 330: // OpSource, OpSourceExtension, OpString, OpLine, OpModuleProcessed
			continue
		}
		nonDebug++
	}
	return len(words), nonDebug, nil
}

// TestCodeSize compares passlens's SPIR-V with glslangValidator's for the
// same HLSL (switch42, whose IR is hand-written in the interpreter's
// testdata until the HLSL lowering lands, and every HLSL sample that
// loads). It only logs: the numbers go to BENCHMARKS.md.
func TestCodeSize(t *testing.T) {
	glslang, err := exec.LookPath("glslangValidator")
	if err != nil {
		t.Skip("glslangValidator not installed")
	}
	type item struct{ name, hlsl string }
	items := []item{{"switch42 (.pir)", "../../interp/testdata/switch42.hlsl"}}
	for _, s := range samples.All() {
		if strings.HasSuffix(s.File, ".hlsl") {
			items = append(items, item{s.Name, ""})
		}
	}
	for _, it := range items {
		var ours []uint32
		hlslPath := it.hlsl
		if it.hlsl != "" {
			m := parseFile(t, "../../interp/testdata/switch42.pir")
			if err := runSpirvPipeline(m); err != nil {
				t.Fatal(err)
			}
			if ours, err = Assemble(m, Options{}); err != nil {
				t.Fatal(err)
			}
		} else {
			m, _, err := load.File("samples/"+it.name, load.Options{})
			if err != nil || len(m.EntryPoints()) != 1 || m.EntryPoints()[0].Entry.Stage.String() != "compute" {
				continue
			}
			if err := runSpirvPipeline(m); err != nil {
				continue
			}
			if ours, err = Assemble(m, Options{}); err != nil {
				t.Errorf("%s: %v", it.name, err)
				continue
			}
			s, _ := samples.Lookup(it.name)
			hlslPath = filepath.Join(t.TempDir(), s.File)
			if err := os.WriteFile(hlslPath, s.Source, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(t.TempDir(), "g.spv")
		if msg, err := exec.Command(glslang, "-V", "-D", "-e", "main", "-S", "comp", "--target-env", "vulkan1.1", "-o", out, hlslPath).CombinedOutput(); err != nil {
			t.Logf("%s: glslangValidator fails: %s", it.name, firstLine(string(msg)))
			continue
		}
		gb, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		gw, _ := Words(gb)
		ow, on, _ := codeStats(ours)
		gwn, gn, _ := codeStats(gw)
		t.Logf("| %s | %d | %d | %d | %d |", it.name, 4*ow, on, 4*gwn, gn)
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
