package lower

import (
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/internal/vkd3d"
)

// TestLowerVKD3DCompute executes the vkd3d compute shader tests that the
// subset can run — "dispatch X Y Z" with buffers declared by [uav N] and
// [srv N] sections (initial data included), constants set with
// "uniform", buffer contents checked with "probe uav N" — through the
// lowering and the interpreter, and compares with the expected values.
// Resources are bound the way D3D binds them: [uav N] to register uN,
// [srv N] to tN, resources without a register get the lowest free one
// in declaration order. Resource contents persist across dispatches and
// [test] sections of a file, as on a device. Tests needing what the
// subset lacks (textures, 16- and 64-bit types, ...) are skipped with the
// reason. Probes that fail for reasons outside the lowering are listed in
// computeDeviations; any other failing probe fails the test. Set
// HLSL_CONFORMANCE_VERBOSE=1 to print every failing probe.
func TestLowerVKD3DCompute(t *testing.T) {
	files := vkd3d.Load(t)
	verbose := os.Getenv("HLSL_CONFORMANCE_VERBOSE") != ""
	// The tests hold for any wave size a device may have (each file runs
	// from scratch per size).
	for _, wave := range []int{4, 32, 64} {
		st := &computeStats{wave: wave, skipped: map[string]int{}, probeSkips: map[string]int{}, perFile: map[string]int{}}
		for _, f := range files {
			runComputeFile(f, st)
		}
		t.Logf("vkd3d compute shader tests (shader model 6, wave size %d): %d tests run, %d dispatches, %d probes passed, %d known deviations, %d failed; skipped tests: %s; skipped probes: %s",
			wave, st.tests, st.dispatches, st.passed, st.known, st.failed, countList(st.skipped), countList(st.probeSkips))
		if verbose && wave == 32 {
			t.Logf("passed probes per file: %s", countList(st.perFile))
			for _, n := range st.notes {
				t.Log(n)
			}
		}
		if verbose || st.failed > 0 || st.stale > 0 {
			for _, f := range st.failures {
				t.Log(f)
			}
		}
		if st.failed > 0 {
			t.Errorf("wave size %d: %d probes or dispatches failed (not listed in computeDeviations)", wave, st.failed)
		}
		if st.stale > 0 {
			t.Errorf("wave size %d: %d entries of computeDeviations pass: remove them", wave, st.stale)
		}
	}
}

// computeDeviations are the probes and dispatches (file:line) that fail
// for reasons outside the lowering, with the reason.
var computeDeviations = map[string]string{}

type computeStats struct {
	wave                  int // the interpreter's wave size
	tests, dispatches     int
	passed, failed, known int
	stale                 int
	skipped, probeSkips   map[string]int
	failures              []string
	perFile               map[string]int // probes passed per file
	notes                 []string       // why skipped shaders were not accepted
}

// record counts one probe or dispatch outcome (msg "" = passed).
func (st *computeStats) record(key, what, msg string) {
	dev := computeDeviations[key]
	switch {
	case msg == "" && dev != "":
		st.stale++
		st.failures = append(st.failures, fmt.Sprintf("%s: %s: passes but is listed as a known deviation (%s)", key, what, dev))
	case msg == "":
		st.passed++
		st.perFile[strings.Split(key, ":")[0]]++
	case dev != "":
		st.known++
		st.failures = append(st.failures, fmt.Sprintf("%s: %s: %s [known: %s]", key, what, msg, dev))
	default:
		st.failed++
		st.failures = append(st.failures, fmt.Sprintf("%s: %s: %s", key, what, msg))
	}
}

