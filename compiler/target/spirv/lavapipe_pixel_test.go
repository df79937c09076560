package spirv

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/target/spirv/vkrun"
	"passlens/internal/vkd3d"
	"passlens/samples"
)

// Pixel shaders on lavapipe: passlens's fragment shader is drawn over a
// small viewport by one triangle that covers it (vertex shader generated
// in HLSL and compiled by passlens too, so the vertex path runs as well),
// into R32G32B32A32_SFLOAT targets, and every written component is
// compared with the interpreter's render targets for the same rectangle
// (R32G32B32A32_SFLOAT targets, SINT/UINT for integer outputs).
// Interpolated inputs are affine functions of the pixel position, which
// the interpreter's bilinear corners reproduce exactly; uniforms hold
// fixed small values. Floats must be equal up to a small relative
// tolerance (lavapipe's transcendental functions and interpolation are not
// correctly rounded); the exact matches are counted.

const pixelW, pixelH = 8, 8

// leafScalars returns the scalar type of each cell of t, in cell order
// (the order of leafOffsets).
func leafScalars(t *ir.Type, out []*ir.Type) []*ir.Type {
	switch t.Kind {
	case ir.KVector:
		for i := 0; i < t.Len; i++ {
			out = append(out, t.Elem)
		}
	case ir.KMatrix:
		for i := 0; i < t.Len; i++ {
			out = leafScalars(rowType(t), out)
		}
	case ir.KArray:
		for i := 0; i < t.Len; i++ {
			out = leafScalars(t.Elem, out)
		}
	case ir.KStruct:
		for _, f := range t.Fields {
			out = leafScalars(f.Type, out)
		}
	default:
		out = append(out, t)
	}
	return out
}

// uniformValue is the fixed bit pattern of cell k of a uniform: floats
// in [0.25, 1] and integers 1 or 2, so that uniforms used as array
// indices (also summed), loop counts or float-to-unsigned conversions
// stay away from the cases SPIR-V leaves undefined and the IR defines
// (out-of-bounds indices, negative to unsigned).
// The pattern has the leaf's width: a half, float or double of the value,
// 16- and 64-bit integers alike.
func uniformValue(s *ir.Type, k int) uint64 {
	switch s.Kind {
	case ir.KFloat:
		f := float64((k*3)%4+1) * 0.25
		switch s.Bits {
		case 16: // f is 2^e * m with m in [1, 2): exact in a half
			m, e := math.Frexp(f) // f = m * 2^e, m in [0.5, 1)
			return uint64(e-1+15)<<10 | uint64((m*2-1)*1024)
		case 64:
			return math.Float64bits(f)
		}
		return uint64(math.Float32bits(float32(f)))
	case ir.KBool:
		return uint64(k % 2)
	}
	return uint64(k%2 + 1)
}

// varying is a non-system-value pixel shader input.
type varying struct {
	g       *ir.Global
	corners [4][]float64 // tl, tr, bl, br per component (floats)
	value   []int64      // constant value per component (integers)
}

// pixelPlan describes how to run a pixel shader, or why it cannot be.
type pixelPlan struct {
	skip     string
	entry    *ir.Function
	varyings []*varying
	targets  []vkrun.TargetKind // color attachments by location
}

// planPixel checks that m's single pixel entry point uses only what the
// draw provides: SV_Position, SV_IsFrontFace (true), SV_SampleIndex (0)
// and 32-bit varyings in, 32-bit SV_Target out, uniform buffers, no wave
// operations (the driver's lane packing of pixels is its own).
func planPixel(m *ir.Module) pixelPlan { return planPixelWith(m, nil) }

