package interp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// Input is what a run reads: buffer contents, uniform values, the dispatch
// size, the pixels or vertices to shade and stage inputs. Every field is
// optional (docs/run.md gives the JSON form and the defaults). Values are
// JSON-like Go values: numbers (json.Number, float64, any Go integer or
// float type), bools, strings for special floats ("nan", "inf", "-inf",
// "-0.0") and exact bit patterns ("0x3F800000"), slices for vectors,
// matrices (rows) and arrays, maps or slices for structs. A flat list of
// scalars is accepted for any aggregate.
type Input struct {
	// Dispatch is the number of workgroups in x, y, z (compute); zero
	// components count as 1.
	Dispatch [3]int `json:"dispatch,omitzero"`
	// Buffers fills storage buffers (others are zero-filled).
	Buffers []BufferInput `json:"buffers,omitempty"`
	// Textures and Samplers bind texture and sampler globals
	// (texture_input.go).
	Textures []TextureInput `json:"textures,omitempty"`
	Samplers []SamplerInput `json:"samplers,omitempty"`
	// Uniforms sets uniform globals by name, or struct members of a uniform
	// global as "global.member" or just "member".
	Uniforms map[string]any `json:"uniforms,omitempty"`
	// SpecConstants override specialization constants by SpecId (the
	// decimal n of [[vk::constant_id(n)]]), as Vulkan's
	// VkSpecializationInfo does; the others keep their default.
	SpecConstants map[string]any `json:"spec_constants,omitempty"`
	// Rect shades a width x height grid of pixels (pixel shaders).
	Rect *Rect `json:"rect,omitempty"`
	// Pixels lists pixels to shade as [x, y] pairs (instead of Rect).
	Pixels [][2]int `json:"pixels,omitempty"`
	// Inputs gives stage inputs by semantic (or global name).
	Inputs map[string]LaneInput `json:"inputs,omitempty"`
	// Vertices gives vertex shader inputs, one map (semantic -> value) per
	// vertex; the vertex count is len(Vertices) unless VertexCount is set.
	Vertices    []map[string]any `json:"vertices,omitempty"`
	VertexCount int              `json:"vertex_count,omitempty"`
	// WorkgroupSize overrides the compute entry point's numthreads (an
	// LLVM kernel's work-group size: get_local_size); zero components keep
	// the module's.
	WorkgroupSize [3]int `json:"workgroup_size,omitzero"`
	// Args gives the scalar arguments of an entry point with parameters
	// (LLVM kernels), keyed by parameter name or index ("n" or "1");
	// pointer arguments are buffers (BufferInput.Arg or Name).
	Args map[string]any `json:"args,omitempty"`
}

// BufferInput fills one storage buffer, found by Name or by (Set, Binding).
type BufferInput struct {
	Name string `json:"name,omitempty"`
	// Arg binds the buffer to the entry point's pointer parameter of this
	// index (LLVM kernels; Name may give the parameter's name instead).
	Arg     *int `json:"arg,omitempty"`
	Set     *int `json:"set,omitempty"`
	Binding *int `json:"binding,omitempty"`
	// Type, if set, must equal the element type as the IR prints it (e.g.
	// "u32", "<4 x f32>"): a check that the data means what the writer
	// thinks.
	Type string `json:"type,omitempty"`
	// Count is the element count of a runtime-sized buffer (default:
	// len(Data), or max(DefaultBufferCount, invocations) without data).
	Count int `json:"count,omitempty"`
	// Tail is the length of the trailing runtime-sized array of a buffer
	// whose type is a struct ending in one (default: from Data, else
	// max(DefaultBufferCount, invocations)).
	Tail int   `json:"tail,omitempty"`
	Data []any `json:"data,omitempty"`
}

