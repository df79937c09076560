package spirv

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/ir"
	"passlens/compiler/target/spirv/vkrun"
	"passlens/internal/vkd3d"
)

// The vkd3d pixel shader tests run as vkd3d's shader runner runs them,
// with the expected values as the truth: "uniform" lines fill constant
// buffer 0 (word offsets in D3D's packing), "draw quad" draws a 640x480
// target with passlens's fragment shader, "probe" compares pixels (exact,
// or within the given ULPs). Only tests the draw can feed run: pixel
// shaders with SV_Position and nothing else as input, a float
// SV_Target0, at most one constant buffer (bound to b0 or $Globals), and
// [test] sections of only uniform/draw quad/probe lines. RWTexture2D
// globals bind the [uav N] 2d section of their register as storage images
// (lavapipe_probe_uav_test.go): written back after each draw, checked by
// "probe uav" lines; Texture2D/3D/Cube and sampler states read their
// [srv N] and [sampler N] sections (lavapipe_probe_srv_test.go).

const probeW, probeH = 640, 480

// probeKnown are the probes (file:line) that fail for reasons outside
// the back end, with the reason.
var probeKnown = map[string]string{
	// Integer division by zero: DXC folds the undefined constant
	// division to 0 (the expected value); the IR, and so the back end,
	// follow D3D's run-time rule (all ones), as compiler/hlsl's probe test
	// notes.
	// Minimum precision in constant buffers: at SM6 vkd3d gives these
	// min16float uniforms as 16-bit data (a D3D12 driver's choice, marked
	// todo(sm>=6)); passlens computes and stores min precision at 32 bits.
	"arithmetic-float-uniform.shader_test:283": "min precision uniforms stored as 16-bit",
	"arithmetic-float-uniform.shader_test:304": "min precision uniforms stored as 16-bit",
	"arithmetic-float-uniform.shader_test:331": "min precision uniforms stored as 16-bit",
	"arithmetic-float-uniform.shader_test:353": "min precision uniforms stored as 16-bit",
	// (uint)(half)-3.6: D3D (and the IR) saturate a negative float to 0;
	// SPIR-V's OpConvertFToU of it is undefined (lavapipe gives 2^32-1).
	"cast-to-uint.shader_test:29":    "undefined float-to-uint conversion",
	"cast-to-uint.shader_test:50":    "undefined float-to-uint conversion",
	"arithmetic-int.shader_test:90":  "undefined division",
	"arithmetic-int.shader_test:104": "undefined division",
	"arithmetic-int.shader_test:124": "undefined division",
	"arithmetic-uint.shader_test:41": "undefined division",
	"arithmetic-uint.shader_test:54": "undefined division",
	// As in compiler/hlsl's probe test (frontend and DXC behaviour).
	"duplicate-modifiers.shader_test:12": "DXC matrix-to-vector order",
	"inverse-trig.shader_test:196":       "signed zero in atan2",
	"unroll.shader_test:37":              "unroll(N) semantics",
	"rt-get-sample-info.shader_test:17":  "multisampling",
	"rt-get-sample-info.shader_test:38":  "multisampling",
	"rt-get-sample-info.shader_test:41":  "multisampling",
	// "options: column-major row-major": the unit is compiled row-major
	// only.
	"majority-pragma.shader_test:370": "majority options",
	// The runner clears the target before every draw; vkd3d keeps the
	// previous draw's pixels where the shader discards.
	"clip.shader_test:19": "target cleared between draws",
	"clip.shader_test:25": "target cleared between draws",
	"clip.shader_test:28": "target cleared between draws",
	// Constant buffer layout: without packoffset the back end lays a
	// cbuffer out with DXC's Vulkan default (relaxed std140: arrays and
	// structs end on a 16-byte boundary); vkd3d's data use D3D's packing
	// (c after float b[2] at 36, not 48). packoffset offsets are kept.
	"cbuffer.shader_test:175": "cbuffer layout",
	"cbuffer.shader_test:201": "cbuffer layout",
}

// probeComps is the number of components a float probe kind checks.
var probeComps = map[string]int{"r": 1, "rg": 2, "rgb": 3, "rgba": 4}

// closeULP compares as vkd3d's shader runner does: equal, or both NaN,
// or at most ulps apart as ordered integers (-0 equals 0).
func closeULP(got float32, want float64, ulps int) bool {
	w := float32(want)
	if got == w || got != got && w != w {
		return true
	}
	a, b := int64(int32(math.Float32bits(got))), int64(int32(math.Float32bits(w)))
	if (a < 0) != (b < 0) {
		return false
	}
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= int64(ulps)
}