// planPixelWith is planPixel where storage globals for which storageOK
// reports true are left to the caller to bind.
func planPixelWith(m *ir.Module, storageOK func(*ir.Global) bool) pixelPlan {
	var p pixelPlan
	eps := m.EntryPoints()
	if len(eps) != 1 || eps[0].Entry.Stage != ir.StagePixel {
		return pixelPlan{skip: "not a pixel shader"}
	}
	p.entry = eps[0]
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				// Quads are the same 2×2 blocks on every device; waves are not.
				if in.Intr != nil && strings.HasPrefix(in.Intr.Name, "Wave") {
					return pixelPlan{skip: "wave operations"}
				}
			}
		}
	}
	for _, g := range m.Globals {
		sem := strings.ToUpper(g.Semantic)
		switch g.Space {
		case ir.SpaceStorage:
			if storageOK != nil && storageOK(g) {
				continue
			}
			return pixelPlan{skip: "storage buffers"}
		case ir.SpaceInput:
			if sem == "SV_POSITION" || sem == "SV_ISFRONTFACE" || sem == "SV_SAMPLEINDEX" {
				continue
			}
			if strings.HasPrefix(sem, "SV_") {
				return pixelPlan{skip: "input " + g.Semantic}
			}
			s := g.ValType.Scalar()
			if g.ValType.Kind != ir.KVector && !g.ValType.IsScalar() || s.Bits != 32 || s.Kind == ir.KBool {
				return pixelPlan{skip: "input of type " + g.ValType.String()}
			}
			v := &varying{g: g}
			i := len(p.varyings)
			for c := 0; c < g.ValType.Lanes(); c++ {
				if s.Kind == ir.KFloat && !g.Flat {
					// From slightly negative at the left to positive.
					tl := float64(i)*0.125 + float64(c)*0.25 - 0.25
					tr := tl + 1 + 0.5*float64(c)
					bl := tl + 0.5 - 0.25*float64(i)
					for k, x := range []float64{tl, tr, bl, tr + bl - tl} {
						v.corners[k] = append(v.corners[k], x)
					}
				} else {
					v.value = append(v.value, int64(3*i+c+1))
				}
			}
			p.varyings = append(p.varyings, v)
		case ir.SpaceOutput:
			n, ok := strings.CutPrefix(sem, "SV_TARGET")
			if !ok {
				return pixelPlan{skip: "output " + g.Semantic}
			}
			loc := 0
			if n != "" {
				loc, _ = strconv.Atoi(n)
			}
			s := g.ValType.Scalar()
			if g.ValType.Kind != ir.KVector && !g.ValType.IsScalar() || s.Bits != 32 || s.Kind == ir.KBool {
				return pixelPlan{skip: "render target of type " + g.ValType.String()}
			}
			for len(p.targets) <= loc {
				p.targets = append(p.targets, vkrun.Float)
			}
			p.targets[loc] = map[ir.Kind]vkrun.TargetKind{ir.KFloat: vkrun.Float, ir.KInt: vkrun.Int, ir.KUint: vkrun.Uint}[s.Kind]
		}
	}
	if len(p.targets) == 0 {
		return pixelPlan{skip: "no render target"}
	}
	return p
}

// hlslVector spells a 32-bit scalar or vector type in HLSL.
func hlslVector(t *ir.Type) string {
	name := map[ir.Kind]string{ir.KFloat: "float", ir.KInt: "int", ir.KUint: "uint"}[t.Scalar().Kind]
	if t.Kind == ir.KVector {
		name += strconv.Itoa(t.Len)
	}
	return name
}

// vertexShader compiles the vertex shader of a plan: vertex i at
// p = ((i << 1) & 2, i & 2) in viewport units, position p * 2 - 1, and each
// varying the affine function of p that matches its corners (or its
// constant), in the pixel shader's input order so that the Locations
// match.
func vertexShader(t *testing.T, p pixelPlan) []uint32 {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("struct VSOut {\n  float4 pos : SV_Position;\n")
	for i, v := range p.varyings {
		mod := ""
		if v.value != nil {
			mod = "nointerpolation "
		}
		fmt.Fprintf(&sb, "  %s%s v%d : V%d;\n", mod, hlslVector(v.g.ValType), i, i)
	}
	sb.WriteString("};\nVSOut main(uint id : SV_VertexID) {\n  VSOut o;\n  float2 p = float2((id << 1) & 2, id & 2);\n  o.pos = float4(p * 2 - 1, 0, 1);\n")
	for i, v := range p.varyings {
		ty := hlslVector(v.g.ValType)
		if v.value != nil {
			fmt.Fprintf(&sb, "  o.v%d = %s(%s);\n", i, ty, joinNums(v.value))
			continue
		}
		c := v.corners
		fmt.Fprintf(&sb, "  o.v%d = %s(%s) + %s(%s) * p.x + %s(%s) * p.y;\n", i, ty, joinFloats(c[0]),
			ty, joinFloats(sub(c[1], c[0])), ty, joinFloats(sub(c[2], c[0])))
	}
	sb.WriteString("  return o;\n}\n")
	src := sb.String()
	opts := hlsl.Options{Entry: "main", Stage: hlsl.StageVertex}
	prog, diags := hlsl.Frontend("vs.hlsl", []byte(src), opts)
	if diags.HasErrors() {
		t.Fatalf("vertex shader: %v\n%s", diags, src)
	}
	m, ld := lower.Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		t.Fatalf("vertex shader: %v\n%s", ld, src)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	w, err := Assemble(m, Options{})
	if err != nil {
		t.Fatalf("vertex shader: %v\n%s", err, src)
	}
	return w
}