// Rect is a pixel rectangle; pixel (x, y) has SV_Position (x+0.5, y+0.5, 0, 1).
type Rect struct {
	X      int `json:"x,omitempty"`
	Y      int `json:"y,omitempty"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// LaneInput gives one stage input: the same Value for every invocation,
// one value per invocation (PerLane, in invocation order), or for a pixel
// Rect four Corners (top-left, top-right, bottom-left, bottom-right)
// interpolated bilinearly at pixel centres.
type LaneInput struct {
	Value   any   `json:"value,omitempty"`
	PerLane []any `json:"per_lane,omitempty"`
	Corners []any `json:"corners,omitempty"`
}

// ParseInput decodes the JSON input format of docs/run.md. Unknown fields
// are errors (they are usually typos); syntax errors give line:column.
func ParseInput(data []byte) (*Input, error) { return ParseInputFile("input", data) }

// ParseInputFile is ParseInput for the file name: errors read
// "name:LINE:COL: ..." (or "name: FIELD: ..." for a value out of range).
// Besides the JSON syntax, it checks what the decoder would let through
// silently: a dispatch of more than three sizes, negative sizes and counts.
func ParseInputFile(name string, data []byte) (*Input, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var in Input
	if err := dec.Decode(&in); err != nil {
		msg := err.Error()
		var off int64 = -1
		switch e := err.(type) {
		case *json.SyntaxError:
			off = e.Offset - 1 // the offending character
		case *json.UnmarshalTypeError:
			off = e.Offset
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			off, msg = int64(len(data)), "unexpected end of the JSON input"
		}
		if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
			if k := keyOffset(data, f); k >= 0 {
				off = int64(k)
			}
			msg = "unknown field " + f
		}
		if off >= 0 {
			line, col := lineCol(data, int(off))
			return nil, fmt.Errorf("%s:%d:%d: %s", name, line, col, msg)
		}
		return nil, fmt.Errorf("%s: %s", name, msg)
	}
	if dec.More() {
		line, col := lineCol(data, int(dec.InputOffset()))
		return nil, fmt.Errorf("%s:%d:%d: trailing data after the JSON object", name, line, col)
	}
	if err := in.check(data); err != nil {
		return nil, fmt.Errorf("%s:%v", name, err)
	}
	return &in, nil
}

// check refuses values the JSON decoder accepts but a run cannot mean.
func (in *Input) check(data []byte) error {
	var probe struct {
		Dispatch      []json.RawMessage `json:"dispatch"`
		WorkgroupSize []json.RawMessage `json:"workgroup_size"`
	}
	if json.Unmarshal(data, &probe) == nil {
		for _, f := range []struct {
			key string
			n   int
		}{{"dispatch", len(probe.Dispatch)}, {"workgroup_size", len(probe.WorkgroupSize)}} {
			if f.n > 3 { // the decoder drops the rest
				line, col := lineCol(data, keyOffset(data, `"`+f.key+`"`))
				return fmt.Errorf("%d:%d: %s has %d sizes; give x, y and z", line, col, f.key, f.n)
			}
		}
	}
	if err := in.checkValues(); err != nil {
		return fmt.Errorf(" %v", err)
	}
	return nil
}

// checkValues refuses sizes and counts out of range.
func (in *Input) checkValues() error {
	for i, d := range in.Dispatch {
		if d < 0 || d > MaxDispatch {
			return fmt.Errorf("dispatch[%d] = %d: each size must be 0 (meaning 1) to %d", i, d, MaxDispatch)
		}
	}
	for i, b := range in.Buffers {
		if b.Count < 0 {
			return fmt.Errorf("buffers[%d].count = %d is negative", i, b.Count)
		}
		if b.Tail < 0 {
			return fmt.Errorf("buffers[%d].tail = %d is negative", i, b.Tail)
		}
	}
	for i, n := range in.WorkgroupSize {
		if n < 0 || n > 1024 {
			return fmt.Errorf("workgroup_size[%d] = %d: each size must be 0 (the module's) to 1024", i, n)
		}
	}
	for i, b := range in.Buffers {
		if b.Arg != nil && *b.Arg < 0 {
			return fmt.Errorf("buffers[%d].arg = %d is negative", i, *b.Arg)
		}
	}
	if in.VertexCount < 0 {
		return fmt.Errorf("vertex_count = %d is negative", in.VertexCount)
	}
	if r := in.Rect; r != nil && (r.Width <= 0 || r.Height <= 0 || r.X < 0 || r.Y < 0) {
		return fmt.Errorf("rect %+v: width and height must be positive, x and y not negative", *r)
	}
	return nil
}

// keyOffset is the offset of the first object key spelled quoted (with
// its quotes) in data, or -1. Like encoding/json it ignores case
// ("dispATCh" is the dispatch field).
func keyOffset(data []byte, quoted string) int {
	data, key := asciiLower(data), asciiLower([]byte(quoted))
	for off := 0; ; {
		i := bytes.Index(data[off:], key)
		if i < 0 {
			return -1
		}
		j := off + i + len(key)
		for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
			j++
		}
		if j < len(data) && data[j] == ':' {
			return off + i
		}
		off += i + 1
	}
}

// asciiLower lowers A-Z only, so offsets stay those of the input.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func lineCol(data []byte, off int) (int, int) {
	off = max(0, min(off, len(data)))
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// fromValue converts a JSON-like value to the cells of type t. path names
// the value in error messages.
func fromValue(v any, t *ir.Type, path string) ([]uint64, error) {
	out := make([]uint64, slots(t))
	if err := fillValue(v, t, out, path); err != nil {
		return nil, err
	}
	return out, nil
}

func fillValue(v any, t *ir.Type, out []uint64, path string) error {
	if t.IsScalar() {
		c, err := scalarFromValue(v, t, path)
		if err != nil {
			return err
		}
		out[0] = c
		return nil
	}
	if t.Kind == ir.KPointer {
		return fmt.Errorf("%s: pointers cannot be given as input", path)
	}
	// Structs by member name.
	if t.Kind == ir.KStruct {
		if mv, ok := asMap(v); ok {
			for k := range mv {
				if fieldIndex(t, k) < 0 {
					return fmt.Errorf("%s: %s has no member %q", path, t, k)
				}
			}
			for i, f := range t.Fields {
				x, ok := mv[f.Name]
				if !ok {
					continue // missing members are zero
				}
				ft, c, ok := part(t, out, i)
				if !ok {
					return fmt.Errorf("%s: no room for member %s", path, f.Name)
				}
				if err := fillValue(x, ft, c, path+"."+f.Name); err != nil {
					return err
				}
			}
			return nil
		}
	}
	list, ok := asList(v)
	if !ok {
		return fmt.Errorf("%s: expected a list for %s, got %s", path, t, describe(v))
	}
	n := numParts(t, len(out))
	if len(list) == n || t.Kind == ir.KArray && t.Len < 0 && len(list) < n {
		allOK := true
		for i := range list {
			et, c, ok := part(t, out, i)
			if !ok {
				return fmt.Errorf("%s: no room for component %d", path, i)
			}
			if err := fillValue(list[i], et, c, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				if len(list) == len(out) && allScalars(list) {
					allOK = false
					break
				}
				return err
			}
		}
		if allOK {
			return nil
		}
	}
	if len(list) == len(out) && allScalars(list) {
		leaves := leafTypes(t, tailLen(t, len(out)), nil)
		for i, x := range list {
			c, err := scalarFromValue(x, leaves[i], fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return err
			}
			out[i] = c
		}
		return nil
	}
	return fmt.Errorf("%s: %s needs %d components (or %d scalars), got %d", path, t, n, len(out), len(list))
}

func fieldIndex(t *ir.Type, name string) int {
	for i, f := range t.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

func allScalars(list []any) bool {
	for _, x := range list {
		if _, ok := asList(x); ok {
			return false
		}
		if _, ok := asMap(x); ok {
			return false
		}
	}
	return true
}

func asList(v any) ([]any, bool) {
	if l, ok := v.([]any); ok {
		return l, true
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || (rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array) || rv.Type().Elem().Kind() == reflect.Uint8 && rv.Kind() == reflect.Slice {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

func asMap(v any) (map[string]any, bool) {
	if m, ok := v.(map[string]any); ok {
		return m, true
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil, false
	}
	out := map[string]any{}
	for _, k := range rv.MapKeys() {
		out[k.String()] = rv.MapIndex(k).Interface()
	}
	return out, true
}

func describe(v any) string {
	if v == nil {
		return "null"
	}
	switch v.(type) {
	case json.Number, float64, float32, int, int64, int32, uint, uint64, uint32:
		return "a number"
	case string:
		return "a string"
	case bool:
		return "a bool"
	}
	if _, ok := asMap(v); ok {
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// scalarFromValue converts one scalar. Floats accept numbers and the
// strings "nan", "inf", "-inf", decimal strings and "0x..." bit patterns;
// integers accept integral numbers in range and "0x..." bit patterns; bools
// accept true/false and 0/1.
func scalarFromValue(v any, t *ir.Type, path string) (uint64, error) {
	b := fbits(t)
	if l, ok := asList(v); ok && len(l) == 1 {
		v = l[0] // a 1-element list for a scalar is harmless
	}
	if s, ok := v.(string); ok {
		if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
			x, err := strconv.ParseUint(h, 16, 64)
			if err != nil || x > widthMask(b) {
				return 0, fmt.Errorf("%s: bad bit pattern %q for %s", path, s, t)
			}
			return x, nil
		}
		if t.Kind == ir.KFloat {
			switch strings.ToLower(s) {
			case "nan":
				return fromF64(math.NaN(), b), nil
			case "inf", "+inf", "infinity":
				return fromF64(math.Inf(1), b), nil
			case "-inf", "-infinity":
				return fromF64(math.Inf(-1), b), nil
			}
			v = json.Number(s)
		} else {
			return 0, fmt.Errorf("%s: expected %s, got the string %q", path, t, s)
		}
	}
	switch t.Kind {
	case ir.KBool:
		switch x := v.(type) {
		case bool:
			return b2u(x), nil
		}
		if r, ok := number(v); ok && r.IsInt() && (r.Sign() == 0 || r.Num().IsInt64() && r.Num().Int64() == 1) {
			return uint64(r.Num().Int64()), nil
		}
		return 0, fmt.Errorf("%s: expected a bool, got %s", path, describe(v))
	case ir.KFloat:
		if s, ok := v.(json.Number); ok {
			bs := 64
			if b == 32 {
				bs = 32 // parse straight to float32: one correct rounding
			}
			f, err := strconv.ParseFloat(string(s), bs)
			if err != nil {
				return 0, fmt.Errorf("%s: bad number %q for %s", path, s, t)
			}
			return fromF64(f, b), nil
		}
		switch x := v.(type) {
		case float32:
			return fromF64(float64(x), b), nil
		case float64:
			return fromF64(x, b), nil
		}
		r, ok := number(v)
		if !ok {
			return 0, fmt.Errorf("%s: expected %s, got %s", path, t, describe(v))
		}
		f, _ := r.Float64()
		return fromF64(f, b), nil
	case ir.KInt, ir.KUint:
		r, ok := number(v)
		if !ok {
			return 0, fmt.Errorf("%s: expected %s, got %s", path, t, describe(v))
		}
		if !r.IsInt() {
			return 0, fmt.Errorf("%s: expected an integer for %s, got %s", path, t, r.RatString())
		}
		n := r.Num()
		if t.Kind == ir.KInt {
			lo, hi := -(int64(1) << uint(b-1)), int64(1)<<uint(b-1)-1
			if b == 64 {
				lo, hi = math.MinInt64, math.MaxInt64
			}
			if !n.IsInt64() || n.Int64() < lo || n.Int64() > hi {
				return 0, fmt.Errorf("%s: %s is out of range for %s", path, n, t)
			}
			return uint64(n.Int64()) & widthMask(b), nil
		}
		if n.Sign() < 0 || !n.IsUint64() || n.Uint64() > widthMask(b) {
			return 0, fmt.Errorf("%s: %s is out of range for %s", path, n, t)
		}
		return n.Uint64(), nil
	}
	return 0, fmt.Errorf("%s: unsupported type %s", path, t)
}

// number reads a numeric value exactly (json.Number text, Go integers and
// finite floats).
func number(v any) (*big.Rat, bool) {
	r := new(big.Rat)
	switch x := v.(type) {
	case json.Number:
		if _, ok := r.SetString(string(x)); !ok {
			return nil, false
		}
		return r, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false
		}
		return r.SetFloat64(x), true
	case float32:
		return number(float64(x))
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return nil, false
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return r.SetInt64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return r.SetFrac(new(big.Int).SetUint64(rv.Uint()), big.NewInt(1)), true
	}
	return nil, false
}
