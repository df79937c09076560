package vkd3d

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Resource is a [uav N] or [srv N] section: the resource's shape and its
// current contents as 32-bit words (texels in order, rows packed). A
// runner writes the words back after each dispatch or draw, so contents
// persist across the [test] sections of a file, as on a device.
type Resource struct {
	UAV           bool
	Slot          int
	Dim           string // "buffer", "raw_buffer", "counter_buffer", "2d", ...
	Width, Height int
	Texel         int  // bytes per element: the format's size or the stride
	Comps         int  // components of a typed format; 0 for a stride
	Class         byte // the format's data type: 'f', 'i', 'u'
	Words         []uint32
	Bad           string // why shaders cannot use it ("texture", "format X", ...)
	// Format is the runner's format name; Levels the mip level count of a
	// 2d texture (its Words hold the levels one after the other).
	Format string
	Levels int
	// Depth is the depth of a 3d texture or the 6 faces of a cube
	// (1 otherwise; a cube's Height is its Width).
	Depth int
}

// Formats are the formats of vkd3d's shader runner a buffer may have:
// size in bytes, component count and data type.
var Formats = map[string]struct {
	Size, Comps int
	Class       byte
}{
	"r32g32b32a32-float": {16, 4, 'f'}, "r32g32b32a32-sint": {16, 4, 'i'}, "r32g32b32a32-uint": {16, 4, 'u'},
	"r32g32-float": {8, 2, 'f'}, "r32g32-sint": {8, 2, 'i'}, "r32g32-uint": {8, 2, 'u'},
	"r32-float": {4, 1, 'f'}, "r32-sint": {4, 1, 'i'}, "r32-uint": {4, 1, 'u'}, "r32-typeless": {4, 1, 'u'},
}

// ParseResource reads a resource section ("uav N" or "srv N"): "format
// F", "stride N", "size (KIND, W[, H])" and the initial data. Resources
// other than buffers of 32-bit-multiple elements get Bad set.
func ParseResource(header string, body []string) *Resource {
	kind, slot, _ := strings.Cut(header, " ")
	r := &Resource{UAV: kind == "uav", Class: 'f', Height: 1, Depth: 1}
	r.Slot, _ = strconv.Atoi(strings.TrimSpace(slot))
	var data []uint32
	for _, l := range body {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "%"):
		case strings.HasPrefix(l, "format "):
			name := strings.TrimSpace(l[len("format "):])
			f, ok := Formats[name]
			if !ok {
				r.Bad = "format " + name
				continue
			}
			r.Texel, r.Comps, r.Class = f.Size, f.Comps, f.Class
			r.Format = name
		case strings.HasPrefix(l, "stride "):
			r.Texel, _ = strconv.Atoi(strings.TrimSpace(l[len("stride "):]))
			r.Comps = 0
		case strings.HasPrefix(l, "size "):
			in := strings.Trim(strings.TrimSpace(l[len("size "):]), "()")
			f := strings.Split(in, ",")
			r.Dim = strings.TrimSpace(f[0])
			if len(f) > 1 {
				r.Width, _ = strconv.Atoi(strings.TrimSpace(f[1]))
			}
			if (r.Dim == "2d" || r.Dim == "3d") && len(f) > 2 {
				r.Height, _ = strconv.Atoi(strings.TrimSpace(f[2]))
			}
			switch {
			case r.Dim == "3d" && len(f) > 3:
				r.Depth, _ = strconv.Atoi(strings.TrimSpace(f[3]))
			case r.Dim == "cube":
				r.Height, r.Depth = r.Width, 6
			}
			if r.Dim == "counter_buffer" {
				r.Texel, r.Comps = 4, 0
			}
		case strings.HasPrefix(l, "levels "):
			r.Levels, _ = strconv.Atoi(strings.TrimSpace(l[len("levels "):]))
		default:
			for _, tok := range strings.Fields(l) {
				w, ok := ParseDataWord(tok)
				if !ok {
					break
				}
				data = append(data, w)
			}
		}
	}
	texture := r.Dim == "2d" || r.Dim == "3d" || r.Dim == "cube"
	if texture && r.Format == "" && r.Bad == "" {
		// The runner's default texture format.
		r.Format, r.Texel, r.Comps, r.Class = "r32g32b32a32-float", 16, 4, 'f'
	}
	r.Levels = max(r.Levels, 1)
	switch {
	case r.Bad != "":
	case texture && r.UAV && (r.Dim != "2d" || r.Levels > 1):
		r.Bad = "texture" // a read-write texture here is 2d with one level
	case r.Dim != "buffer" && r.Dim != "raw_buffer" && r.Dim != "counter_buffer" && !texture:
		r.Bad = "texture"
	case r.Dim != "2d" && texture && r.Levels > 1:
		r.Bad = "texture levels" // the subresource order of 3d and cube mips is not read
	case r.Texel <= 0 || r.Texel%4 != 0:
		r.Bad = "stride not a multiple of 4"
	}
	n := r.Width * r.Height * r.Texel / 4
	if texture {
		n = 0
		for k := 0; k < r.Levels; k++ {
			n += max(r.Width>>k, 1) * max(r.Height>>k, 1) * r.Depth * r.Texel / 4
		}
	}
	r.Words = make([]uint32, max(n, 0))
	copy(r.Words, data)
	return r
}

