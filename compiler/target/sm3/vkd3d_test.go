package sm3

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/internal/vkd3d"
)

// The vkd3d HLSL conformance tests (read from ../shared/conformance beside
// the checkout, never copied into the repository) as shader model 3: every
// pixel shader whose [require] range contains 3, that vkd3d does not expect
// to fail at sm<4 and that needs no features, is compiled for ps_3_0; its
// [test] sections are followed with sm=3 ("if(sm<4)" lines apply),
// "uniform" lines fill the float constants c# the way the D3D9 runner does
// (offset N in 32-bit words is c[N/4], component N%4, with registers
// allocated in declaration order as fxc does), "draw quad" shades the
// 2×2 quads of the probed pixels on the emulator (lazily: the render
// target persists across [test] sections, as in vkd3d's runner), a custom
// vertex shader runs as vs_3_0 at the quad's corners (vkd3d_vs_test.go),
// [srv N]/[sampler N] bind sN, and "probe" lines are checked — external
// expected values for the whole path, frontend to assembly. Tests needing
// anything else (vertex buffers, flat shading, inputs other than the
// position and texcoords, integer uniform types) are skipped and counted.

// sm3KnownDeviations are the probes (file:line) that fail for reasons
// outside this back end; they are reported as known, not as failures.
var sm3KnownDeviations = map[string]string{
	// FXC's refract has a half overload (refract of half4 arguments is a
	// half4); the frontend follows DXC, whose refract returns float4 (the
	// SM6 probe of the same unit passes).
	"refract.shader_test:232": "refract of half is float (DXC), half (FXC)",
	// SM1-3 computes integers in floats: constants beyond 2^24 lose bits
	// there, while the IR passes fold them exactly first.
	"arithmetic-int.shader_test:152":     "integer folding beyond 2^24 (SM1 folds in floats)",
	"arithmetic-int.shader_test:180":     "integer folding beyond 2^24 (SM1 folds in floats)",
	"arithmetic-int.shader_test:194":     "integer folding beyond 2^24 (SM1 folds in floats)",
	"initializer-numeric.shader_test:73": "integer literal folding beyond 2^31",
	"sm1-const-folding.shader_test:25":   "integer literal folding beyond 2^31",
	"sm1-const-folding.shader_test:71":   "integer literal folding beyond 2^31",
	// Frontend semantics that differ between FXC (SM1-5) and DXC (SM6),
	// where the frontend follows DXC.
	"majority-pragma.shader_test:94": "FXC does not macro-expand #pragma pack_matrix",
	"ternary.shader_test:55":         "FXC evaluates both arms of ?: (their side effects)",
	"unroll.shader_test:37":          "[unroll(N)] semantics",
	"side-effects.shader_test:52":    "FXC calls the index expression before the indexed call",
	// fxc reserves 4 registers for float xs[2][2] read at xs[0][1] and
	// xs[1][0] in this vertex shader (its register table says so) and 3
	// in the pixel shader of the same body (:432, which passes); the
	// back end reserves 3 for both, so idx's c4 is not where it reads.
	"sm1-const-allocation.shader_test:477": "fxc's vs_3_0 reservation of a 2D array (4 registers, 3 in ps_3_0)",
	// The emulator is IEEE; SM1-3 hardware gives 0 for 0/0.
	"float-comparison.shader_test:60": "0/0 is 0 on SM1-3 hardware, NaN in IEEE",
}

type vkStats struct {
	shaders, compiled, draws, passed, failed, known int
	textureTests, textureDraws, texturePassed       int // [test] blocks with sampler registers, their draws and passing probes
	customVS                                        int // [test] blocks run with their custom vertex shader (vkd3d_vs_test.go)
	notCompiled, skipped                            map[string]int
	failures                                        []string
}

