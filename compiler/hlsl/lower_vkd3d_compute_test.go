package hlsl

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
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
	dir := conformanceDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.shader_test"))
	if err != nil || len(files) == 0 {
		t.Skipf("no .shader_test files in %s", dir)
	}
	verbose := os.Getenv("HLSL_CONFORMANCE_VERBOSE") != ""
	texts := map[string]string{}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(path)] = string(data)
	}
	// The tests hold for any wave size a device may have (each file runs
	// from scratch per size).
	for _, wave := range []int{4, 32, 64} {
		st := &computeStats{wave: wave, skipped: map[string]int{}, probeSkips: map[string]int{}, perFile: map[string]int{}}
		for _, path := range files {
			runComputeFile(filepath.Base(path), texts[filepath.Base(path)], st)
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

// vkResource is a [uav N] or [srv N] section: the resource's shape and
// its current contents as 32-bit words (texels in order, rows packed).
type vkResource struct {
	uav           bool
	slot          int
	dim           string // "buffer", "raw_buffer", "counter_buffer", "2d", ...
	width, height int
	texel         int  // bytes per element: the format's size or the stride
	comps         int  // components of a typed format; 0 for a stride
	class         byte // the format's data type: 'f', 'i', 'u'
	words         []uint32
	bad           string // why shaders cannot use it
}

// vkFormats are the formats of vkd3d's shader runner: size in bytes,
// component count and data type.
var vkFormats = map[string]struct {
	size, comps int
	class       byte
}{
	"r32g32b32a32-float": {16, 4, 'f'}, "r32g32b32a32-sint": {16, 4, 'i'}, "r32g32b32a32-uint": {16, 4, 'u'},
	"r32g32-float": {8, 2, 'f'}, "r32g32-sint": {8, 2, 'i'}, "r32g32-uint": {8, 2, 'u'},
	"r32-float": {4, 1, 'f'}, "r32-sint": {4, 1, 'i'}, "r32-uint": {4, 1, 'u'}, "r32-typeless": {4, 1, 'u'},
}

// parseResource reads a resource section: "format F", "stride N",
// "size (KIND, W[, H])" and the initial data.
func parseResource(header string, body []string) *vkResource {
	kind, slot, _ := strings.Cut(header, " ")
	r := &vkResource{uav: kind == "uav", class: 'f', height: 1}
	r.slot, _ = strconv.Atoi(strings.TrimSpace(slot))
	var data []uint32
	for _, l := range body {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "%"):
		case strings.HasPrefix(l, "format "):
			name := strings.TrimSpace(l[len("format "):])
			f, ok := vkFormats[name]
			if !ok {
				r.bad = "format " + name
				continue
			}
			r.texel, r.comps, r.class = f.size, f.comps, f.class
		case strings.HasPrefix(l, "stride "):
			r.texel, _ = strconv.Atoi(strings.TrimSpace(l[len("stride "):]))
			r.comps = 0
		case strings.HasPrefix(l, "size "):
			in := strings.Trim(strings.TrimSpace(l[len("size "):]), "()")
			f := strings.Split(in, ",")
			r.dim = strings.TrimSpace(f[0])
			if len(f) > 1 {
				r.width, _ = strconv.Atoi(strings.TrimSpace(f[1]))
			}
			if r.dim == "2d" && len(f) > 2 {
				r.height, _ = strconv.Atoi(strings.TrimSpace(f[2]))
			}
			if r.dim == "counter_buffer" {
				r.texel, r.comps = 4, 0
			}
		case strings.HasPrefix(l, "levels "):
		default:
			for _, tok := range strings.Fields(l) {
				w, ok := parseDataWord(tok)
				if !ok {
					break
				}
				data = append(data, w)
			}
		}
	}
	switch {
	case r.bad != "":
	case r.dim != "buffer" && r.dim != "raw_buffer" && r.dim != "counter_buffer":
		r.bad = "texture"
	case r.texel <= 0 || r.texel%4 != 0:
		r.bad = "stride not a multiple of 4"
	}
	n := r.width * r.height * r.texel / 4
	r.words = make([]uint32, max(n, 0))
	copy(r.words, data)
	return r
}