// ParseDataWord reads one number of resource data as vkd3d's runner
// does, whatever the format: an integer (strtoul, base 0) unless a '.'
// makes it a float (strtof).
func ParseDataWord(tok string) (uint32, bool) {
	if strings.Contains(tok, ".") {
		f, err := strconv.ParseFloat(tok, 32)
		if err != nil {
			return 0, false
		}
		return math.Float32bits(float32(f)), true
	}
	return ParseIntWord(tok)
}

// ParseIntWord reads an integer (base 0, as strtol/strtoul) as 32 bits.
func ParseIntWord(tok string) (uint32, bool) {
	if v, err := strconv.ParseInt(tok, 0, 64); err == nil {
		return uint32(v), true
	}
	if v, err := strconv.ParseUint(tok, 0, 64); err == nil {
		return uint32(v), true
	}
	return 0, false
}

// Resources are a file's declared resources by {0 srv / 1 uav, slot}.
type Resources map[[2]int]*Resource

// Declare records a [uav N] or [srv N] section, replacing an earlier
// resource in the same slot.
func (rs Resources) Declare(header string, body []string) {
	r := ParseResource(header, body)
	k := 0
	if r.UAV {
		k = 1
	}
	rs[[2]int{k, r.Slot}] = r
}

// ProbeUAV checks a "probe uav" line against the resources: msg is ""
// when it passes, skip says why it cannot be checked.
func (rs Resources) ProbeUAV(l string) (msg, skip string) {
	p, skip := ParseUAVProbe(l)
	if skip != "" {
		return "", skip
	}
	r := rs[[2]int{1, p.Slot}]
	switch {
	case r == nil:
		return "", "undeclared resource"
	case r.Bad != "":
		return "", r.Bad
	}
	return p.Check(r), ""
}

// UAVProbe is "probe uav N (x[, y[, x2, y2]]) TYPE(values) [ulps]".
type UAVProbe struct {
	Slot                     int
	Left, Top, Right, Bottom int
	Kind                     string // f32, u32, i32, f64, u64, i64
	Vals                     []string
	ULPs                     int
}

// ParseUAVProbe parses a UAV probe; skip says why it cannot be checked.
func ParseUAVProbe(l string) (p UAVProbe, skip string) {
	rest := strings.TrimSpace(strings.TrimPrefix(l, "probe uav "))
	slot, rest, _ := strings.Cut(rest, " ")
	var err error
	if p.Slot, err = strconv.Atoi(slot); err != nil {
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
		p.Left, p.Top, p.Right, p.Bottom = c[0], 0, c[0]+1, 1
	case 2:
		p.Left, p.Top, p.Right, p.Bottom = c[0], c[1], c[0]+1, c[1]+1
	case 4:
		p.Left, p.Top, p.Right, p.Bottom = c[0], c[1], c[2], c[3]
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
		p.Vals = append(p.Vals, strings.TrimSpace(v))
	}
	if f := strings.Fields(rest); len(f) > 0 {
		p.ULPs, _ = strconv.Atoi(f[0])
	}
	p.Kind = strings.TrimSpace(kind)
	if p.Kind == "rgba" {
		p.Kind = "f32"
	}
	switch {
	case p.Kind == "f64" || p.Kind == "u64" || p.Kind == "i64":
		if len(p.Vals) != 1 && len(p.Vals) != 2 {
			return p, "malformed probe"
		}
	case p.Kind != "f32" && p.Kind != "u32" && p.Kind != "i32":
		return p, "probe type " + p.Kind
	case len(p.Vals) != 1 && len(p.Vals) != 2 && len(p.Vals) != 4:
		return p, "malformed probe"
	}
	return p, ""
}