// TestLavapipeVKD3DProbes runs the vkd3d pixel shader probes on lavapipe.
// By default the shaders of every 4th file run; SPIRV_PROBES=all runs
// every file.
func TestLavapipeVKD3DProbes(t *testing.T) {
	t.Parallel()
	needDevice(t)
	files := vkd3d.Load(t)
	every := 4
	if os.Getenv("SPIRV_PROBES") == "all" {
		every = 1
	}
	vs := vertexShader(t, pixelPlan{})
	skipped := map[string]int{}
	var draws, passed, known, failed, uavProbes int
	// Files are independent: several run at once (the draws wait on
	// runner processes, so more workers than cores pay off). mu guards
	// the counters.
	var mu sync.Mutex
	count := func(n *int) { mu.Lock(); *n++; mu.Unlock() }
	skip := func(why string) { mu.Lock(); skipped[why]++; mu.Unlock() }
	work := make(chan *vkd3d.File)
	var wg sync.WaitGroup
	for w := 0; w < 2*runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				probeFile(t, f, vs, count, skip, &draws, &passed, &known, &failed, &uavProbes)
			}
		}()
	}
	for fi, f := range files {
		if fi%every == 0 {
			work <- f
		}
	}
	close(work)
	wg.Wait()
	var why []string
	for k, n := range skipped {
		why = append(why, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(why)
	t.Logf("vkd3d probes on lavapipe (every %d. file): %d draws, %d probes pass, %d known, %d fail (%d UAV probes checked); skipped: %s",
		every, draws, passed, known, failed, uavProbes, strings.Join(why, ", "))
	if draws == 0 {
		t.Error("no draw ran")
	}
}

// probeFile draws the pixel shaders of one vkd3d file and checks their
// probes, counting through count and skip.
func probeFile(t *testing.T, f *vkd3d.File, vs []uint32, count func(*int), skip func(string), draws, passed, known, failed, uavProbes *int) {
	units := map[int]*vkd3d.Unit{}
	for _, u := range f.Units() {
		units[u.Line] = u
	}
	var cur *ir.Module
	var curUnit *vkd3d.Unit
	var sm float64
	resources := vkd3d.Resources{} // [uav N] and [srv N] sections, contents kept across draws
	samplers := map[int]*vkd3d.Sampler{}
	inRange := true // the latest [require] admits sm
	for _, s := range f.Sections {
		if s.Header == "require" {
			inRange = vkd3d.ParseRequire(s.Body).Has(sm)
			continue
		}
		if strings.HasPrefix(s.Header, "uav ") || strings.HasPrefix(s.Header, "srv ") {
			resources.Declare(s.Header, s.Body)
			continue
		}
		if strings.HasPrefix(s.Header, "sampler ") {
			sm := vkd3d.ParseSampler(s.Header, s.Body)
			samplers[sm.Slot] = sm
			continue
		}
		if u := units[s.Line+1]; u != nil {
			cur, curUnit, inRange = nil, nil, true
			if u.Stage != "pixel" {
				continue
			}
			var ok bool
			if sm, ok = u.SM6(); !ok || u.ExpectFail(sm) || u.OutsideSubset() != "" {
				continue
			}
			m, why := compilePixelUnit(u)
			if why != "" {
				skip(why)
				continue
			}
			cur, curUnit = m, u
			continue
		}
		if s.Header != "test" || cur == nil || !inRange {
			continue
		}
		words := map[int]uint32{}
		var pix []vkrun.Pixels
		func() {
			for _, c := range s.Commands(sm) {
				key := fmt.Sprintf("%s:%d", f.Name, c.Line)
				switch {
				case strings.HasPrefix(c.Text, "uniform "):
					if !vkd3d.SetUniform(words, c.Text) {
						skip("uniform type")
						return
					}
				case c.Text == "draw quad":
					uavs, why := bindUAVs(cur, resources)
					if why != "" {
						skip(why)
						return
					}
					srvs, why := bindSRVs(cur, resources, samplers)
					if why != "" {
						skip(why)
						return
					}
					var err error
					if pix, err = drawProbe(cur, vs, words, uavs, srvs); err != nil {
						t.Errorf("%s: %v", curUnit.Label(), err)
						return
					}
					count(draws)
				case strings.HasPrefix(c.Text, "probe uav "):
					if pix == nil {
						continue
					}
					msg, why := resources.ProbeUAV(c.Text)
					if why != "" {
						skip("probe uav: " + why)
						continue
					}
					checkProbe(t, key, curUnit, msg, count, passed, known, failed)
					count(uavProbes)
				case strings.HasPrefix(c.Text, "probe "):
					p, ok := vkd3d.ParseProbe(c.Text)
					n := probeComps[p.Kind]
					if !ok || n == 0 {
						skip("probe kind")
						continue
					}
					if pix == nil {
						continue
					}
					diff := ""
					for _, xy := range p.Pixels() {
						for k := 0; k < n && k < len(p.Vals); k++ {
							got := math.Float32frombits(pix[0][(xy[1]*probeW+xy[0])*4+k])
							if !closeULP(got, p.Vals[k], int(p.ULPs)) && diff == "" {
								diff = fmt.Sprintf("pixel (%d, %d) component %d: device %g, expected %g", xy[0], xy[1], k, got, p.Vals[k])
							}
						}
					}
					checkProbe(t, key, curUnit, diff, count, passed, known, failed)
				default:
					skip("command " + strings.Fields(c.Text)[0])
					return
				}
			}
		}()
	}
}

// compilePixelUnit compiles a vkd3d pixel shader through the spirv
// pipeline, or says why the probe test cannot draw it.
func compilePixelUnit(u *vkd3d.Unit) (*ir.Module, string) {
	opts := hlsl.Options{Entry: "main", Stage: hlsl.StagePixel}
	for _, o := range u.Options {
		if o == "row-major" {
			opts.RowMajor = true
		}
	}
	opts.Enable16BitTypes = u.Native16Bit() // dxc -enable-16bit-types, as vkd3d compiles native-16-bit units
	prog, diags := hlsl.Frontend(u.File, []byte(u.Src), opts)
	if diags.HasErrors() {
		return nil, "frontend rejects"
	}
	m, ld := lower.Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		return nil, "not lowered"
	}
	if err := runSpirvPipeline(m); err != nil {
		return nil, "pipeline fails"
	}
	p := planPixelWith(m, isProbeResource)
	switch {
	case p.skip != "":
		return nil, p.skip
	case len(p.varyings) > 0:
		return nil, "varyings"
	case p.targets[0] != vkrun.Float:
		return nil, "integer target"
	}
	n := 0
	for _, g := range m.Globals {
		if g.Space == ir.SpaceInput && !strings.EqualFold(g.Semantic, "SV_Position") {
			return nil, "input " + g.Semantic
		}
		if g.Space == ir.SpaceUniform {
			n++
			if g.Binding > 0 {
				return nil, "constant buffer not at b0"
			}
		}
	}
	if n > 1 {
		return nil, "several constant buffers"
	}
	return m, ""
}

