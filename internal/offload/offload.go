// Package offload reads the tests of LLVM's offload-test-suite
// (../shared/conformance/offload-test-suite, Apache-2.0 with LLVM
// exceptions) for passlens's conformance harness: a lit file with
// split-file sections (HLSL sources, a pipeline.yaml describing buffers,
// expected results and their comparison rule), RUN lines with the dxc
// flags, and XFAIL/UNSUPPORTED/REQUIRES directives. It only reads; the
// harness (offload_test.go) compiles and runs.
package offload

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// Test is one .test file.
type Test struct {
	Path     string            // relative to the suite's test directory
	Sections map[string]string // split-file sections by name ("source.hlsl", "pipeline.yaml")
	Order    []string          // section names in file order
	Runs     []Run             // compile RUN lines (%dxc_target)
	// XFail, Unsupported and Requires are the lit directives' expressions.
	XFail, Unsupported, Requires []string
	Pipeline                     *Pipeline // parsed pipeline.yaml (nil if absent)
	// ExpectMismatch: the offloader must fail ("not %offloader"), i.e.
	// the results must differ from the expected buffers.
	ExpectMismatch bool
	// PipelineErr says why pipeline.yaml could not be read.
	PipelineErr error
}

// Run is one "%dxc_target" RUN line: the compiler flags and the source.
type Run struct {
	Profile string   // -T
	Entry   string   // -E (default main)
	Defines []string // -D NAME[=VALUE]
	RowMaj  bool     // -Zpr
	Half    bool     // -enable-16bit-types
	Source  string   // the section compiled (%t/NAME)
	Other   []string // other flags
}

// Read reads and parses a .test file.
func Read(root, rel string) (*Test, error) {
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	return Parse(rel, string(data))
}

// Parse parses the text of a .test file.
func Parse(path, text string) (*Test, error) {
	t := &Test{Path: path, Sections: map[string]string{}}
	var cur string
	var body []string
	flush := func() {
		if cur != "" {
			t.Sections[cur] = strings.Join(body, "\n")
			t.Order = append(t.Order, cur)
		}
		cur, body = "", nil
	}
	for _, l := range strings.Split(text, "\n") {
		marker := ""
		switch {
		case strings.HasPrefix(l, "#--- "):
			marker = strings.TrimSpace(l[5:])
		case strings.HasPrefix(l, "//--- "):
			marker = strings.TrimSpace(l[6:])
		}
		if marker != "" {
			flush()
			if marker != "end" {
				cur = marker
			}
			continue
		}
		if cur != "" {
			body = append(body, l)
		}
		// lit reads directives on every line, also inside the last
		// section when no "#--- end" closes it.
		d := strings.TrimSpace(strings.TrimLeft(l, "#/ "))
		switch {
		case strings.HasPrefix(d, "RUN:"):
			if strings.Contains(d, "not %offloader") {
				t.ExpectMismatch = true
			}
			if r, ok := parseRun(strings.TrimSpace(d[4:])); ok {
				t.Runs = append(t.Runs, r)
			}
		case strings.HasPrefix(d, "XFAIL:"):
			t.XFail = append(t.XFail, strings.TrimSpace(d[6:]))
		case strings.HasPrefix(d, "UNSUPPORTED:"):
			t.Unsupported = append(t.Unsupported, strings.TrimSpace(d[12:]))
		case strings.HasPrefix(d, "REQUIRES:"):
			t.Requires = append(t.Requires, strings.TrimSpace(d[9:]))
		}
	}
	flush()
	if y, ok := t.Sections["pipeline.yaml"]; ok {
		t.Pipeline, t.PipelineErr = ParsePipeline(y)
	}
	return t, nil
}