// Is64 reports whether the probe's values are 64-bit (f64, u64, i64):
// each takes two words, low word first.
func (p UAVProbe) Is64() bool { return p.Kind == "f64" || p.Kind == "u64" || p.Kind == "i64" }

// Check compares the probe with the resource: element (x, y) of a probe
// of n values is the n values at byte y*pitch + x*size*n (size 4, or 8
// for the 64-bit kinds), as vkd3d reads them back. It returns "" when
// every element matches.
func (p UAVProbe) Check(r *Resource) string {
	n := len(p.Vals)
	wpv := 1 // words per value
	if p.Is64() {
		wpv = 2
	}
	pitch := r.Width * r.Texel / 4
	for y := p.Top; y < p.Bottom; y++ {
		for x := p.Left; x < p.Right; x++ {
			base := y*pitch + x*n*wpv
			if base < 0 || base+n*wpv > len(r.Words) {
				return fmt.Sprintf("element (%d,%d) outside the resource", x, y)
			}
			for i, want := range p.Vals {
				if wpv == 2 {
					got := uint64(r.Words[base+2*i]) | uint64(r.Words[base+2*i+1])<<32
					if msg := CompareWord64(p.Kind, got, want, p.ULPs); msg != "" {
						return fmt.Sprintf("element (%d,%d) component %d: %s", x, y, i, msg)
					}
					continue
				}
				got := r.Words[base+i]
				if msg := CompareWord(p.Kind, got, want, p.ULPs); msg != "" {
					return fmt.Sprintf("element (%d,%d) component %d: %s", x, y, i, msg)
				}
			}
		}
	}
	return ""
}

// CompareWord compares one word with an expected value: integers
// exactly, floats within ulps units in the last place (vkd3d's
// compare_float).
func CompareWord(kind string, got uint32, want string, ulps int) string {
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
	w, ok := ParseIntWord(want)
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

// CompareWord64 compares one 64-bit value with an expected value of kind
// f64, u64 or i64: integers exactly, doubles within ulps units in the
// last place (vkd3d's compare_double).
func CompareWord64(kind string, got uint64, want string, ulps int) string {
	if kind == "f64" {
		f, err := strconv.ParseFloat(want, 64)
		if err != nil {
			return "bad expected value " + want
		}
		g := math.Float64frombits(got)
		if math.IsNaN(f) && math.IsNaN(g) {
			return ""
		}
		ord := func(u uint64) int64 { // bits as a monotonic integer
			if int64(u) < 0 {
				return math.MinInt64 - int64(u)
			}
			return int64(u)
		}
		d := ord(got) - ord(math.Float64bits(f))
		if d > int64(ulps) || -d > int64(ulps) {
			return fmt.Sprintf("got %v (0x%016X), want %v", g, got, f)
		}
		return ""
	}
	var w uint64
	if kind == "i64" {
		v, err := strconv.ParseInt(want, 0, 64)
		if err != nil {
			return "bad expected value " + want
		}
		w = uint64(v)
	} else {
		v, err := strconv.ParseUint(want, 0, 64)
		if err != nil {
			return "bad expected value " + want
		}
		w = v
	}
	if got != w {
		if kind == "i64" {
			return fmt.Sprintf("got %d, want %d", int64(got), int64(w))
		}
		return fmt.Sprintf("got %d (0x%X), want %d (0x%X)", got, got, w, w)
	}
	return ""
}

// SetUniform applies "uniform OFFSET TYPE VALUES..." (OFFSET in 32-bit
// words) to a constant buffer's words: float, int and uint types (with
// any vector or matrix suffix), and double, int64_t and uint64_t (two
// words a value, low word first; vkd3d's runner has double2, int64_t2
// and uint64_t2). It is false for other types or a malformed line.
func SetUniform(words map[int]uint32, line string) bool {
	f := strings.Fields(line)
	if len(f) < 4 {
		return false
	}
	off, err := strconv.Atoi(f[1])
	if err != nil {
		return false
	}
	kind := strings.TrimRight(f[2], "0123456789x")
	for i, v := range f[3:] {
		switch kind {
		case "float":
			x, err := strconv.ParseFloat(v, 32)
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				err = nil // overflow gives ±inf, as strtof
			}
			if err != nil {
				// C's strtof also reads hexadecimal without an exponent.
				u, err2 := strconv.ParseUint(v, 0, 64)
				if err2 != nil || !strings.HasPrefix(strings.ToLower(v), "0x") {
					return false
				}
				x = float64(u)
			}
			words[off+i] = math.Float32bits(float32(x))
		case "int", "uint":
			x, err := strconv.ParseInt(v, 0, 64)
			if err != nil {
				u, err2 := strconv.ParseUint(v, 0, 64)
				if err2 != nil {
					return false
				}
				x = int64(u)
			}
			words[off+i] = uint32(x)
		case "double":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return false
			}
			b := math.Float64bits(x)
			words[off+2*i], words[off+2*i+1] = uint32(b), uint32(b>>32)
		case "int64_t", "uint64_t":
			var b uint64
			if x, err := strconv.ParseInt(v, 0, 64); err == nil {
				b = uint64(x)
			} else if b, err = strconv.ParseUint(v, 0, 64); err != nil {
				return false
			}
			words[off+2*i], words[off+2*i+1] = uint32(b), uint32(b>>32)
		default:
			return false
		}
	}
	return true
}

