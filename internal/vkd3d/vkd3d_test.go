package vkd3d

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// fileNamed returns the loaded file with the given name.
func fileNamed(t *testing.T, files []*File, name string) *File {
	t.Helper()
	for _, f := range files {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("%s not loaded", name)
	return nil
}

// TestLoadCounts checks the totals of the vkd3d 1.17 data (README.md:
// 201 files) against counts made independently with grep: 3140 section
// headers at column 0, 1630 shader sections (pixel, vertex, compute,
// geometry, hull, domain, effect) and 1006 [test] sections.
func TestLoadCounts(t *testing.T) {
	files := Load(t)
	var sections, units, tests int
	stages := map[string]int{}
	for _, f := range files {
		sections += len(f.Sections)
		for _, u := range f.Units() {
			units++
			stages[u.Stage]++
		}
		for _, s := range f.Sections {
			if s.Header == "test" {
				tests++
			}
		}
	}
	if len(files) != 201 || sections != 3140 || units != 1630 || tests != 1006 {
		t.Errorf("got %d files, %d sections, %d units, %d tests; want 201, 3140, 1630, 1006", len(files), sections, units, tests)
	}
	// grep -c '^\[pixel' etc. over the files.
	want := map[string]int{"pixel": 1334, "compute": 115, "vertex": 61, "effect": 81, "hull": 22, "geometry": 9, "domain": 8}
	if !reflect.DeepEqual(stages, want) {
		t.Errorf("units by stage %v, want %v", stages, want)
	}
}

// TestUnitsByHand checks units whose fields were read off the files.
func TestUnitsByHand(t *testing.T) {
	files := Load(t)
	// arithmetic-int.shader_test starts with "[pixel shader]" on line 1
	// and no [require]: every model applies.
	u := fileNamed(t, files, "arithmetic-int.shader_test").Units()[0]
	if u.Line != 2 || u.Stage != "pixel" || u.Header != "pixel shader" || u.MinSM != 0 || u.MaxSM != 99 || len(u.Features) != 0 ||
		!strings.HasPrefix(u.Src, "float4 main() : SV_TARGET\n{\n    int x = 5;\n") || u.Key() != "arithmetic-int.shader_test:2" {
		t.Errorf("arithmetic-int unit 0: %+v", u)
	}
	if sm, ok := u.SM6(); sm != 6 || !ok || u.ExpectFail(6) {
		t.Errorf("arithmetic-int unit 0 at SM6: %v %v %v", sm, ok, u.ExpectFail(6))
	}
	// length-property.shader_test:1 is "[pixel shader fail(sm<4 | sm>=6)]".
	u = fileNamed(t, files, "length-property.shader_test").Units()[0]
	if u.Label() != "length-property.shader_test:2 [pixel shader fail(sm<4 | sm>=6)]" || !u.ExpectFail(6) || !u.ExpectFail(3) || u.ExpectFail(5) {
		t.Errorf("length-property unit 0: %s fail6=%v fail3=%v fail5=%v", u.Label(), u.ExpectFail(6), u.ExpectFail(3), u.ExpectFail(5))
	}
	// majority-pragma.shader_test:229-230: "[require]" / "options: row-major",
	// a "% Compiler options" comment before it; "[pixel shader]" at 232.
	var mp *Unit
	for _, x := range fileNamed(t, files, "majority-pragma.shader_test").Units() {
		if x.Line == 233 {
			mp = x
		}
	}
	if mp == nil || !reflect.DeepEqual(mp.Options, []string{"row-major"}) || len(mp.Features) != 0 || mp.MaxSM != 99 ||
		!strings.HasPrefix(mp.Src, "#pragma pack_matrix(column_major)\n") {
		t.Errorf("majority-pragma unit at 233: %+v", mp)
	}
	// compute.shader_test: [require] "shader model >= 5.0" and
	// "format r32-float uav-load", then [uav 0], [compute shader] at 11.
	f := fileNamed(t, files, "compute.shader_test")
	u = f.Units()[0]
	if u.Line != 12 || u.Stage != "compute" || u.MinSM != 5 || !reflect.DeepEqual(u.Features, []string{"format r32-float uav-load"}) {
		t.Errorf("compute unit 0: %+v", u)
	}
	// Its indented "    [numthreads(1, 1, 1)]" is source, not a section.
	if !strings.Contains(u.Src, "    [numthreads(1, 1, 1)]\n") {
		t.Errorf("compute unit 0 lost its attribute line:\n%s", u.Src)
	}
	if h := []string{f.Sections[0].Header, f.Sections[1].Header, f.Sections[2].Header, f.Sections[3].Header}; !reflect.DeepEqual(h, []string{"require", "uav 0", "compute shader", "test"}) {
		t.Errorf("compute sections %v", h)
	}
	if c := f.Sections[3].Commands(6); !reflect.DeepEqual(c, []Command{{"dispatch 1 1 1", 21}, {"probe uav 0 (0, 0) f32(-123.0)", 22}}) {
		t.Errorf("compute commands %v", c)
	}
}

// TestOutsideSubsetByHand checks the subset classification of units read
// off the files.
func TestOutsideSubsetByHand(t *testing.T) {
	files := Load(t)
	unitAt := func(file string, line int) *Unit {
		for _, u := range fileNamed(t, files, file).Units() {
			if u.Line == line {
				return u
			}
		}
		t.Fatalf("no unit at %s:%d", file, line)
		return nil
	}
	for _, c := range []struct {
		file string
		line int
		want string
	}{
		{"arithmetic-int.shader_test", 2, ""},
		// [require] "shader model >= 5.0", "float64" at 130-132: inside
		// the subset since issue 17 item 3.
		{"arithmetic-float-uniform.shader_test", 135, ""},
		// [require] at line 1 names "geometry-shader" (line 4).
		{"rasteriser-ordered-views.shader_test", 27, "geometry shader"},
		{"hull-shader-syntax.shader_test", 9, "hull shader"},
		// [pixel shader dxbc-tpf-hex] at 51.
		{"abs.shader_test", 52, "bytecode"},
	} {
		u := unitAt(c.file, c.line)
		if got := u.OutsideSubset(); got != c.want {
			t.Errorf("%s: OutsideSubset = %q, want %q", u.Label(), got, c.want)
		}
	}
	if u := unitAt("abs.shader_test", 52); u.MinSM != 5 || u.MaxSM != 5.1 || !u.Has(5) || u.Has(5.1) || u.Has(4) {
		t.Errorf("abs.shader_test:52 range [%v, %v), want [5, 5.1)", u.MinSM, u.MaxSM)
	}
	if u := unitAt("hull-shader-syntax.shader_test", 36); !u.ExpectFail(6) || u.ExpectFail(5) {
		t.Errorf("%s: fail(sm>=6) not honoured", u.Label())
	}
}

// TestCommandsByHand checks prefix handling on arithmetic-int.shader_test
// lines 148-153, where "todo if(sm<4)" and "if(sm>=4)" give different
// probes to SM1-3 and SM4+.
func TestCommandsByHand(t *testing.T) {
	f := fileNamed(t, Load(t), "arithmetic-int.shader_test")
	var test *Section
	for _, s := range f.Sections {
		if s.Header == "test" && s.Line == 150 {
			test = s
		}
	}
	if test == nil {
		t.Fatal("no [test] at arithmetic-int.shader_test:150")
	}
	want6 := []Command{{"draw quad", 151}, {"probe (0, 0) rgba(-2147483648.0, -2147483648.0, 0, 0)", 153}}
	want3 := []Command{{"draw quad", 151}, {"probe (0, 0) rgba(-2147483648.0, 2147483648.0, 0, 0)", 152}}
	if c := test.Commands(6); !reflect.DeepEqual(c, want6) {
		t.Errorf("Commands(6) = %v, want %v", c, want6)
	}
	if c := test.Commands(3); !reflect.DeepEqual(c, want3) {
		t.Errorf("Commands(3) = %v, want %v", c, want3)
	}
	s := &Section{Header: "test", Line: 10, Body: []string{"% c", "", "bug(msl) todo(glsl) uniform 0 float 1", "todo probe all rgba (1, 2, 3, 4)", "if(sm>=6 & msl) draw quad", "if(sm<4 | sm>=6) dispatch 1 1 1"}}
	want := []Command{{"uniform 0 float 1", 13}, {"probe all rgba (1, 2, 3, 4)", 14}, {"dispatch 1 1 1", 16}}
	if c := s.Commands(6); !reflect.DeepEqual(c, want) {
		t.Errorf("Commands = %v, want %v", c, want)
	}
}

// TestResourceByHand checks barriers.shader_test:64-70, a [uav 2] of
// three r32g32b32a32-float texels all 0.1 0.2 0.3 0.4, and the probe at
// line 91 against it.
func TestResourceByHand(t *testing.T) {
	f := fileNamed(t, Load(t), "barriers.shader_test")
	rs := Resources{}
	var r *Resource
	for _, s := range f.Sections {
		if s.Header == "uav 2" {
			rs.Declare(s.Header, s.Body)
			r = rs[[2]int{1, 2}]
		}
	}
	if r == nil {
		t.Fatal("no [uav 2]")
	}
	if !r.UAV || r.Slot != 2 || r.Dim != "buffer" || r.Width != 3 || r.Texel != 16 || r.Comps != 4 || r.Class != 'f' || r.Bad != "" || len(r.Words) != 12 {
		t.Fatalf("uav 2: %+v", r)
	}
	for i, w := range r.Words {
		if want := math.Float32bits([]float32{0.1, 0.2, 0.3, 0.4}[i%4]); w != want {
			t.Errorf("word %d = %#x, want %#x", i, w, want)
		}
	}
	probe := "probe uav 2 (0) rgba(42.0, 42.0, 42.0, 42.0)"
	if msg, skip := rs.ProbeUAV(probe); skip != "" || !strings.Contains(msg, "got 0.1") {
		t.Errorf("probe before the dispatch: msg %q skip %q", msg, skip)
	}
	for i := range 4 {
		r.Words[i] = math.Float32bits(42)
	}
	if msg, skip := rs.ProbeUAV(probe); msg != "" || skip != "" {
		t.Errorf("probe after writing 42: msg %q skip %q", msg, skip)
	}
	// compute.shader_test's [uav 0] is a 2d texture (a read-write
	// texture: one level; with more it cannot be bound).
	tex := ParseResource("uav 0", []string{"format r32-float", "size (2d, 1, 1)", "", "0.1"})
	if tex.Bad != "" || tex.Width != 1 || tex.Height != 1 || len(tex.Words) != 1 || tex.Words[0] != math.Float32bits(0.1) {
		t.Errorf("2d uav: %+v", tex)
	}
	if tex := ParseResource("uav 0", []string{"format r32-float", "size (2d, 2, 2)", "levels 2"}); tex.Bad != "texture" {
		t.Errorf("2d uav with 2 levels: %+v", tex)
	}
	// 64-bit probes: element x of a probe of n values is n 8-byte values
	// at x*8n (vkd3d's check_readback_data_u64vec2/_uint64/_double).
	r.Words[4], r.Words[5] = 6, 4 // element 1 of u64 pairs: 0x400000006
	r.Words[6], r.Words[7] = 0x17, 0
	if msg, skip := rs.ProbeUAV("probe uav 2 (1) u64(0x400000006, 0x17)"); msg != "" || skip != "" {
		t.Errorf("u64 probe: msg %q skip %q", msg, skip)
	}
	if msg, _ := rs.ProbeUAV("probe uav 2 (2) u64(0x400000006)"); msg != "" {
		t.Errorf("u64 probe of one value at word 4: %q", msg)
	}
	if msg, _ := rs.ProbeUAV("probe uav 2 (1) i64(-12, 0x17)"); !strings.Contains(msg, "want -12") {
		t.Errorf("i64 probe of a wrong value: %q", msg)
	}
	b := math.Float64bits(13.3)
	r.Words[2], r.Words[3] = uint32(b), uint32(b>>32)
	if msg, _ := rs.ProbeUAV("probe uav 2 (1) f64(13.3)"); msg != "" {
		t.Errorf("f64 probe: %q", msg)
	}
	if msg, _ := rs.ProbeUAV("probe uav 2 (1) f64(13.30000001)"); msg == "" {
		t.Error("f64 probe 13.30000001 matched 13.3")
	}
	if _, skip := rs.ProbeUAV("probe uav 5 (0) u32(1)"); skip != "undeclared resource" {
		t.Errorf("undeclared probe skip %q", skip)
	}
}

func TestUniformAndProbeLines(t *testing.T) {
	words := map[int]uint32{}
	if !SetUniform(words, "uniform 0 double2 1.5 -2") || !SetUniform(words, "uniform 4 int64_t2 -5 0x100000002") || !SetUniform(words, "uniform 8 uint64_t2 0xffffffffffffffff 7") {
		t.Fatal("64-bit uniforms rejected")
	}
	d0, d1 := math.Float64bits(1.5), math.Float64bits(-2)
	if got, want := []uint32{words[0], words[1], words[2], words[3], words[4], words[5], words[6], words[7], words[8], words[9], words[10]},
		[]uint32{uint32(d0), uint32(d0 >> 32), uint32(d1), uint32(d1 >> 32), 0xfffffffb, 0xffffffff, 2, 1, 0xffffffff, 0xffffffff, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("64-bit uniform words %#x, want %#x", got, want)
	}
	words = map[int]uint32{}
	if !SetUniform(words, "uniform 4 float4 1.5 -2 0x10 1e40") {
		t.Fatal("float4 uniform rejected")
	}
	if words[4] != math.Float32bits(1.5) || words[5] != math.Float32bits(-2) || words[6] != math.Float32bits(16) || words[7] != math.Float32bits(float32(math.Inf(1))) {
		t.Errorf("float4 words %v", words)
	}
	if !SetUniform(words, "uniform 0 int2 -1 0xffffffff") || words[0] != 0xffffffff || words[1] != 0xffffffff {
		t.Errorf("int2 words %v", words)
	}
	if SetUniform(words, "uniform 0 half 1.0") || SetUniform(words, "uniform 0 double2 x") || SetUniform(words, "uniform x float 1") {
		t.Error("bad uniform lines accepted")
	}
	p, ok := ParseProbe("probe (1, 2, 5, 4) rgba (0.5, 1, 0x10, -2) 3")
	if !ok || p.X != 1 || p.Y != 2 || p.W != 4 || p.H != 2 || p.Kind != "rgba" || !reflect.DeepEqual(p.Vals, []float64{0.5, 1, 16, -2}) || p.ULPs != 3 {
		t.Errorf("probe %+v %v", p, ok)
	}
	if px := p.Pixels(); !reflect.DeepEqual(px, [][2]int{{1, 2}, {4, 2}, {1, 3}, {4, 3}}) {
		t.Errorf("pixels %v", px)
	}
	if p, ok := ParseProbe("probe all u32(1, 2, 3, 4)"); !ok || p.W != 640 || p.H != 480 || len(p.Pixels()) != 4 {
		t.Errorf("probe all: %+v", p)
	}
	for _, l := range []string{"probe uav 0 (0) u32(1)", "probe rtv 1 (0, 0) rgba(1, 1, 1, 1)", "probe (0) rgba(1)", "probe (0, 0) rgba 1"} {
		if _, ok := ParseProbe(l); ok {
			t.Errorf("%q parsed as a render-target probe", l)
		}
	}
}

func TestSMCondAndHeaders(t *testing.T) {
	for _, c := range []struct {
		cond string
		sm   float64
		want bool
	}{
		{"sm>=6", 6, true}, {"sm>=6", 5.1, false}, {"sm<4 | sm>=6", 3, true}, {"sm<4 | sm>=6", 5, false},
		{"msl & sm>=6", 6, false}, {"sm>=2&sm<4", 3, true}, {"sm>=5.0 & sm<5.1", 5, true}, {"sm==3", 3, true}, {"glsl", 6, false},
	} {
		if got := SMCond(c.cond, c.sm); got != c.want {
			t.Errorf("SMCond(%q, %v) = %v", c.cond, c.sm, got)
		}
	}
	if w := HeaderWords("pixel shader fail(sm<4 | sm>=6) todo(sm<4)"); !reflect.DeepEqual(w, []string{"pixel", "shader", "fail(sm<4 | sm>=6)", "todo(sm<4)"}) {
		t.Errorf("HeaderWords %q", w)
	}
	if !ExpectFail("compute shader fail", 6) || ExpectFail("pixel shader todo(sm<6)", 5) {
		t.Error("ExpectFail")
	}
	if Stage("pixel shader todo") != "pixel" || Stage("effect") != "effect" || Stage("uav 0") != "" || Stage("test") != "" {
		t.Error("Stage")
	}
}