func sub(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}

func joinFloats(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.FormatFloat(x, 'f', -1, 64))
	}
	return strings.Join(s, ", ")
}

func joinNums(xs []int64) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.FormatInt(x, 10))
	}
	return strings.Join(s, ", ")
}

// jsonList turns numbers into interpreter input values.
func jsonList(xs []float64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = json.Number(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return out
}

// pixelStats counts compared components and shaded pixels.
type pixelStats struct {
	exact, close       int
	written, discarded int
}

// pixelKnown are vkd3d shaders (file:line) whose results depend on what
// the IR defines and SPIR-V leaves undefined.
var pixelKnown = map[string]string{
	// apples[i - 10]: a negative index reads zero in the IR (D3D's
	// robust access), anything on the device.
	"non-const-indexing.shader_test:206": "out-of-bounds index",
	// ddx/ddx_coarse of a non-linear value: llvmpipe computes coarse
	// derivatives per pixel (fine), which SPIR-V allows; the interpreter's
	// are per quad (vkd3d quantizes its probes to accept both).
	"ddxddy.shader_test:16": "llvmpipe's coarse derivatives are fine",
	"ddxddy.shader_test:47": "llvmpipe's coarse derivatives are fine",
}

// fastMath are intrinsics whose lavapipe implementation is an
// approximation with a relative error near 1e-4 (acos(0.25) = 1.3179688
// instead of 1.3181161): their shaders get a tolerance of 2^-10.
var fastMath = map[string]bool{"acos": true, "asin": true, "atan": true, "atan2": true}

// closeF32 reports whether the device's value is acceptably near the
// interpreter's: equal, both NaN, both zero or denormal (lavapipe flushes
// denormals), or within a relative tol (absolute near zero).
func closeF32(got, want, tol float32) bool {
	if got == want || got != got && want != want {
		return true
	}
	tiny := float32(1.0 / (1 << 30) / (1 << 30) / (1 << 30) / (1 << 30)) // 2^-120
	if abs32(got) < tiny && abs32(want) < tiny {
		return true
	}
	if math.IsInf(float64(got), 0) || math.IsInf(float64(want), 0) {
		return false
	}
	return abs32(got-want) <= max(1, abs32(want))*tol
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }

// runPixel draws m (after the spirv pipeline) and compares the targets
// with the interpreter's. It returns a description of the first
// difference (""). perturb, if set, changes the interpreter's input only
// (the negative control).
func runPixel(t *testing.T, name string, m *ir.Module, p pixelPlan, st *pixelStats, perturb func(*interp.Input)) (string, error) {
	return runPixelRef(t, m, m, p, st, perturb)
}

// runPixelRef is runPixel drawing m on the device but interpreting ref
// (the same module but for a deliberate change: negative controls).
func runPixelRef(t *testing.T, m, ref *ir.Module, p pixelPlan, st *pixelStats, perturb func(*interp.Input)) (string, error) {
	in := &interp.Input{Rect: &interp.Rect{Width: pixelW, Height: pixelH}, Uniforms: map[string]any{}, Inputs: map[string]interp.LaneInput{}}
	for _, v := range p.varyings {
		if v.value != nil {
			vals := make([]any, len(v.value))
			for i, x := range v.value {
				vals[i] = json.Number(strconv.FormatInt(x, 10))
			}
			if len(vals) == 1 {
				in.Inputs[v.g.Semantic] = interp.LaneInput{Value: vals[0]}
			} else {
				in.Inputs[v.g.Semantic] = interp.LaneInput{Value: vals}
			}
			continue
		}
		var cs []any
		for _, c := range v.corners {
			if len(c) == 1 {
				cs = append(cs, jsonList(c)[0])
			} else {
				cs = append(cs, jsonList(c))
			}
		}
		in.Inputs[v.g.Semantic] = interp.LaneInput{Corners: cs}
	}
	binds := map[*ir.Global]Binding{}
	for _, b := range Bindings(m) {
		binds[b.Global] = b
	}
	job := vkrun.Job{Entry: p.entry.Name(), Draw: &vkrun.Draw{Vertex: vertexShader(t, p), VertexEntry: "main",
		Width: pixelW, Height: pixelH, Targets: p.targets}}
	for _, g := range m.Globals {
		if g.Space != ir.SpaceUniform {
			continue
		}
		l, err := typeLayout(g.ValType, ruleStd140)
		if err != nil {
			return "", err
		}
		offs, err := leafOffsets(g.ValType, ruleStd140, 0, nil)
		if err != nil {
			return "", err
		}
		leaves := leafScalars(g.ValType, nil)
		data := make([]byte, max(l.Size, 16))
		cells := make([]any, len(offs))
		for k, off := range offs {
			v := uniformValue(leaves[k], k)
			switch scalarBytes(leaves[k]) {
			case 2:
				binary.LittleEndian.PutUint16(data[off:], uint16(v))
			case 8:
				binary.LittleEndian.PutUint64(data[off:], v)
			default:
				binary.LittleEndian.PutUint32(data[off:], uint32(v))
			}
			cells[k] = fmt.Sprintf("0x%x", v)
		}
		in.Uniforms[g.Name()] = cells
		b := binds[g]
		job.Buffers = append(job.Buffers, vkrun.Buffer{Set: b.Set, Binding: b.Binding, ArrayElement: b.ArrayIndex, Uniform: true, Data: data})
	}
	if perturb != nil {
		perturb(in)
	}
	res, err := interp.Run(ref, in, interp.Options{})
	if err != nil {
		return "", fmt.Errorf("interp: %w", err)
	}
	words, err := Assemble(m, Options{})
	if err != nil {
		return "", err
	}
	job.SPIRV = words
	_, pix, err := vkrun.RunDraw(job)
	if err != nil {
		return "", err
	}
	tol := float32(1.0 / (1 << 16))
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Intr != nil && fastMath[in.Intr.Name] {
					tol = 1.0 / (1 << 10)
				}
			}
		}
	}
	for _, tg := range res.Targets {
		n, _ := strings.CutPrefix(strings.ToUpper(tg.Semantic), "SV_TARGET")
		loc, _ := strconv.Atoi(n)
		lanes := tg.Elem.Lanes()
		isFloat := tg.Elem.Scalar().Kind == ir.KFloat
		for y := 0; y < tg.Height; y++ {
			for x := 0; x < tg.Width; x++ {
				if tg.Written[y*tg.Width+x] {
					st.written++
				} else {
					st.discarded++
				}
				want := tg.Pixel(x, y)
				for c := 0; c < lanes; c++ {
					gb, wb := pix[loc][(y*pixelW+x)*4+c], uint32(want[c])
					g, w := math.Float32frombits(gb), math.Float32frombits(wb)
					switch {
					case gb == wb:
						st.exact++
					case isFloat && closeF32(g, w, tol):
						st.close++
					case isFloat:
						return fmt.Sprintf("%s pixel (%d, %d) component %d: device %g, interpreter %g", tg.Semantic, x, y, c, g, w), nil
					default:
						return fmt.Sprintf("%s pixel (%d, %d) component %d: device %d, interpreter %d", tg.Semantic, x, y, c, int32(gb), int32(wb)), nil
					}
				}
			}
		}
	}
	return "", nil
}