// parseDataWord reads one number of resource data as vkd3d's runner
// does, whatever the format: an integer (strtoul, base 0) unless a '.'
// makes it a float (strtof).
func parseDataWord(tok string) (uint32, bool) {
	if strings.Contains(tok, ".") {
		f, err := strconv.ParseFloat(tok, 32)
		if err != nil {
			return 0, false
		}
		return math.Float32bits(float32(f)), true
	}
	return parseIntWord(tok)
}

// parseIntWord reads an integer (base 0, as strtol/strtoul) as 32 bits.
func parseIntWord(tok string) (uint32, bool) {
	if v, err := strconv.ParseInt(tok, 0, 64); err == nil {
		return uint32(v), true
	}
	if v, err := strconv.ParseUint(tok, 0, 64); err == nil {
		return uint32(v), true
	}
	return 0, false
}

// computeShader is the compute shader a [test] section dispatches.
type computeShader struct {
	line int
	m    *ir.Module
	prog *Program
	cb   probeShader // the constant buffer "uniform" lines fill
	skip string      // why its tests are skipped
	why  string      // the first error, for a shader that is not accepted or not lowered
}

func firstError(d Diagnostics) string {
	for _, x := range d {
		if x.Severity == Error {
			return fmt.Sprintf("%d:%d: %s", x.Pos.Line, x.Pos.Col, x.Message)
		}
	}
	return ""
}

// runComputeFile walks one .shader_test file: [require] ranges, resource
// sections, the current compute shader and its [test] sections.
func runComputeFile(name, text string, st *computeStats) {
	minSM, maxSM := 0.0, 99.0
	var features []string
	var cs *computeShader
	resources := vkResources{}
	for _, s := range splitSections(text) {
		h := s.header
		switch {
		case h == "require":
			minSM, maxSM, features = parseRequire(s.body)
		case strings.HasPrefix(h, "uav ") || strings.HasPrefix(h, "srv "):
			resources.declare(h, s.body)
		case strings.HasPrefix(h, "pixel shader") || strings.HasPrefix(h, "vertex shader") ||
			strings.HasPrefix(h, "hull shader") || strings.HasPrefix(h, "domain shader") ||
			strings.HasPrefix(h, "geometry shader") || strings.HasPrefix(h, "effect"):
			cs = nil // a [test] after this is not a compute test
		case strings.HasPrefix(h, "compute shader"):
			cs = &computeShader{line: s.line}
			sm := max(6.0, minSM)
			switch {
			case sm >= maxSM || sm >= 7:
				cs.skip = "not SM6"
			case expectFail(h, sm) || strings.Contains(h, "notimpl"):
				cs.skip = "expected to fail"
			default:
				if f := unsupportedFeature(features); f != "" {
					cs.skip = "requires " + f
				} else {
					cs.compile(name, shaderSource(s.body))
				}
			}
		case h == "test":
			if cs == nil {
				continue
			}
			sm := max(6.0, minSM)
			switch {
			case cs.skip != "":
				st.skipped[cs.skip]++
				if cs.why != "" {
					st.notes = append(st.notes, fmt.Sprintf("%s:%d (shader at line %d): %s: %s", name, s.line, cs.line, cs.skip, cs.why))
				}
			case sm >= maxSM || sm >= 7:
				st.skipped["not SM6"]++
			default:
				cs.runTest(name, s.line, s.body, resources, st)
			}
		}
	}
}

// unsupportedFeature returns the first [require] line the subset cannot
// meet: UAV typed-load format capabilities and wave operations are
// available; 16- and 64-bit types and compile options are not.
func unsupportedFeature(features []string) string {
	for _, f := range features {
		if f == "wave-ops" || strings.HasPrefix(f, "format ") {
			continue
		}
		return f
	}
	return ""
}