// TestVKD3DProbesSM3 runs the vkd3d pixel shader probes through the SM3
// back end and the emulator.
func TestVKD3DProbesSM3(t *testing.T) {
	t.Parallel()
	st := &vkStats{notCompiled: map[string]int{}, skipped: map[string]int{}}
	for _, f := range vkd3d.Load(t) {
		runVKFile(f, st)
	}
	summary := func(m map[string]int) string {
		var s []string
		for k, n := range m {
			s = append(s, fmt.Sprintf("%s=%d", k, n))
		}
		sort.Strings(s)
		return strings.Join(s, ", ")
	}
	t.Logf("vkd3d pixel shaders for sm3: %d applicable, %d compiled; %d draws, %d probes passed, %d known deviations, %d failed", st.shaders, st.compiled, st.draws, st.passed, st.known, st.failed)
	t.Logf("with textures: %d [test] blocks, %d draws, %d probes passed", st.textureTests, st.textureDraws, st.texturePassed)
	t.Logf("with a custom vertex shader (vs_3_0 on the emulator): %d [test] blocks", st.customVS)
	t.Logf("not compiled (first words of the error): %s", summary(st.notCompiled))
	t.Logf("tests skipped: %s", summary(st.skipped))
	for _, f := range st.failures {
		t.Error(f)
	}
}

func runVKFile(f *vkd3d.File, st *vkStats) {
	name := f.Name
	req := vkd3d.NoRequire
	var asm string // the current pixel shader's assembly ("" if none)
	var skip string
	customVS, resources := false, false
	var vsAsm, vsSkip string // the custom vertex shader as vs_3_0, or why not
	rt := &vkTarget{}        // the render target persists across [test] blocks, as in vkd3d's runner
	srvs := vkd3d.Resources{}
	samplers := map[int]*vkd3d.Sampler{}
	var mod *ir.Module // the current pixel shader before the pipeline
	for _, s := range f.Sections {
		h := s.Header
		switch {
		case h == "require":
			req = vkd3d.ParseRequire(s.Body)
		case strings.HasPrefix(h, "pixel shader"):
			asm, skip = "", ""
			switch {
			case !req.Has(3):
				skip = "not sm3"
			case vkd3d.ExpectFail(h, 3):
				skip = "expected to fail at sm3"
			case len(req.Features) > 0 || !onlyBackcompat(req.Options) || strings.Contains(h, "-hex"):
				skip = "features"
			default:
				st.shaders++
				m, err := loadSource(fmt.Sprintf("%s:%d", name, s.Line), "hlsl", []byte(s.Source()))
				if err != nil {
					if os.Getenv("SM3_VERBOSE") != "" {
						fmt.Printf("FRONTEND %s:%d: %s\n", name, s.Line, firstLineOf(err.Error()))
					}
					st.notCompiled["frontend"]++
					skip = "not compiled"
					break
				}
				mod, _ = loadSource(fmt.Sprintf("%s:%d", name, s.Line), "hlsl", []byte(s.Source()))
				out, err := compileSM3(m)
				if err != nil {
					st.notCompiled[errKind(err.Error())]++
					skip = "not compiled"
					break
				}
				st.compiled++
				asm = out
			}
		case strings.HasPrefix(h, "vertex shader"):
			customVS = true
			vsAsm, vsSkip = "", ""
			if !req.Has(3) || vkd3d.ExpectFail(h, 3) {
				vsSkip = "vertex shader not for sm3"
				break
			}
			vm, err := loadSource(fmt.Sprintf("%s:%d", name, s.Line), "hlsl", []byte(s.Source()))
			if err != nil {
				vsSkip = "vertex shader: frontend"
				break
			}
			if vsAsm, err = compileSM3(vm); err != nil {
				vsSkip = "vertex shader: not compiled"
			}
		case strings.HasPrefix(h, "compute shader") || strings.HasPrefix(h, "effect"):
			asm, skip = "", "not a pixel shader"
		case strings.HasPrefix(h, "srv "):
			srvs.Declare(h, s.Body)
		case strings.HasPrefix(h, "sampler "):
			sm := vkd3d.ParseSampler(h, s.Body)
			samplers[sm.Slot] = sm
		case strings.HasPrefix(h, "uav") || strings.HasPrefix(h, "sampler") ||
			strings.HasPrefix(h, "texture") || strings.HasPrefix(h, "vb") || strings.HasPrefix(h, "input layout") ||
			h == "dsv" || strings.HasPrefix(h, "rtv"):
			resources = true
		case h == "test":
			switch {
			case !req.Has(3):
				st.skipped["test not for sm3"]++
			case skip != "":
				if skip != "not compiled" && skip != "not a pixel shader" {
					st.skipped[skip]++
				}
			case asm == "":
			case customVS && vsSkip != "":
				st.skipped[vsSkip]++
			case resources:
				st.skipped["resources"]++
			default:
				smp, skip := vkSamplers(mod, asm, srvs, samplers)
				if os.Getenv("SM3_VERBOSE") != "" && (skip != "" || smp != nil) {
					fmt.Printf("TEXTURE %s:%d skip=%q\n", name, s.Line, skip)
				}
				if skip != "" {
					st.skipped[skip]++
					break
				}
				if smp != nil {
					st.textureTests++
				}
				vs := ""
				if customVS {
					vs = vsAsm
					st.customVS++
				}
				runVKTest(name, s, asm, vs, smp, rt, st)
			}
		}
	}
}