// TestLavapipePixel runs every HLSL sample with a pixel entry point and
// every vkd3d pixel shader that the draw can feed on lavapipe and compares
// the render targets with the interpreter's. Shaders that need more
// (other system values, storage buffers, wave operations, integer
// targets) are counted by reason.
func TestLavapipePixel(t *testing.T) {
	t.Parallel()
	needDevice(t)
	type item struct {
		name string
		m    *ir.Module
	}
	var items []item
	for _, s := range samples.All() {
		if !strings.HasSuffix(s.File, ".hlsl") {
			continue
		}
		m, _, err := load.File("samples/"+s.Name, load.Options{})
		if err != nil || len(m.EntryPoints()) != 1 || m.EntryPoints()[0].Entry.Stage != ir.StagePixel {
			continue
		}
		items = append(items, item{"samples/" + s.Name, m})
	}
	nSamples := len(items)
	// A draw costs 0.1-0.4 s on lavapipe: by default every 8th vkd3d
	// shader runs; SPIRV_PIXEL_VKD3D=all runs all of them.
	every := 8
	if os.Getenv("SPIRV_PIXEL_VKD3D") == "all" {
		every = 1
	}
	if _, err := vkd3d.Dir(); err == nil {
		mods, _ := loadVKD3D(t)
		for i, vm := range mods {
			if i%every == 0 {
				items = append(items, item{vm.label, vm.m})
			}
		}
	}
	skipped := map[string]int{}
	var st pixelStats
	ran, agree, sampleRan, knownDiff := 0, 0, 0, 0
	for i, it := range items {
		if err := runSpirvPipeline(it.m); err != nil {
			skipped["pipeline fails"]++
			continue
		}
		p := planPixel(it.m)
		if p.skip == "" {
			if _, err := Assemble(it.m, Options{}); err != nil {
				p.skip = "back end rejects"
			}
		}
		if p.skip != "" {
			if i < nSamples {
				t.Logf("%s: not run: %s", it.name, p.skip)
			}
			skipped[p.skip]++
			continue
		}
		ran++
		if i < nSamples {
			sampleRan++
		}
		diff, err := runPixel(t, it.name, it.m, p, &st, nil)
		key, _, _ := strings.Cut(it.name, " ")
		if err != nil {
			if why, known := pixelKnown[key]; known {
				knownDiff++
				t.Logf("%s: known difference (%s): %v", it.name, why, err)
				continue
			}
			t.Errorf("%s: %v", it.name, err)
			continue
		}
		switch why, known := pixelKnown[key]; {
		case diff != "" && known:
			knownDiff++
			t.Logf("%s: known difference (%s): %s", it.name, why, diff)
		case diff != "":
			t.Errorf("%s: %s", it.name, diff)
		case known:
			t.Errorf("%s: listed as a known difference (%s) but agrees: update pixelKnown", it.name, why)
		default:
			agree++
		}
	}
	var why []string
	for k, n := range skipped {
		why = append(why, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(why)
	t.Logf("pixel shaders on lavapipe (%dx%d): %d run (%d samples), %d agree with the interpreter, %d known differences; components: %d bit-exact, %d within tolerance; target pixels: %d written, %d discarded; not run: %s",
		pixelW, pixelH, ran, sampleRan, agree, knownDiff, st.exact, st.close, st.written, st.discarded, strings.Join(why, ", "))
	if sampleRan == 0 || st.written == 0 {
		t.Errorf("%d pixel samples ran, %d pixels written", sampleRan, st.written)
	}
}

// TestLavapipePixelDetectsDifferences is the negative control: the
// comparison must notice a changed interpolated input and a changed
// uniform.
func TestLavapipePixelDetectsDifferences(t *testing.T) {
	t.Parallel()
	needDevice(t)
	m, _, err := load.File("samples/pixel", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	p := planPixel(m)
	if p.skip != "" || len(p.varyings) == 0 {
		t.Fatalf("samples/pixel cannot be drawn (%q) or has no varyings", p.skip)
	}
	perturbs := map[string]func(*interp.Input){
		"corners": func(in *interp.Input) {
			for k, li := range in.Inputs {
				if li.Corners != nil {
					li.Corners[0], li.Corners[3] = li.Corners[3], li.Corners[0]
					in.Inputs[k] = li
				}
			}
		},
		"uniform": func(in *interp.Input) {
			for _, v := range in.Uniforms {
				cells := v.([]any)
				for i := range cells {
					cells[i] = "0x40000000" // tint = 2, scale = 2
				}
			}
		},
	}
	for name, f := range perturbs {
		var st pixelStats
		diff, err := runPixel(t, "pixel", m, p, &st, f)
		if err != nil {
			t.Fatal(err)
		}
		if st.written == 0 {
			t.Fatalf("%s: no pixel written", name)
		}
		if diff == "" {
			t.Errorf("a changed %s went unnoticed", name)
		}
	}
}