// compile lowers a compute shader and decides whether its tests can run.
func (cs *computeShader) compile(file, src string) {
	opts := Options{Entry: "main", Stage: StageCompute}
	prog, diags := Frontend(file, []byte(src), opts)
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
	v       *VarDecl
	res     *vkResource
	g       *ir.Global // the buffer's storage global
	counter *ir.Global // its hidden counter, if the shader uses one
	elem    *ir.Type
	leaves  []*ir.Type // the element's scalars in memory order
	typed   bool       // (RW)Buffer<T>: element i is texel i
}

// vkResources are a file's declared resources by {0 srv/1 uav, slot}.
type vkResources map[[2]int]*vkResource

// declare records a [uav N] or [srv N] section (replacing the resource).
func (rs vkResources) declare(header string, body []string) {
	r := parseResource(header, body)
	k := 0
	if r.uav {
		k = 1
	}
	rs[[2]int{k, r.slot}] = r
}

// bindResources assigns registers the way D3D does (explicit ones first,
// then the lowest free slot in declaration order for the used resources
// without one) and finds each buffer's resource and IR global. skip says
// why the shader cannot run with these resources.
func bindResources(prog *Program, m *ir.Module, resources vkResources) (out []*boundBuffer, skip string) {
	taken := map[[2]int]bool{}
	slots := map[*VarDecl]int{}
	class := func(v *VarDecl) int {
		if v.Type.Resource.Writable() {
			return 1
		}
		return 0
	}
	var res []*VarDecl
	for _, v := range prog.Globals {
		if v.Type.Kind != KindResource {
			continue
		}
		if r := v.Register; r != nil {
			if r.Space != 0 {
				return nil, "register space"
			}
			slots[v] = r.Index
			taken[[2]int{class(v), r.Index}] = true
		}
		if v.Used {
			res = append(res, v)
		}
	}
	for _, v := range res {
		if _, ok := slots[v]; ok {
			continue
		}
		i := 0
		for taken[[2]int{class(v), i}] {
			i++
		}
		slots[v] = i
		taken[[2]int{class(v), i}] = true
	}
	for _, v := range res {
		r := resources[[2]int{class(v), slots[v]}]
		if r == nil {
			return nil, "unbound resource"
		}
		if r.bad != "" {
			return nil, r.bad
		}
		b := &boundBuffer{v: v, res: r, typed: v.Type.Resource == ResBuffer || v.Type.Resource == ResRWBuffer}
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
		for _, l := range b.leaves {
			if l.Bits != 32 && l.Kind != ir.KBool {
				return nil, "16/64-bit element"
			}
		}
		switch {
		case r.dim == "counter_buffer":
			if v.Type.Resource != ResRWStructuredBuffer {
				return nil, "counter on a non-structured buffer"
			}
		case b.typed:
			if r.comps == 0 {
				return nil, "typed buffer without a format"
			}
			if len(b.leaves) > 4 {
				return nil, "typed buffer element too large"
			}
			if isFloat := b.leaves[0].Kind == ir.KFloat; isFloat != (r.class == 'f') {
				return nil, "format conversion"
			}
		case v.Type.Resource == ResByteAddressBuffer || v.Type.Resource == ResRWByteAddressBuffer:
		default: // structured
			if r.texel != 4*len(b.leaves) {
				return nil, "structure stride"
			}
		}
		out = append(out, b)
	}
	return out, ""
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

// count is the number of elements of the buffer.
func (b *boundBuffer) count() int {
	switch {
	case b.res.dim == "counter_buffer":
		return b.res.width
	case b.typed:
		return b.res.width
	}
	return len(b.res.words) / len(b.leaves)
}

// word returns the resource word of leaf j of element i (ok false for a
// component the format lacks).
func (b *boundBuffer) word(i, j int) (int, bool) {
	if b.typed {
		return i*b.res.comps + j, j < b.res.comps
	}
	return i*len(b.leaves) + j, true
}

// inputs are the interpreter's buffer inputs for the binding.
func (b *boundBuffer) inputs() []interp.BufferInput {
	n := b.count()
	data := make([]any, 0, n*len(b.leaves))
	for i := range n {
		for j, leaf := range b.leaves {
			var w uint32
			if b.res.dim != "counter_buffer" {
				if k, ok := b.word(i, j); ok {
					w = b.res.words[k]
				} else if j == 3 { // missing components read as (0, 0, 0, 1)
					w = 1
					if leaf.Kind == ir.KFloat {
						w = math.Float32bits(1)
					}
				}
			}
			if leaf.Kind == ir.KBool {
				data = append(data, w != 0)
			} else {
				data = append(data, fmt.Sprintf("0x%08X", w))
			}
		}
	}
	out := []interp.BufferInput{{Name: b.g.Name(), Count: n, Data: data}}
	if b.counter != nil {
		var c uint32
		if b.res.dim == "counter_buffer" && len(b.res.words) > 0 {
			c = b.res.words[0]
		}
		out = append(out, interp.BufferInput{Name: b.counter.Name(), Data: []any{fmt.Sprintf("0x%08X", c)}})
	}
	return out
}

// writeBack copies the buffer's contents after a dispatch into the
// resource (UAVs only; a counter_buffer resource holds the counter).
func (b *boundBuffer) writeBack(res *interp.Result) error {
	if !b.res.uav {
		return nil
	}
	if b.res.dim == "counter_buffer" {
		if b.counter == nil {
			return nil
		}
		c := res.Buffer(b.counter.Name())
		if c == nil || len(c.Cells) != 1 {
			return fmt.Errorf("no counter %s in the result", b.counter.Name())
		}
		b.res.words[0] = uint32(c.Cells[0])
		return nil
	}
	buf := res.Buffer(b.g.Name())
	if buf == nil || len(buf.Cells) != b.count()*len(b.leaves) {
		return fmt.Errorf("buffer %s missing or resized in the result", b.g.Name())
	}
	for i := range b.count() {
		for j := range b.leaves {
			if k, ok := b.word(i, j); ok && k < len(b.res.words) {
				b.res.words[k] = uint32(buf.Cells[i*len(b.leaves)+j])
			}
		}
	}
	return nil
}

// runTest executes one [test] section: uniforms, dispatches and probes.
func (cs *computeShader) runTest(file string, line int, body []string, resources vkResources, st *computeStats) {
	words := map[int]uint32{}
	dispatched := false
	for _, nl := range testLines(body, line) {
		l := nl.text
		key := fmt.Sprintf("%s:%d", file, nl.n)
		switch {
		case strings.HasPrefix(l, "uniform "):
			if !setUniform(words, l) {
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
			msg, skip := resources.probe(l)
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

// probe checks a "probe uav" line against the resources: msg is "" when
// it passes, skip says why it cannot be checked.
func (rs vkResources) probe(l string) (msg, skip string) {
	p, skip := parseUAVProbe(l)
	if skip != "" {
		return "", skip
	}
	r := rs[[2]int{1, p.slot}]
	switch {
	case r == nil:
		return "", "undeclared resource"
	case r.bad != "":
		return "", r.bad
	}
	return p.check(r), ""
}

// uavProbe is "probe uav N (x[, y[, x2, y2]]) TYPE(values) [ulps]".
type uavProbe struct {
	slot                     int
	left, top, right, bottom int
	kind                     string // f32, u32, i32
	vals                     []string
	ulps                     int
}

// parseUAVProbe parses a UAV probe; skip says why it cannot be checked.
func parseUAVProbe(l string) (p uavProbe, skip string) {
	rest := strings.TrimSpace(strings.TrimPrefix(l, "probe uav "))
	slot, rest, _ := strings.Cut(rest, " ")
	var err error
	if p.slot, err = strconv.Atoi(slot); err != nil {
		return p, "malformed probe"
	}
	rest = strings.TrimSpace(rest)
	coords, rest, ok := strings.Cut(strings.TrimPrefix(rest, "("), ")")
	if !ok {
		return p, "malformed probe"
	}
	var c []int
	for _, s := range strings.Split(coords, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return p, "malformed probe"
		}
		c = append(c, v)
	}
	switch len(c) {
	case 1:
		p.left, p.top, p.right, p.bottom = c[0], 0, c[0]+1, 1
	case 2:
		p.left, p.top, p.right, p.bottom = c[0], c[1], c[0]+1, c[1]+1
	case 4:
		p.left, p.top, p.right, p.bottom = c[0], c[1], c[2], c[3]
	default:
		return p, "array layer probe"
	}
	kind, rest, ok := strings.Cut(strings.TrimSpace(rest), "(")
	if !ok {
		return p, "malformed probe"
	}
	vals, rest, ok := strings.Cut(rest, ")")
	if !ok {
		return p, "malformed probe"
	}
	for _, v := range strings.Split(vals, ",") {
		p.vals = append(p.vals, strings.TrimSpace(v))
	}
	if f := strings.Fields(rest); len(f) > 0 {
		p.ulps, _ = strconv.Atoi(f[0])
	}
	p.kind = strings.TrimSpace(kind)
	if p.kind == "rgba" {
		p.kind = "f32"
	}
	switch {
	case p.kind == "f64" || p.kind == "u64" || p.kind == "i64":
		return p, "64-bit probe"
	case p.kind != "f32" && p.kind != "u32" && p.kind != "i32":
		return p, "probe type " + p.kind
	case len(p.vals) != 1 && len(p.vals) != 2 && len(p.vals) != 4:
		return p, "malformed probe"
	}
	return p, ""
}

// check compares the probe with the resource: element (x, y) of a probe
// of n values is the n words at byte y*pitch + x*4n, as vkd3d reads
// them back. It returns "" when every element matches.
func (p uavProbe) check(r *vkResource) string {
	n := len(p.vals)
	pitch := r.width * r.texel / 4
	for y := p.top; y < p.bottom; y++ {
		for x := p.left; x < p.right; x++ {
			base := y*pitch + x*n
			if base < 0 || base+n > len(r.words) {
				return fmt.Sprintf("element (%d,%d) outside the resource", x, y)
			}
			for i, want := range p.vals {
				got := r.words[base+i]
				if msg := compareWord(p.kind, got, want, p.ulps); msg != "" {
					return fmt.Sprintf("element (%d,%d) component %d: %s", x, y, i, msg)
				}
			}
		}
	}
	return ""
}

// compareWord compares one word with an expected value: integers
// exactly, floats within ulps units in the last place (vkd3d's
// compare_float).
func compareWord(kind string, got uint32, want string, ulps int) string {
	if kind == "f32" {
		f, err := strconv.ParseFloat(want, 32)
		if err != nil {
			return "bad expected value " + want
		}
		w := math.Float32bits(float32(f))
		if math.IsNaN(f) && math.IsNaN(float64(math.Float32frombits(got))) {
			return ""
		}
		ord := func(u uint32) int64 { // bits as a monotonic integer
			if int32(u) < 0 {
				return math.MinInt32 - int64(int32(u))
			}
			return int64(u)
		}
		if d := ord(got) - ord(w); d > int64(ulps) || -d > int64(ulps) {
			return fmt.Sprintf("got %v (0x%08X), want %v", math.Float32frombits(got), got, float32(f))
		}
		return ""
	}
	w, ok := parseIntWord(want)
	if !ok {
		return "bad expected value " + want
	}
	if got != w {
		if kind == "i32" {
			return fmt.Sprintf("got %d, want %d", int32(got), int32(w))
		}
		return fmt.Sprintf("got %d (0x%X), want %d (0x%X)", got, got, w, w)
	}
	return ""
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
	opts := Options{Entry: "main", Stage: StageCompute}
	prog, diags := Frontend("atomics.hlsl", []byte(src), opts)
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