// errKind shortens a compile error to its kind for the summary.
func errKind(msg string) string {
	msg = firstLineOf(msg)
	for _, cut := range []string{": `", " (", ";"} {
		if i := strings.Index(msg, cut); i > 0 {
			msg = msg[:i]
		}
	}
	f := strings.Fields(locRE.ReplaceAllString(msg, ""))
	if len(f) > 8 {
		f = f[:8]
	}
	return strings.Join(f, " ")
}

func runVKTest(file string, test *vkd3d.Section, asm, vs string, smp map[string]*interp.SampledTexture, rt *vkTarget, st *vkStats) {
	if vs != "" {
		// The vertex shader runs at each draw (its uniforms are the
		// draw's); one that cannot is a skip of the whole test.
		if _, why := runQuadVS(vs, asm, map[int]float32{}); why != "" {
			st.skipped[why]++
			return
		}
	} else {
		// Without a vertex shader that writes them, texcoord inputs
		// read 0 on shader model 3 (vkd3d's uninitialized-varyings: the
		// one behaviour drivers agree on); other inputs are a skip.
		for _, l := range strings.Split(asm, "\n") {
			if f := strings.Fields(l); len(f) == 2 && strings.HasPrefix(f[0], "dcl_") && strings.HasPrefix(f[1], "v") && !strings.HasPrefix(f[0], "dcl_texcoord") {
				st.skipped["interpolated inputs"]++
				return
			}
		}
	}
	words := map[int]float32{}
	cmds := test.Commands(3)
	for _, c := range cmds {
		l := c.Text
		switch {
		case strings.HasPrefix(l, "uniform "):
			if !setFloatUniform(words, l) {
				st.skipped["uniform type"]++
				return
			}
		case l == "draw quad":
			w := map[int]float32{}
			for k, v := range words {
				w[k] = v
			}
			var varyings *quadVaryings
			if vs != "" {
				var why string
				if varyings, why = runQuadVS(vs, asm, w); why != "" {
					st.skipped[why]++
					return
				}
			}
			rt.draws = append(rt.draws, &vkDraw{asm: asm, words: w, smp: smp, vary: varyings, quads: map[[2]int]*vkQuad{}})
			st.draws++
			if smp != nil {
				st.textureDraws++
			}
		case strings.HasPrefix(l, "probe "):
			p, ok := parseVKProbe(l)
			if !ok || len(rt.draws) == 0 {
				continue
			}
			key := fmt.Sprintf("%s:%d", file, c.Line)
			msg, err := checkVKProbe(p, rt)
			if err != nil {
				st.failed++
				st.failures = append(st.failures, fmt.Sprintf("%s: emulator: %v\n%s", key, err, asm))
				return
			}
			switch {
			case msg == "" && sm3KnownDeviations[key] != "":
				st.failed++
				st.failures = append(st.failures, fmt.Sprintf("%s: %s passes but is listed as a known deviation", key, l))
			case msg == "":
				st.passed++
				if smp != nil {
					st.texturePassed++
				}
			case sm3KnownDeviations[key] != "":
				st.known++
			default:
				st.failed++
				st.failures = append(st.failures, fmt.Sprintf("%s (shader at line %d): %s: %s\n%s", key, test.Line, l, msg, asm))
			}
		case strings.HasPrefix(l, "shade mode") && l != "shade mode linear":
			st.skipped["flat shading"]++ // the provoking vertex's colour: not modelled
			return
		case strings.HasPrefix(l, "clear rtv 0 "):
			var c [4]float32
			f := strings.Fields(strings.TrimPrefix(l, "clear rtv 0 "))
			if len(f) != 4 {
				st.skipped["clear"]++
				return
			}
			for i, v := range f {
				x, err := strconv.ParseFloat(v, 32)
				if err != nil {
					st.skipped["clear"]++
					return
				}
				c[i] = float32(x)
			}
			rt.draws = append(rt.draws, &vkDraw{clear: &c})
		case strings.HasPrefix(l, "draw") || strings.HasPrefix(l, "dispatch") || strings.HasPrefix(l, "clear"):
			st.skipped["draw kind"]++
			return
		}
	}
}

