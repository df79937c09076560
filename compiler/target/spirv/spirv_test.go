package spirv

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/target"
	"passlens/samples"
)

// checkModule assembles m (after the spirv pipeline), validates the
// binary with spirv-val, compares Disassemble with spirv-dis, and checks
// the no-fallthrough property of every OpSwitch.
func checkModule(t *testing.T, name string, m *ir.Module, opts Options) []uint32 {
	t.Helper()
	words, err := Assemble(m, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		text, _ := Disassemble(words)
		t.Fatalf("%s: spirv-val rejects the module:\n%s\n%s", name, msg, text)
	}
	text, err := Disassemble(words)
	if err != nil {
		t.Fatalf("%s: Disassemble: %v", name, err)
	}
	if want := spirvDis(t, words); text != want {
		t.Fatalf("%s: Disassemble differs from spirv-dis:\n%s", name, firstDiff(text, want))
	}
	if err := checkSwitches(words); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return words
}

// firstDiff describes the first differing line of two texts.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n  got:  " + a + "\n  want: " + b
		}
	}
	return "(equal)"
}

// pirFiles lists the .pir modules the tests compile: this package's
// testdata and the interpreter's.
func pirFiles(t *testing.T) []string {
	var out []string
	for _, pat := range []string{"testdata/*.pir", "../../interp/testdata/*.pir"} {
		fs, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fs...)
	}
	return out
}

// TestPIRModules compiles every .pir test module through the spirv
// pipeline, one entry point at a time and all together.
func TestPIRModules(t *testing.T) {
	t.Parallel()
	files := pirFiles(t)
	if len(files) < 5 {
		t.Fatalf("only %d .pir modules found", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			m := parseFile(t, f)
			if err := runSpirvPipeline(m); err != nil {
				t.Fatalf("pipeline: %v", err)
			}
			checkModule(t, f, m, Options{})
			if eps := m.EntryPoints(); len(eps) > 1 {
				for _, ep := range eps {
					checkModule(t, f+"@"+ep.Name(), m, Options{Entry: ep.Name()})
				}
			}
			checkModule(t, f+" (stripped)", m, Options{StripNames: true})
		})
	}
}

// TestSamples compiles every embedded sample that loads and has an entry
// point (HLSL samples join automatically once the HLSL lowering lands).
func TestSamples(t *testing.T) {
	t.Parallel()
	compiled := 0
	for _, s := range samples.All() {
		m, _, err := load.File("samples/"+s.Name, load.Options{})
		if err != nil {
			t.Logf("%s: not loadable yet: %v", s.Name, firstLine(err.Error()))
			continue
		}
		if len(m.EntryPoints()) == 0 {
			t.Logf("%s: no entry point", s.Name)
			continue
		}
		if err := runSpirvPipeline(m); err != nil {
			t.Errorf("%s: pipeline: %v", s.Name, err)
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			checkModule(t, s.Name, m, Options{})
		})
		compiled++
	}
	t.Logf("%d samples compiled and validated", compiled)
	if compiled == 0 {
		t.Fatal("no sample compiled")
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// TestTargetRegistry checks the registered emitter's output shape.
func TestTargetRegistry(t *testing.T) {
	t.Parallel()
	m := parseFile(t, "../../interp/testdata/switch42.pir")
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	out, err := target.Emit("spirv", m)
	if err != nil {
		t.Fatal(err)
	}
	if out.Lang != "spvasm" || out.Ext != ".spvasm" || out.BinExt != ".spv" {
		t.Errorf("output metadata %q %q %q", out.Lang, out.Ext, out.BinExt)
	}
	words, err := Words(out.Binary)
	if err != nil || len(words) < 5 || words[0] != Magic || words[1] != Version13 {
		t.Fatalf("binary header: %v %x", err, out.Binary[:min(20, len(out.Binary))])
	}
	for _, want := range []string{"OpEntryPoint GLCompute %main \"main\"", "OpGroupNonUniformIAdd %uint %uint_3 Reduce %uint_1",
		"OpExecutionMode %main LocalSize 4 1 1", "OpDecorate %value Binding 0"} {
		if !strings.Contains(out.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, out.Text)
		}
	}
}