// drawProbe draws m over the probe target with the constant buffer words.
func drawProbe(m *ir.Module, vs []uint32, words map[int]uint32, uavs []boundUAV, srvs []vkrun.Buffer) ([]vkrun.Pixels, error) {
	w, err := Assemble(m, Options{})
	if err != nil {
		return nil, err
	}
	p := planPixelWith(m, isProbeResource)
	job := vkrun.Job{SPIRV: w, Entry: p.entry.Name(), Draw: &vkrun.Draw{Vertex: vs, VertexEntry: "main",
		Width: probeW, Height: probeH, Targets: p.targets}}
	for _, b := range Bindings(m) {
		if !b.Uniform {
			continue
		}
		l, err := typeLayout(b.Global.ValType, ruleStd140)
		if err != nil {
			return nil, err
		}
		size := l.Size
		for k := range words {
			size = max(size, 4*k+4)
		}
		data := make([]byte, (size+15)&^15)
		for k, v := range words {
			binary.LittleEndian.PutUint32(data[4*k:], v)
		}
		job.Buffers = append(job.Buffers, vkrun.Buffer{Set: b.Set, Binding: b.Binding, ArrayElement: b.ArrayIndex, Uniform: true, Data: data})
	}
	job.Buffers = append(job.Buffers, srvs...)
	first := len(job.Buffers)
	for _, u := range uavs {
		job.Buffers = append(job.Buffers, u.buffer())
	}
	out, pix, err := vkrun.RunDraw(job)
	if err != nil {
		return nil, err
	}
	for k, u := range uavs {
		u.writeBack(out[first+k])
	}
	return pix, nil
}

// checkProbe counts a probe's result: diff is "" when it passes.
func checkProbe(t *testing.T, key string, u *vkd3d.Unit, diff string, count func(*int), passed, known, failed *int) {
	why, isKnown := probeKnown[key]
	switch {
	case diff == "":
		count(passed)
		if isKnown {
			t.Errorf("%s: listed as known (%s) but passes", key, why)
		}
	case isKnown:
		count(known)
	default:
		count(failed)
		t.Errorf("%s (shader %s): %s", key, u.Key(), diff)
	}
}