// setFloatUniform applies "uniform OFFSET float[N] VALUES..." (OFFSET in
// 32-bit words); other types are left to the caller to skip.
func setFloatUniform(words map[int]float32, l string) bool {
	f := strings.Fields(l)
	if len(f) < 4 || !strings.HasPrefix(f[2], "float") || strings.Contains(f[2], "x") {
		return false
	}
	off, err := strconv.Atoi(f[1])
	if err != nil {
		return false
	}
	for i, v := range f[3:] {
		x, err := strconv.ParseFloat(v, 32)
		if err != nil {
			return false
		}
		words[off+i] = float32(x)
	}
	return true
}

// drawQuad runs the shader for the 2×2 quad of "draw quad" whose
// top-left pixel is px (the whole viewport is covered, so no lane is a
// helper): c# from the uniform words, vPos at each pixel (D3D9 centres at
// integers). It returns oC0 and the kill flag of each lane.
func drawQuad(asm string, words map[int]float32, px [2]int, smp map[string]*interp.SampledTexture, vary *quadVaryings) ([4][4]float32, [4]bool, error) {
	var lanes [4]map[string][4]float32
	for q := range lanes {
		p := [2]int{px[0] + q&1, px[1] + q>>1}
		lanes[q] = map[string][4]float32{"vPos": {float32(p[0]), float32(p[1])}}
		if vary != nil {
			vary.at(p, lanes[q])
		}
	}
	fregs, iconst, bconst, err := constRegs(asm, words)
	if err != nil {
		return [4][4]float32{}, [4]bool{}, err
	}
	es, err := runQuad(asm, fregs, lanes, iconst, bconst, smp)
	if err != nil {
		return [4][4]float32{}, [4]bool{}, err
	}
	var out [4][4]float32
	var killed [4]bool
	for q, e := range es {
		out[q], killed[q] = *e.freg("oC0"), e.killed
	}
	return out, killed, nil
}

// constRegs fills the constant registers of asm's register table from the
// uniform words as vkd3d's D3D9 runner does: c# from the words at 4·#,
// an integer or bool uniform's i#/b# from its float constant's word.
func constRegs(asm string, words map[int]float32) (map[string][4]float32, map[string]int, map[string]bool, error) {
	fregs := map[string][4]float32{}
	iconst, bconst := map[string]int{}, map[string]bool{}
	rows := tableRows(asm)
	cOf := map[string]int{}
	for _, r := range rows {
		var base int
		fmt.Sscanf(r.reg[1:], "%d", &base)
		if r.reg[0] == 'c' {
			cOf[r.name] = base
			for i := 0; i < r.size; i++ {
				n := base + i
				fregs[fmt.Sprintf("c%d", n)] = [4]float32{words[4*n], words[4*n+1], words[4*n+2], words[4*n+3]}
			}
		}
	}
	for _, r := range rows {
		base, ok := cOf[r.name]
		if r.reg[0] == 'c' || r.reg[0] == 's' {
			continue // sampler registers: vkSamplers
		}
		if !ok {
			return nil, nil, nil, fmt.Errorf("%s is only in %s; the D3D9 runner sets float constants", r.name, r.reg)
		}
		switch r.reg[0] {
		case 'i':
			iconst[r.reg] = int(words[4*base])
		case 'b':
			bconst[r.reg] = words[4*base] != 0
		}
	}
	return fregs, iconst, bconst, nil
}