func countList(m map[string]int) string {
	var out []string
	for k, n := range m {
		out = append(out, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// computeShader is the compute shader a [test] section dispatches.
type computeShader struct {
	line int
	m    *ir.Module
	prog *hlsl.Program
	cb   probeShader // the constant buffer "uniform" lines fill
	skip string      // why its tests are skipped
	why  string      // the first error, for a shader that is not accepted or not lowered
}

func firstError(d hlsl.Diagnostics) string {
	for _, x := range d {
		if x.Severity == hlsl.Error {
			return fmt.Sprintf("%d:%d: %s", x.Pos.Line, x.Pos.Col, x.Message)
		}
	}
	return ""
}

// runComputeFile walks one .shader_test file: [require] ranges, resource
// sections, the current compute shader and its [test] sections.
func runComputeFile(f *vkd3d.File, st *computeStats) {
	name := f.Name
	req := vkd3d.NoRequire
	var cs *computeShader
	resources := vkd3d.Resources{}
	for _, s := range f.Sections {
		h := s.Header
		switch {
		case h == "require":
			req = vkd3d.ParseRequire(s.Body)
		case strings.HasPrefix(h, "uav ") || strings.HasPrefix(h, "srv "):
			resources.Declare(h, s.Body)
		case strings.HasPrefix(h, "pixel shader") || strings.HasPrefix(h, "vertex shader") ||
			strings.HasPrefix(h, "hull shader") || strings.HasPrefix(h, "domain shader") ||
			strings.HasPrefix(h, "geometry shader") || strings.HasPrefix(h, "effect"):
			cs = nil // a [test] after this is not a compute test
		case strings.HasPrefix(h, "compute shader"):
			cs = &computeShader{line: s.Line}
			sm, ok := req.SM6()
			switch {
			case !ok:
				cs.skip = "not SM6"
			case vkd3d.ExpectFail(h, sm) || strings.Contains(h, "notimpl"):
				cs.skip = "expected to fail"
			default:
				if f := unsupportedFeature(req); f != "" {
					cs.skip = "requires " + f
				} else {
					cs.compile(name, s.Source(), slices.Contains(req.Features, "native-16-bit"))
				}
			}
		case h == "test":
			if cs == nil {
				continue
			}
			_, sm6 := req.SM6()
			switch {
			case cs.skip != "":
				st.skipped[cs.skip]++
				if cs.why != "" {
					st.notes = append(st.notes, fmt.Sprintf("%s:%d (shader at line %d): %s: %s", name, s.Line, cs.line, cs.skip, cs.why))
				}
			case !sm6:
				st.skipped["not SM6"]++
			default:
				cs.runTest(name, s, resources, st)
			}
		}
	}
}

// unsupportedFeature returns the first requirement the subset cannot
// meet: UAV typed-load format capabilities, wave operations, doubles,
// 64-bit integers and native 16-bit types (compiled with
// -enable-16bit-types) are available; compile options are not.
func unsupportedFeature(req vkd3d.Require) string {
	for _, f := range req.Features {
		if f == "wave-ops" || strings.HasPrefix(f, "format ") || wideFeature(f) {
			continue
		}
		return f
	}
	if len(req.Options) > 0 {
		return "options: " + strings.Join(req.Options, " ")
	}
	return ""
}

// wideFeature reports whether a [require] line is one of the 16- and
// 64-bit type requirements inside the subset (issue 17 item 3).
func wideFeature(f string) bool { return f == "float64" || f == "int64" || f == "native-16-bit" }

// compile lowers a compute shader and decides whether its tests can run.
// native16 compiles with -enable-16bit-types (a native-16-bit requirement).
func (cs *computeShader) compile(file, src string, native16 bool) {
	opts := hlsl.Options{Entry: "main", Stage: hlsl.StageCompute, Enable16BitTypes: native16}
	prog, diags := hlsl.Frontend(file, []byte(src), opts)
	if diags.HasErrors() {
		cs.skip = "not accepted"
		cs.why = firstError(diags)
		switch {
		case strings.Contains(cs.why, "Texture"):
			cs.skip = "texture"
		case strings.Contains(cs.why, "'min16") || strings.Contains(cs.why, "'min10"):
			cs.skip = "min-precision types"
		}
		return
	}
	m, ld := Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		cs.skip = "not lowered"
		cs.why = firstError(ld)
		return
	}
	cs.m, cs.prog = m, prog
	cs.cb = probeShader{m: m, prog: prog}
	cs.cb.cb, cs.cb.cbVar = uniformBuffer(prog)
}

// boundBuffer is one buffer of the shader with the resource bound to it.
type boundBuffer struct {
	v       *hlsl.VarDecl
	res     *vkd3d.Resource
	g       *ir.Global // the buffer's storage global
	counter *ir.Global // its hidden counter, if the shader uses one
	elem    *ir.Type
	leaves  []*ir.Type // the element's scalars in memory order
	offs    []int      // their byte offsets in an element (structuredLayout)
	stride  int        // the element's size in a structured buffer
	typed   bool       // (RW)Buffer<T>: element i is texel i
	// rwtex marks a read-write texture bound to a [uav N] 2d texture: it
	// is a run input texture (textureInput), and its texels come back as
	// a buffer of the texel type.
	rwtex bool
}

// bindResources assigns registers the way D3D does (explicit ones first,
// then the lowest free slot in declaration order for the used resources
// without one) and finds each buffer's resource and IR global. skip says
// why the shader cannot run with these resources.
func bindResources(prog *hlsl.Program, m *ir.Module, resources vkd3d.Resources) (out []*boundBuffer, skip string) {
	slots, res, skip := resourceSlots(prog)
	if skip != "" {
		return nil, skip
	}
	class := registerClass
	for _, v := range res {
		if v.Type.Resource.IsRWTexture() {
			r := resources[[2]int{class(v), slots[v]}]
			b, skip := bindRWTexture(v, m, r)
			if skip != "" {
				return nil, skip
			}
			out = append(out, b)
			continue
		}
		if v.Type.Resource.IsTexture() || v.Type.Resource.IsSampler() {
			continue // bindTextures
		}
		r := resources[[2]int{class(v), slots[v]}]
		if r == nil {
			return nil, "unbound resource"
		}
		if r.Bad != "" {
			return nil, r.Bad
		}
		b := &boundBuffer{v: v, res: r, typed: v.Type.Resource == hlsl.ResBuffer || v.Type.Resource == hlsl.ResRWBuffer}
		for _, g := range m.Globals {
			switch {
			case g.Space != ir.SpaceStorage:
			case g.Kind == v.Type.Resource.String() && g.Name() == v.Name:
				b.g = g
			case g.Kind == "counter" && g.Name() == v.Name+".counter":
				b.counter = g
			}
		}
		if b.g == nil || b.g.ValType.Kind != ir.KArray {
			return nil, "buffer global not found"
		}
		b.elem = b.g.ValType.Elem
		b.leaves = irLeaves(b.elem, nil)
		b.offs, b.stride = structuredLayout(b.elem, 0, nil)
		switch {
		case r.Dim == "counter_buffer":
			if v.Type.Resource != hlsl.ResRWStructuredBuffer {
				return nil, "counter on a non-structured buffer"
			}
		case b.typed:
			if r.Comps == 0 {
				return nil, "typed buffer without a format"
			}
			// A typed element's components are consecutive channels;
			// a 64-bit component takes two (DXC splits uint64_t2 into
			// the four 32-bit channels of a uint4 view).
			if b.stride > 16 {
				return nil, "typed buffer element too large"
			}
			for _, l := range b.leaves {
				if leafSize(l) == 2 {
					return nil, "16-bit typed buffer"
				}
			}
			if isFloat := b.leaves[0].Kind == ir.KFloat; isFloat != (r.Class == 'f') {
				return nil, "format conversion"
			}
		case v.Type.Resource == hlsl.ResByteAddressBuffer || v.Type.Resource == hlsl.ResRWByteAddressBuffer:
		default: // structured
			if r.Texel != b.stride {
				return nil, "structure stride"
			}
		}
		out = append(out, b)
	}
	return out, ""
}

// registerClass is the slot space of a resource global: 0 for t
// registers (SRV buffers and textures), 1 for u, 2 for s.
func registerClass(v *hlsl.VarDecl) int {
	switch {
	case v.Type.Resource.IsSampler():
		return 2
	case v.Type.Resource.Writable():
		return 1
	}
	return 0
}

// resourceSlots gives every resource global its register: the one it
// declares, or (for used ones) the lowest free one of its class in
// declaration order. used lists the used resources.
func resourceSlots(prog *hlsl.Program) (slots map[*hlsl.VarDecl]int, used []*hlsl.VarDecl, skip string) {
	taken := map[[2]int]bool{}
	slots = map[*hlsl.VarDecl]int{}
	for _, v := range prog.Globals {
		if v.Type.Kind != hlsl.KindResource {
			if v.Used && v.Type.Kind == hlsl.KindArray && v.Type.ContainsResource() {
				return nil, nil, "resource array" // elements on consecutive registers: not bound here
			}
			continue
		}
		if r := v.Register; r != nil {
			if r.Space != 0 {
				return nil, nil, "register space"
			}
			slots[v] = r.Index
			taken[[2]int{registerClass(v), r.Index}] = true
		}
		if v.Used {
			used = append(used, v)
		}
	}
	for _, v := range used {
		if _, ok := slots[v]; ok {
			continue
		}
		i := 0
		for taken[[2]int{registerClass(v), i}] {
			i++
		}
		slots[v] = i
		taken[[2]int{registerClass(v), i}] = true
	}
	return slots, used, ""
}

// irLeaves appends the scalar types of t in memory order.
func irLeaves(t *ir.Type, out []*ir.Type) []*ir.Type {
	switch t.Kind {
	case ir.KVector:
		for range t.Len {
			out = append(out, t.Elem)
		}
	case ir.KMatrix:
		for range t.Len * t.Cols {
			out = append(out, t.Elem)
		}
	case ir.KArray:
		for range max(t.Len, 0) {
			out = irLeaves(t.Elem, out)
		}
	case ir.KStruct:
		for _, f := range t.Fields {
			out = irLeaves(f.Type, out)
		}
	default:
		out = append(out, t)
	}
	return out
}

// leafSize is a scalar's size in a buffer: 2, 4 or 8 bytes (a bool 4).
func leafSize(t *ir.Type) int {
	if t.Kind == ir.KBool {
		return 4
	}
	return t.Bits / 8
}

// structuredLayout appends the byte offset of every leaf of t (in
// irLeaves order) placed at base by D3D's structured buffer layout
// (DXC's native layout): a scalar is aligned to its size (a double or
// int64_t to 8, a half or int16_t to 2), a struct to its largest member
// alignment and its size rounded up to that. It returns the offsets and
// t's size.
func structuredLayout(t *ir.Type, base int, offs []int) ([]int, int) {
	size, _ := structuredPlace(t, base, &offs)
	return offs, size
}

func structuredPlace(t *ir.Type, base int, offs *[]int) (size, align int) {
	switch t.Kind {
	case ir.KVector:
		n := leafSize(t.Elem)
		for i := range t.Len {
			*offs = append(*offs, base+i*n)
		}
		return n * t.Len, n
	case ir.KMatrix:
		n := leafSize(t.Elem)
		for i := range t.Len * t.Cols {
			*offs = append(*offs, base+i*n)
		}
		return n * t.Len * t.Cols, n
	case ir.KArray:
		var scratch []int
		es, ea := structuredPlace(t.Elem, 0, &scratch)
		stride := (es + ea - 1) / ea * ea
		for i := range max(t.Len, 0) {
			structuredPlace(t.Elem, base+i*stride, offs)
		}
		return stride * max(t.Len, 0), ea
	case ir.KStruct:
		off, align := 0, 1
		for _, f := range t.Fields {
			var scratch []int
			fs, fa := structuredPlace(f.Type, 0, &scratch)
			off = (off + fa - 1) / fa * fa
			structuredPlace(f.Type, base+off, offs)
			off += fs
			align = max(align, fa)
		}
		return (off + align - 1) / align * align, align
	}
	n := leafSize(t)
	*offs = append(*offs, base)
	return n, n
}

// count is the number of elements of the buffer.
func (b *boundBuffer) count() int {
	switch {
	case b.res.Dim == "counter_buffer":
		return b.res.Width
	case b.typed:
		return b.res.Width
	}
	return len(b.res.Words) * 4 / b.stride
}

// at returns the byte offset of leaf j of element i in the resource (ok
// false for a component the typed format lacks).
func (b *boundBuffer) at(i, j int) (int, bool) {
	if b.typed {
		return i*b.res.Texel + b.offs[j], b.offs[j]+leafSize(b.leaves[j]) <= 4*b.res.Comps
	}
	return i*b.stride + b.offs[j], true
}

// getBytes reads n little-endian bytes at byte offset off of words.
func getBytes(words []uint32, off, n int) uint64 {
	var v uint64
	for k := n - 1; k >= 0; k-- {
		o := off + k
		v = v<<8 | uint64(words[o/4]>>(8*(o%4))&0xff)
	}
	return v
}

// putBytes writes the low n bytes of v little-endian at byte offset off.
func putBytes(words []uint32, off, n int, v uint64) {
	for k := range n {
		o := off + k
		sh := 8 * (o % 4)
		words[o/4] = words[o/4]&^(0xff<<sh) | uint32(v>>(8*k)&0xff)<<sh
	}
}

// inputs are the interpreter's buffer inputs for the binding.
func (b *boundBuffer) inputs() []interp.BufferInput {
	if b.rwtex {
		return nil // textureInput
	}
	n := b.count()
	data := make([]any, 0, n*len(b.leaves))
	for i := range n {
		for j, leaf := range b.leaves {
			var w uint64
			size := leafSize(leaf)
			if b.res.Dim != "counter_buffer" {
				if o, ok := b.at(i, j); ok && o+size <= 4*len(b.res.Words) {
					w = getBytes(b.res.Words, o, size)
				} else if j == 3 { // missing components read as (0, 0, 0, 1)
					w = 1
					if leaf.Kind == ir.KFloat {
						w = uint64(math.Float32bits(1))
					}
				}
			}
			if leaf.Kind == ir.KBool {
				data = append(data, w != 0)
			} else {
				data = append(data, fmt.Sprintf("0x%0*X", 2*size, w))
			}
		}
	}
	out := []interp.BufferInput{{Name: b.g.Name(), Count: n, Data: data}}
	if b.counter != nil {
		var c uint32
		if b.res.Dim == "counter_buffer" && len(b.res.Words) > 0 {
			c = b.res.Words[0]
		}
		out = append(out, interp.BufferInput{Name: b.counter.Name(), Data: []any{fmt.Sprintf("0x%08X", c)}})
	}
	return out
}

// writeBack copies the buffer's contents after a dispatch into the
// resource (UAVs only; a counter_buffer resource holds the counter).
func (b *boundBuffer) writeBack(res *interp.Result) error {
	if !b.res.UAV {
		return nil
	}
	if b.rwtex {
		return b.writeBackTexture(res)
	}
	if b.res.Dim == "counter_buffer" {
		if b.counter == nil {
			return nil
		}
		c := res.Buffer(b.counter.Name())
		if c == nil || len(c.Cells) != 1 {
			return fmt.Errorf("no counter %s in the result", b.counter.Name())
		}
		b.res.Words[0] = uint32(c.Cells[0])
		return nil
	}
	buf := res.Buffer(b.g.Name())
	if buf == nil || len(buf.Cells) != b.count()*len(b.leaves) {
		return fmt.Errorf("buffer %s missing or resized in the result", b.g.Name())
	}
	for i := range b.count() {
		for j, leaf := range b.leaves {
			size := leafSize(leaf)
			if o, ok := b.at(i, j); ok && o+size <= 4*len(b.res.Words) {
				putBytes(b.res.Words, o, size, buf.Cells[i*len(b.leaves)+j])
			}
		}
	}
	return nil
}

// runTest executes one [test] section: uniforms, dispatches and probes.
func (cs *computeShader) runTest(file string, test *vkd3d.Section, resources vkd3d.Resources, st *computeStats) {
	words := map[int]uint32{}
	dispatched := false
	for _, c := range test.Commands(6) {
		l := c.Text
		key := fmt.Sprintf("%s:%d", file, c.Line)
		switch {
		case strings.HasPrefix(l, "uniform "):
			if !vkd3d.SetUniform(words, l) {
				st.skipped["uniform type"]++
				return
			}
		case strings.HasPrefix(l, "dispatch "):
			var x, y, z int
			if n, _ := fmt.Sscanf(l, "dispatch %d %d %d", &x, &y, &z); n != 3 {
				st.record(key, l, "malformed dispatch")
				return
			}
			bound, skip := bindResources(cs.prog, cs.m, resources)
			if skip != "" {
				st.skipped[skip]++
				return
			}
			if !dispatched {
				st.tests++
			}
			in := &interp.Input{Dispatch: [3]int{x, y, z}, Uniforms: cs.cb.uniforms(words)}
			for _, b := range bound {
				in.Buffers = append(in.Buffers, b.inputs()...)
				in.Textures = append(in.Textures, b.textureInput()...)
			}
			res, err := interp.Run(cs.m, in, interp.Options{WaveSize: st.wave})
			st.dispatches++
			if err != nil {
				st.record(key, l, fmt.Sprintf("run (shader at line %d): %v", cs.line, err))
				return
			}
			for _, b := range bound {
				if err := b.writeBack(res); err != nil {
					st.record(key, l, err.Error())
					return
				}
			}
			dispatched = true
		case strings.HasPrefix(l, "probe uav "):
			if !dispatched {
				continue
			}
			msg, skip := resources.ProbeUAV(l)
			if skip != "" {
				st.probeSkips[skip]++
				continue
			}
			st.record(key, l, msg)
		case strings.HasPrefix(l, "probe "):
		default:
			st.skipped["test directive "+strings.Fields(l)[0]]++
			return
		}
	}
}

// TestLowerInterlockedFloatOperand pins the operand conversion of
// Interlocked* found by uav-atomics.shader_test (lines 219-261), without
// the conformance data: a float value operand is converted to uint (to
// int for Min/Max) and then reinterpreted as the destination's type.
func TestLowerInterlockedFloatOperand(t *testing.T) {
	src := `RWBuffer<int> s : register(u2);
uniform float a;
uniform float b;
[numthreads(3, 1, 1)]
void main()
{
    InterlockedAdd(s[0], a);
    InterlockedAnd(s[1], a);
    InterlockedCompareStore(s[2], a, 0);
    InterlockedMax(s[3], b);
}
`
	opts := hlsl.Options{Entry: "main", Stage: hlsl.StageCompute}
	prog, diags := hlsl.Frontend("atomics.hlsl", []byte(src), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, ld := Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		t.Fatal(ld)
	}
	in := &interp.Input{
		Uniforms: map[string]any{"a": -1.0, "b": 3e9},
		Buffers:  []interp.BufferInput{{Name: "s", Count: 4, Data: []any{0, -1, -1, 1}}},
	}
	res, err := interp.Run(m, in, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// (uint)-1.0f = 0: adding 0, and-ing with 0, comparing 0 with -1
	// (no store); (int)3e9f saturates to INT_MAX.
	want := []int32{0, 0, -1, math.MaxInt32}
	got := res.Buffer("s")
	for i, w := range want {
		if g := int32(uint32(got.Cells[i])); g != w {
			t.Errorf("s[%d] = %d, want %d", i, g, w)
		}
	}
}