// TestErrors checks that unsupported input fails with a located error
// rather than invalid SPIR-V.
func TestErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"no entry", "define void @f() {\nentry:\n  ret\n}\n", "no entry point"},
		{"declared callee", "declare void @g()\n\ndefine void @main() compute numthreads(1, 1, 1) {\nentry:\n  call void @g()\n  ret\n}\n", "only declared"},
		{"unannotated loop", "define void @main() compute numthreads(1, 1, 1) {\nentry:\n  br %l\nl:\n  br %l\n}\n", "no loop_merge"},
		{"discard in compute", "define void @main() compute numthreads(1, 1, 1) {\nentry:\n  discard\n}\n", "only pixel shaders"},
		{"bool stage input", "@b = global input bool semantic \"FLAG\"\n\ndefine void @main() pixel {\nentry:\n  %b = load ptr<input, bool> @b\n  ret\n}\n", "cannot carry bools"},
		{"bad sv", "@b = global input u32 semantic \"SV_Coverage\"\n\ndefine void @main() pixel {\nentry:\n  %b = load ptr<input, u32> @b\n  ret\n}\n", "SV_Coverage"},
		// Source positions recorded in the IR locate the error.
		{"located global", "@b = global output u32 semantic \"SV_InstanceID\" !loc 7:9\n\ndefine void @main() pixel {\nentry:\n  store u32 0, ptr<output, u32> @b\n  ret\n}\n", "spirv: 7:9: global @b: system-value semantic SV_InstanceID"},
		{"clip distance type", "@c = global output <2 x i32> semantic \"SV_ClipDistance\"\n\ndefine void @main() vertex {\nentry:\n  store <2 x i32> zero, ptr<output, <2 x i32>> @c\n  ret\n}\n", "needs a float, a float vector or a float array"},
		{"located instr", "define void @main() pixel {\nentry:\n  intr void GroupMemoryBarrierWithGroupSync() !loc 3:5\n  ret\n}\n", "spirv: 3:5: @main %entry: `intr void GroupMemoryBarrierWithGroupSync()`: GroupMemoryBarrierWithGroupSync in a function a pixel entry point calls"},
	}
	// packoffset placements Vulkan's uniform buffer layout cannot express.
	placed := func(fields string) string {
		return "type %CB = { " + fields + " }\n\n@cb = global uniform %CB kind \"cbuffer\"\n@o = global output f32 semantic \"SV_Target0\"\n\n" +
			"define void @main() pixel {\nentry:\n  %p = access ptr<uniform, %CB> @cb, i32 1\n  %v = load ptr<uniform, f32> %p\n  store f32 %v, ptr<output, f32> @o\n  ret\n}\n"
	}
	cases = append(cases,
		struct{ name, src, want string }{"placed in array padding", placed("[2 x f32] b offset 16, f32 c offset 36"),
			"member c (f32) of CB at offset 36 lies within b, which Vulkan's uniform buffer (relaxed std140) layout extends to offset 48"},
		struct{ name, src, want string }{"placed misaligned", placed("<3 x f32> v offset 8, f32 c offset 0"),
			"member v (<3 x f32>) of CB at offset 8 is not aligned"},
		struct{ name, src, want string }{"placed overlapping", placed("<4 x f32> v offset 0, f32 c offset 4"),
			"member c (f32) of CB at offset 4 lies within v"},
	)
	for _, c := range cases {
		m, err := ir.ParseModule(c.name, []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, err = Assemble(m, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// TestPlacedOffsets: a cbuffer whose members have explicit offsets
// (packoffset) is declared with exactly those Offsets, and BufferLayout
// reports them to hosts that fill the buffer.
func TestPlacedOffsets(t *testing.T) {
	t.Parallel()
	m := parseFile(t, filepath.Join("testdata", "packoffset.pir"))
	l, err := BufferLayout(m.Global("cb"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{48, 16, 4, 64, 96}; fmt.Sprint(l.Offsets) != fmt.Sprint(want) || l.Size != 112 {
		t.Errorf("layout offsets %v size %d, want %v size 112", l.Offsets, l.Size, want)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	text := spirvDis(t, checkModule(t, "packoffset.pir", m, Options{}))
	for i, off := range []int{48, 16, 4, 64, 96} {
		if want := fmt.Sprintf("OpMemberDecorate %%CB %d Offset %d\n", i, off); !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

// TestPartlyPlacedLayout: members without an offset beside placed ones go
// after every placed member, in order, where the std140 rules put them
// (ir.PlaceMembers).
func TestPartlyPlacedLayout(t *testing.T) {
	t.Parallel()
	v4 := ir.Vec(ir.F32, 4)
	cases := []struct {
		fields []ir.Field
		want   []int
	}{
		{[]ir.Field{{Name: "a", Type: ir.F32, Placed: true, Offset: 16}, {Name: "b", Type: ir.F32}, {Name: "c", Type: v4}, {Name: "d", Type: ir.F32, Placed: true, Offset: 0}},
			[]int{16, 20, 32, 0}},
		{[]ir.Field{{Name: "x", Type: ir.F32}, {Name: "y", Type: ir.F32, Placed: true, Offset: 0}}, []int{4, 0}},
		{[]ir.Field{{Name: "x", Type: v4}, {Name: "m", Type: ir.Mat(ir.F32, 2, 4), Placed: true, Offset: 0}, {Name: "z", Type: ir.F32}}, []int{32, 0, 48}},
	}
	for i, c := range cases {
		st := ir.Struct(fmt.Sprintf("P%d", i), c.fields)
		l, err := typeLayout(st, ruleStd140)
		if err != nil {
			t.Errorf("case %d: %v", i, err)
			continue
		}
		if fmt.Sprint(l.Offsets) != fmt.Sprint(c.want) {
			t.Errorf("case %d: offsets %v, want %v", i, l.Offsets, c.want)
		}
	}
}

// TestNestedRelaxedVectorLayout: a struct {int, int2} keeps its int2 at
// offset 4 (the relaxed rule) and is aligned to 16, so nested after two
// ints it starts at 16 and its int2 cannot straddle 16 bytes (at 8 it
// would sit at 12..20, which spirv-val rejects: offload-test-suite
// ConstantBufferT/nested). The module validates.
func TestNestedRelaxedVectorLayout(t *testing.T) {
	t.Parallel()
	x := ir.Struct("NX", []ir.Field{{Name: "a1", Type: ir.I32}})
	y := ir.Struct("NY", []ir.Field{{Name: "a1", Type: ir.I32}, {Name: "a2", Type: ir.Vec(ir.I32, 2)}})
	outer := ir.Struct("NOuter", []ir.Field{{Name: "x1", Type: x}, {Name: "x2", Type: x}, {Name: "y", Type: y}})
	ly, err := typeLayout(y, ruleStd430)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ly.Offsets) != "[0 4]" || ly.Align != 16 || ly.Size != 16 {
		t.Errorf("{int, int2}: offsets %v align %d size %d, want [0 4], 16, 16", ly.Offsets, ly.Align, ly.Size)
	}
	lo, err := typeLayout(outer, ruleStd430)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(lo.Offsets) != "[0 4 16]" {
		t.Errorf("outer offsets %v, want [0 4 16]", lo.Offsets)
	}
	m, err := ir.ParseModule("nested.pir", []byte(`module "nested"

type %NX = { i32 a1 }
type %NY = { i32 a1, <2 x i32> a2 }
type %NOuter = { %NX x1, %NX x2, %NY y }

@Out = global storage [? x %NOuter] binding 0, 0 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %p = access ptr<storage, [? x %NOuter]> @Out, u32 0, i32 2, i32 1
  store <2 x i32> <3, 4>, ptr<storage, <2 x i32>> %p
  ret
}
`))
	if err != nil {
		t.Fatal(err)
	}
	checkModule(t, "nested", m, Options{})
}