// Probe is a render-target probe: "probe (x, y[, x2, y2]) KIND(values)
// [ulps]" or "probe all KIND(values)".
type Probe struct {
	X, Y, W, H int
	Kind       string // rgba, f32, u32, i32, r, rg, rgb, ...
	Vals       []float64
	ULPs       float64
}

// ParseProbe parses a render-target probe; ok is false for other probes
// (rtv N, uav, dsv) and malformed lines. Values are floats, or integers
// in any base strtol reads.
func ParseProbe(l string) (p Probe, ok bool) {
	rest, ok := strings.CutPrefix(l, "probe ")
	if !ok {
		return p, false
	}
	rest = strings.TrimSpace(rest)
	switch {
	case strings.HasPrefix(rest, "all "):
		p.W, p.H = 640, 480
		rest = rest[4:]
	case strings.HasPrefix(rest, "("):
		coords, r, ok := strings.Cut(rest[1:], ")")
		if !ok {
			return p, false
		}
		var c []int
		for _, s := range strings.Split(coords, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return p, false
			}
			c = append(c, v)
		}
		switch len(c) {
		case 2:
			p.X, p.Y, p.W, p.H = c[0], c[1], 1, 1
		case 4:
			p.X, p.Y, p.W, p.H = c[0], c[1], c[2]-c[0], c[3]-c[1]
		default:
			return p, false
		}
		rest = r
	default:
		return p, false // rtv, uav, dsv
	}
	rest = strings.TrimSpace(rest)
	kind, r, ok := strings.Cut(rest, "(")
	if !ok {
		return p, false
	}
	p.Kind = strings.TrimSpace(kind)
	vals, r, ok := strings.Cut(r, ")")
	if !ok {
		return p, false
	}
	for _, s := range strings.Split(vals, ",") {
		s = strings.TrimSpace(s)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			u, err2 := strconv.ParseInt(s, 0, 64)
			if err2 != nil {
				return p, false
			}
			v = float64(u)
		}
		p.Vals = append(p.Vals, v)
	}
	if f := strings.Fields(r); len(f) > 0 {
		p.ULPs, _ = strconv.ParseFloat(f[0], 64)
	}
	return p, p.W > 0 && p.H > 0
}

// Pixels returns the pixels the probe checks: its rectangle's corners.
func (p Probe) Pixels() [][2]int {
	out := [][2]int{{p.X, p.Y}}
	if p.W > 1 || p.H > 1 {
		out = append(out, [2]int{p.X + p.W - 1, p.Y}, [2]int{p.X, p.Y + p.H - 1}, [2]int{p.X + p.W - 1, p.Y + p.H - 1})
	}
	return out
}

// Sampler is a [sampler N] section: filters (min, mag, mip: "point" or
// "linear"), address modes (u, v, w) and the comparison function, as
// the runner spells them ("less equal", "not equal", ...).
type Sampler struct {
	Slot       int
	Filter     [3]string
	Address    [3]string
	Comparison string
}

// ParseSampler reads a sampler section; the defaults are the runner's
// (linear filtering, clamp addressing, no comparison).
func ParseSampler(header string, body []string) *Sampler {
	_, slot, _ := strings.Cut(header, " ")
	s := &Sampler{Filter: [3]string{"linear", "linear", "linear"}, Address: [3]string{"clamp", "clamp", "clamp"}}
	s.Slot, _ = strconv.Atoi(strings.TrimSpace(slot))
	for _, l := range body {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "filter":
			copy(s.Filter[:], f[1:])
		case "address":
			copy(s.Address[:], f[1:])
		case "comparison":
			s.Comparison = strings.Join(f[1:], "_")
		}
	}
	return s
}