// vkSamplers binds the shader's sampler registers as vkd3d's D3D9 runner
// does: s# reads the texture of [srv #] with the state of [sampler #]
// (the runner's default, linear filtering and clamp, without one), decoded
// by the interpreter's own code (interp.SampledTexture). It returns nil
// for a shader without sampler registers, and why it cannot run (a
// texture the interpreter lacks).
func vkSamplers(m *ir.Module, asm string, srvs vkd3d.Resources, samplers map[int]*vkd3d.Sampler) (map[string]*interp.SampledTexture, string) {
	var out map[string]*interp.SampledTexture
	for _, row := range tableRows(asm) {
		if row.reg[0] != 's' {
			continue
		}
		var n int
		fmt.Sscanf(row.reg[1:], "%d", &n)
		tn, sn, ok := strings.Cut(row.name, "+")
		if !ok {
			sn, tn = tn, tn+".texture"
		}
		tg, sg := m.Global(tn), m.Global(sn)
		if tg == nil || sg == nil {
			return nil, "sampler register names no texture"
		}
		r := srvs[[2]int{0, n}]
		if r == nil {
			return nil, "unbound texture"
		}
		ti, skip := r.TextureInput(tn)
		if skip != "" {
			return nil, skip
		}
		var si *interp.SamplerInput
		if s := samplers[n]; s != nil {
			x := s.SamplerInput(sn)
			si = &x
		}
		st, err := interp.NewSampledTexture(&ti, tg, si, sg)
		if err != nil {
			return nil, "texture input: " + err.Error()
		}
		if out == nil {
			out = map[string]*interp.SampledTexture{}
		}
		out[row.reg] = st
	}
	return out, ""
}

// parseVKProbe parses a render-target probe of a float format (rgba, r,
// rg, rgb): the formats the D3D9 runner's target has.
func parseVKProbe(l string) (vkd3d.Probe, bool) {
	p, ok := vkd3d.ParseProbe(l)
	switch p.Kind {
	case "rgba", "r", "rg", "rgb", "f32": // f32(...): the float target's components
		return p, ok && len(p.Vals) <= 4
	}
	return p, false
}

// checkVKProbe compares the probe with the render target: exact unless
// the probe gives an ULP tolerance, plus 4 ULP for SM3's rcp-based
// division.
func checkVKProbe(p vkd3d.Probe, rt *vkTarget) (string, error) {
	for _, px := range p.Pixels() {
		got, err := rt.pixel(px)
		if err != nil {
			return "", err
		}
		for i, want := range p.Vals {
			w32 := float32(math.Abs(want))
			ulp := float64(math.Nextafter32(w32, float32(math.Inf(1))) - w32)
			if math.Abs(float64(got[i])-want) > (p.ULPs+4)*ulp {
				return fmt.Sprintf("pixel (%d,%d) component %d is %v, want %v", px[0], px[1], i, got[i], want), nil
			}
		}
	}
	return "", nil
}

// vkTarget is the render target of a vkd3d test file: the draws so far,
// shaded lazily, quad by quad, where a probe looks.
type vkTarget struct{ draws []*vkDraw }

// vkDraw is one "draw quad": the pixel shader, its uniforms, samplers and
// interpolated inputs, and the quads shaded so far; or a clear.
type vkDraw struct {
	clear *[4]float32 // "clear rtv 0 r g b a": every pixel this colour
	asm   string
	words map[int]float32
	smp   map[string]*interp.SampledTexture
	vary  *quadVaryings
	quads map[[2]int]*vkQuad
}

type vkQuad struct {
	out    [4][4]float32
	killed [4]bool
}

// pixel is the target's colour at px: that of the last draw that did not
// discard the pixel (zero, the cleared target, if none).
func (rt *vkTarget) pixel(px [2]int) ([4]float32, error) {
	quad := [2]int{px[0] &^ 1, px[1] &^ 1}
	lane := px[0]&1 | (px[1]&1)<<1
	for i := len(rt.draws) - 1; i >= 0; i-- {
		d := rt.draws[i]
		if d.clear != nil {
			return *d.clear, nil
		}
		q := d.quads[quad]
		if q == nil {
			out, killed, err := drawQuad(d.asm, d.words, quad, d.smp, d.vary)
			if err != nil {
				return [4]float32{}, err
			}
			q = &vkQuad{out, killed}
			d.quads[quad] = q
		}
		if !q.killed[lane] {
			return q.out[lane], nil
		}
	}
	return [4]float32{}, nil
}

// onlyBackcompat reports [require] options the SM3 runner can meet: none,
// or "backcompat" (FXC's backwards-compatibility flag, which lets shader
// model 4+ compile SM1 syntax; shader model 3 has it anyway).
func onlyBackcompat(opts []string) bool {
	for _, o := range opts {
		if o != "backcompat" {
			return false
		}
	}
	return true
}