// parseRun reads "%dxc_target -T cs_6_5 -Fo %t.o %t/source.hlsl".
func parseRun(s string) (Run, bool) {
	f := strings.Fields(s)
	if len(f) == 0 || f[0] != "%dxc_target" {
		return Run{}, false
	}
	r := Run{Entry: "main"}
	for i := 1; i < len(f); i++ {
		a := f[i]
		next := func() string {
			if i+1 < len(f) {
				i++
				return f[i]
			}
			return ""
		}
		switch {
		case a == "-T":
			r.Profile = next()
		case a == "-E":
			r.Entry = next()
		case a == "-D":
			r.Defines = append(r.Defines, next())
		case strings.HasPrefix(a, "-D"):
			r.Defines = append(r.Defines, a[2:])
		case a == "-Zpr":
			r.RowMaj = true
		case a == "-Zpc":
			r.RowMaj = false
		case a == "-enable-16bit-types":
			r.Half = true
		case a == "-Fo":
			next()
		case strings.HasPrefix(a, "%t/"):
			r.Source = a[3:]
		case a == "|" || a == "&&":
			i = len(f)
		default:
			r.Other = append(r.Other, a)
		}
	}
	return r, true
}

// Eval evaluates a lit feature expression ("Clang && !Vulkan",
// "Metal || DirectX", "Half", a comma-separated list meaning "or" for
// XFAIL/UNSUPPORTED and "and" for REQUIRES is handled by the caller) with
// the given features set.
func Eval(expr string, has func(string) bool) bool {
	p := &boolParser{toks: tokenize(expr), has: has}
	return p.or()
}

func tokenize(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||"):
			out = append(out, s[i:i+2])
			i += 2
		case c == '!' || c == '(' || c == ')':
			out = append(out, string(c))
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t!()&|", rune(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

type boolParser struct {
	toks []string
	i    int
	has  func(string) bool
}

func (p *boolParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *boolParser) or() bool {
	v := p.and()
	for p.peek() == "||" {
		p.i++
		v = p.and() || v
	}
	return v
}

func (p *boolParser) and() bool {
	v := p.not()
	for p.peek() == "&&" {
		p.i++
		v = p.not() && v
	}
	return v
}

func (p *boolParser) not() bool {
	switch p.peek() {
	case "!":
		p.i++
		return !p.not()
	case "(":
		p.i++
		v := p.or()
		if p.peek() == ")" {
			p.i++
		}
		return v
	case "":
		return false
	}
	t := p.toks[p.i]
	p.i++
	return p.has(t)
}

// Pipeline is the part of pipeline.yaml the harness uses.
type Pipeline struct {
	Shaders   []Shader
	Buffers   []Buffer
	Results   []Result
	Resources []Resource
	Samplers  []Sampler
	// Other lists top-level keys the harness does not model (textures,
	// acceleration structures, vertex buffers, render targets, ...).
	Other []string
}

// Shader is one pipeline stage.
type Shader struct {
	Stage, Entry string
	Groups       [3]int // DispatchGroupCount (default 1, 1, 1)
}

// Buffer is a named buffer: its format, the data as bit patterns of
// Format's width (one per value), or FillSize bytes of FillValue.
type Buffer struct {
	Name     string
	Format   string
	Bits     int // width of one value (Format)
	Float    bool
	Stride   int
	Channels int
	Data     []uint64
	Fill     bool // FillSize given (no Data)
	// ArraySize is the element count of an array of resources (0 for
	// one resource); Data then holds the elements' data one after the
	// other, each len(Data)/ArraySize values.
	ArraySize int
	Size      int // bytes of one resource (FillSize, or len(Data) * Bits/8)
	// Width, Height, Depth and MipLevels are a texture's OutputProps
	// (0 when absent); Data then holds level 0, 1, ... in order.
	Width, Height, Depth, MipLevels int
}

// Sampler is a sampler state of the Samplers list: Kind "Sampler" or
// "SamplerComparison", filters "Nearest" or "Linear", an address mode
// for every coordinate ("Clamp", "Repeat", "Mirror", "Border",
// "MirrorOnce") and a comparison ("Less", "Greater", ...).
type Sampler struct {
	Name, Kind           string
	MinFilter, MagFilter string
	MipFilter            string
	Address              string
	ComparisonOp         string
}

// Result is one comparison of an actual buffer with an expected one.
type Result struct {
	Name, Rule       string
	Actual, Expected string
	ULPT             int
	Epsilon          float64
	DenormMode       string // Any (default), FTZ, Preserve
}

// Resource binds a buffer to a shader register.
type Resource struct {
	Name            string
	Kind            string
	Register, Space int
	// Reserved marks a reserved (tiled) resource (IsReserved, TilesMapped),
	// which the interpreter does not model: every resource is fully mapped.
	Reserved bool
}

// formats gives each Format's value width and whether it is a float.
var formats = map[string]struct {
	bits  int
	float bool
}{
	"Float16": {16, true}, "Float32": {32, true}, "Float64": {64, true},
	"Int16": {16, false}, "Int32": {32, false}, "Int64": {64, false},
	"UInt16": {16, false}, "UInt32": {32, false}, "UInt64": {64, false},
	"Hex16": {16, false}, "Hex32": {32, false}, "Hex64": {64, false},
	"Bool": {32, false},
	// Depth32 is a depth texture's format: one 32-bit float per texel.
	"Depth32": {32, true},
}

// ParsePipeline reads a pipeline.yaml section.
func ParsePipeline(src string) (*Pipeline, error) {
	doc, err := parseYAML(src)
	if err != nil {
		return nil, err
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("pipeline.yaml is not a mapping")
	}
	p := &Pipeline{}
	for k := range top {
		switch k {
		case "Shaders", "Buffers", "Results", "DescriptorSets", "DispatchParameters", "Samplers":
		default:
			p.Other = append(p.Other, k)
		}
	}
	sort.Strings(p.Other)
	for _, s := range list(top["Shaders"]) {
		m := mapOf(s)
		sh := Shader{Stage: str(m["Stage"]), Entry: str(m["Entry"]), Groups: [3]int{1, 1, 1}}
		g := list(m["DispatchGroupCount"])
		if dp := list(mapOf(top["DispatchParameters"])["DispatchGroupCount"]); len(g) == 0 {
			g = dp
		}
		if len(g) == 3 {
			for i := range 3 {
				sh.Groups[i], _ = strconv.Atoi(str(g[i]))
			}
		}
		p.Shaders = append(p.Shaders, sh)
	}
	for _, b := range list(top["Buffers"]) {
		m := mapOf(b)
		buf := Buffer{Name: str(m["Name"]), Format: str(m["Format"])}
		f, ok := formats[buf.Format]
		if !ok {
			return nil, fmt.Errorf("buffer %s: unsupported format %q", buf.Name, buf.Format)
		}
		buf.Bits, buf.Float = f.bits, f.float
		buf.Stride, _ = strconv.Atoi(str(m["Stride"]))
		copies := 1
		if as := str(m["ArraySize"]); as != "" {
			// An array of resources: Data is one list per element,
			// FillSize the size of each; Data holds them in order.
			buf.ArraySize, _ = strconv.Atoi(as)
			copies = max(buf.ArraySize, 1)
		}
		buf.Channels, _ = strconv.Atoi(str(m["Channels"]))
		op := mapOf(m["OutputProps"])
		buf.Width, _ = strconv.Atoi(str(op["Width"]))
		buf.Height, _ = strconv.Atoi(str(op["Height"]))
		buf.Depth, _ = strconv.Atoi(str(op["Depth"]))
		buf.MipLevels, _ = strconv.Atoi(str(op["MipLevels"]))
		if fs := str(m["FillSize"]); fs != "" {
			buf.Fill = true
			buf.Size, _ = strconv.Atoi(fs)
			fill := uint64(0)
			if fv := str(m["FillValue"]); fv != "" {
				if fill, err = parseValue(fv, f.bits, f.float); err != nil {
					return nil, fmt.Errorf("buffer %s: %v", buf.Name, err)
				}
			}
			buf.Data = make([]uint64, copies*buf.Size*8/f.bits)
			for i := range buf.Data {
				buf.Data[i] = fill
			}
		}
		for _, d := range list(m["Data"]) {
			items := []any{d}
			if buf.ArraySize > 0 {
				items = list(d)
			}
			for _, d := range items {
				v, err := parseValue(str(d), f.bits, f.float)
				if err != nil {
					return nil, fmt.Errorf("buffer %s: %v", buf.Name, err)
				}
				buf.Data = append(buf.Data, v)
			}
		}
		if !buf.Fill {
			buf.Size = len(buf.Data) / copies * f.bits / 8
		}
		p.Buffers = append(p.Buffers, buf)
	}
	for _, s := range list(top["Samplers"]) {
		m := mapOf(s)
		p.Samplers = append(p.Samplers, Sampler{Name: str(m["Name"]), Kind: str(m["Kind"]), MinFilter: str(m["MinFilter"]),
			MagFilter: str(m["MagFilter"]), MipFilter: str(m["MipFilter"]), Address: str(m["Address"]), ComparisonOp: str(m["ComparisonOp"])})
	}
	for _, r := range list(top["Results"]) {
		m := mapOf(r)
		res := Result{Name: str(m["Result"]), Rule: str(m["Rule"]), Actual: str(m["Actual"]), Expected: str(m["Expected"]), DenormMode: str(m["DenormMode"])}
		res.ULPT, _ = strconv.Atoi(str(m["ULPT"]))
		res.Epsilon, _ = strconv.ParseFloat(str(m["Epsilon"]), 64)
		p.Results = append(p.Results, res)
	}
	for _, ds := range list(top["DescriptorSets"]) {
		for _, r := range list(mapOf(ds)["Resources"]) {
			m := mapOf(r)
			res := Resource{Name: str(m["Name"]), Kind: str(m["Kind"])}
			dx := mapOf(m["DirectXBinding"])
			res.Register, _ = strconv.Atoi(str(dx["Register"]))
			res.Space, _ = strconv.Atoi(str(dx["Space"]))
			res.Reserved = m["IsReserved"] != nil || m["TilesMapped"] != nil
			p.Resources = append(p.Resources, res)
		}
	}
	return p, nil
}

// Sampler returns the sampler called name.
func (p *Pipeline) Sampler(name string) *Sampler {
	for i := range p.Samplers {
		if p.Samplers[i].Name == name {
			return &p.Samplers[i]
		}
	}
	return nil
}

// Buffer returns the buffer called name.
func (p *Pipeline) Buffer(name string) *Buffer {
	for i := range p.Buffers {
		if p.Buffers[i].Name == name {
			return &p.Buffers[i]
		}
	}
	return nil
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func mapOf(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// parseValue reads one data value as the bit pattern of its format:
// decimal or hex integers (negative ones in two's complement), floats
// (decimal, hex floats such as 0x1.e7d42cp-127, nan, -nan, inf, -inf),
// true/false.
func parseValue(s string, bits int, float bool) (uint64, error) {
	mask := uint64(math.MaxUint64)
	if bits < 64 {
		mask = 1<<uint(bits) - 1
	}
	ls := strings.ToLower(s)
	switch ls {
	case "true":
		return 1, nil
	case "false":
		return 0, nil
	}
	if !float {
		if v, err := strconv.ParseInt(s, 0, 64); err == nil {
			return uint64(v) & mask, nil
		}
		if v, err := strconv.ParseUint(s, 0, 64); err == nil {
			return v & mask, nil
		}
		return 0, fmt.Errorf("bad integer %q", s)
	}
	if h, ok := strings.CutPrefix(ls, "0x"); ok && !strings.ContainsAny(h, ".p") {
		// A float given by its bits.
		v, err := strconv.ParseUint(h, 16, 64)
		if err != nil {
			return 0, fmt.Errorf("bad float bits %q", s)
		}
		return v & mask, nil
	}
	var f float64
	switch strings.TrimPrefix(ls, "-") {
	case "nan":
		f = math.NaN()
	case "inf", "infinity":
		f = math.Inf(1)
	default:
		v, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimPrefix(ls, "-"), "+"), 64)
		if err != nil {
			return 0, fmt.Errorf("bad float %q", s)
		}
		f = v
	}
	b := interp.FloatBits(floatType(bits), f)
	if strings.HasPrefix(ls, "-") {
		b |= 1 << uint(bits-1) // also -0 and -nan
	}
	return b, nil
}

// floatType is the IR float type of a width.
func floatType(bits int) *ir.Type {
	switch bits {
	case 16:
		return ir.F16
	case 64:
		return ir.F64
	}
	return ir.F32
}
