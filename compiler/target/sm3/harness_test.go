package sm3

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
)

// This file is the differential harness: a module runs on compiler/interp
// (the reference) and, after the default sm3 pipeline and this back end, on
// the SM3 emulator (emu_test.go), with the same random uniforms and stage
// inputs; the outputs must agree.

// loadSource runs a frontend on src (HLSL or .pir by kind).
func loadSource(name, kind string, src []byte) (*ir.Module, error) {
	return load.Module(&load.Source{Name: name, Path: name, Kind: kind, Text: src}, load.Options{SM1Textures: true})
}

// compileSM3 runs the default sm3 pipeline on m (in place) and emits SM3.
func compileSM3(m *ir.Module) (string, error) {
	spec, err := pipeline.Default("sm3")
	if err != nil {
		return "", err
	}
	res := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: "sm3", VerifyEach: true})
	if res.Err != nil {
		msg := res.Err.Error()
		if res.Err.Err != nil {
			msg = res.Err.Err.Error()
		}
		return "", fmt.Errorf("%s", msg)
	}
	out, err := target.Emit("sm3", m)
	if err != nil {
		return "", err
	}
	return out.Text, nil
}

// valueGen makes random values for uniforms and inputs: floats are small
// multiples of 1/4 (exact in float32, so both sides compute the same bits
// where the operations are exact), integers small and non-negative (they
// also serve as loop counts), bools either way.
type valueGen struct{ r *rand.Rand }

func (g valueGen) scalar(k ir.Kind) (any, float32) {
	switch k {
	case ir.KBool:
		b := g.r.IntN(2) == 1
		return b, b2f(b)
	case ir.KInt, ir.KUint:
		n := g.r.IntN(6)
		return n, float32(n)
	}
	f := float32(g.r.IntN(33)-16) / 4
	return f, f
}

// value returns the interpreter value of type t and its constant-register
// slots as SIR lays them out (lower_const.go's rules, restated here).
func (g valueGen) value(t *ir.Type) (any, [][4]float32) {
	switch t.Kind {
	case ir.KVector:
		vals := make([]any, t.Len)
		var slot [4]float32
		for i := range vals {
			vals[i], slot[i] = g.scalar(t.Elem.Kind)
		}
		return vals, [][4]float32{slot}
	case ir.KMatrix:
		rows := make([]any, t.Len)
		var slots [][4]float32
		for i := range rows {
			v, s := g.value(ir.Vec(t.Elem, t.Cols))
			rows[i], slots = v, append(slots, s...)
		}
		return rows, slots
	case ir.KArray:
		elems := make([]any, t.Len)
		var slots [][4]float32
		for i := range elems {
			v, s := g.value(t.Elem)
			elems[i], slots = v, append(slots, s...)
		}
		return elems, slots
	case ir.KStruct:
		fields := map[string]any{}
		var slots [][4]float32
		for _, f := range t.Fields {
			v, s := g.value(f.Type)
			fields[f.Name], slots = v, append(slots, s...)
		}
		return fields, slots
	}
	v, f := g.scalar(t.Kind)
	return v, [][4]float32{{f}}
}

// diffCase is one run: the interpreter's verdict and the emulator's.
type diffCase struct {
	interpIn *interp.Input
	fregs    map[string][4]float32 // emulator registers
	iconst   map[string]int
	bconst   map[string]bool
	killed   bool // set by runDiff: the emulator discarded a covered pixel
	// Pixel shaders run in a 2×2 quad (emu_quad_test.go): lane q shades
	// pixel pixels[q] with its own registers lanes[q] (vPos, v#); only
	// covered lanes are compared, the others are helpers.
	lanes   [4]map[string][4]float32
	pixels  [4][2]int
	covered [4]bool
	tol     float64 // relative tolerance (0: 1e-4)
	// samplers binds the emulator's s# registers (bindTextures).
	samplers map[string]*interp.SampledTexture
}

// prepare makes random inputs for module m (before the pipeline) and binds
// them to the registers the assembly's header and dcl lines name. A pixel
// shader shades one pixel of a 2×2 quad, the other three helpers with the
// same inputs (so derivatives of inputs are zero).
func prepare(m *ir.Module, asm string, r *rand.Rand) (*diffCase, error) {
	return prepareQuad(m, asm, r, false)
}

// prepareQuad is prepare; with perLane a pixel shader's quad has its own
// inputs in every lane, and one to four of its pixels are covered (the
// others are helpers, whose inputs are zero as in the interpreter's
// per_lane input).
func prepareQuad(m *ir.Module, asm string, r *rand.Rand, perLane bool) (*diffCase, error) {
	g := valueGen{r}
	eps := m.EntryPoints()
	if len(eps) != 1 {
		return nil, fmt.Errorf("want one entry point")
	}
	stage := eps[0].Entry.Stage
	c := &diffCase{interpIn: &interp.Input{Uniforms: map[string]any{}}, fregs: map[string][4]float32{}, iconst: map[string]int{}, bconst: map[string]bool{}}
	// Uniform variables by the name the register table uses.
	vars := map[string][][4]float32{}
	for _, gl := range m.Globals {
		if gl.Space != ir.SpaceUniform {
			continue
		}
		if gl.ValType.Kind == ir.KStruct {
			for _, f := range gl.ValType.Fields {
				v, s := g.value(f.Type)
				c.interpIn.Uniforms[f.Name] = v
				vars[f.Name] = s
			}
			continue
		}
		v, s := g.value(gl.ValType)
		c.interpIn.Uniforms[gl.Name()] = v
		vars[gl.Name()] = s
	}
	for _, row := range tableRows(asm) {
		if row.reg[0] == 's' {
			continue // sampler registers: bindTextures
		}
		s, ok := vars[row.name]
		if !ok {
			return nil, fmt.Errorf("register table names %q, which is no uniform", row.name)
		}
		if row.size < 1 || row.size > len(s) {
			return nil, fmt.Errorf("register table gives %s %d registers, its type has %d", row.name, row.size, len(s))
		}
		s = s[:row.size] // only the used size is allocated
		var base int
		fmt.Sscanf(row.reg[1:], "%d", &base)
		switch row.reg[0] {
		case 'c':
			for i, v := range s {
				c.fregs[fmt.Sprintf("c%d", base+i)] = v
			}
		case 'i':
			c.iconst[row.reg] = int(s[0][0])
		case 'b':
			c.bconst[row.reg] = s[0][0] != 0
		}
	}
	// Stage inputs through the dcl lines.
	regOf := map[string]string{} // semantic key -> v#
	for _, l := range strings.Split(asm, "\n") {
		f := strings.Fields(l)
		if len(f) == 2 && strings.HasPrefix(f[0], "dcl_") && strings.HasPrefix(f[1], "v") {
			regOf[strings.TrimPrefix(f[0], "dcl_")] = f[1]
		}
	}
	vertex := map[string]any{}
	if stage == ir.StagePixel {
		// A quad at even coordinates; lane q is pixel x&1 | (y&1)<<1.
		qx, qy := 2*r.IntN(4), 2*r.IntN(4)
		for q := range c.lanes {
			c.pixels[q] = [2]int{qx + q&1, qy + q>>1}
			c.lanes[q] = map[string][4]float32{"vPos": {float32(c.pixels[q][0]), float32(c.pixels[q][1])}} // D3D9: centres at integers
		}
		if perLane {
			for q := range c.covered {
				c.covered[q] = r.IntN(5) > 0
			}
			c.covered[r.IntN(4)] = true
		} else {
			c.covered[r.IntN(4)] = true
		}
		for q, cov := range c.covered {
			if cov {
				c.interpIn.Pixels = append(c.interpIn.Pixels, c.pixels[q])
			}
		}
	}
	for _, gl := range m.Globals {
		if gl.Space != ir.SpaceInput {
			continue
		}
		usage, index := splitSemantic(gl.Semantic)
		if stage == ir.StagePixel && usage == "position" {
			continue // vPos
		}
		reg, bound := regOf[usage+index]
		if stage == ir.StageVertex {
			v, s := g.value(gl.ValType)
			if bound {
				c.fregs[reg] = s[0]
			}
			vertex[gl.Semantic] = v
			continue
		}
		if c.interpIn.Inputs == nil {
			c.interpIn.Inputs = map[string]interp.LaneInput{}
		}
		if !perLane {
			v, s := g.value(gl.ValType)
			if bound {
				c.fregs[reg] = s[0]
			}
			c.interpIn.Inputs[gl.Semantic] = interp.LaneInput{Value: v}
			continue
		}
		// One value per covered pixel, in the order of Pixels; helpers
		// read zero.
		var per []any
		for q, cov := range c.covered {
			if !cov {
				continue
			}
			v, s := g.value(gl.ValType)
			per = append(per, v)
			if bound {
				c.lanes[q][reg] = s[0]
			}
		}
		c.interpIn.Inputs[gl.Semantic] = interp.LaneInput{PerLane: per}
	}
	if stage == ir.StageVertex {
		c.interpIn.Vertices = []map[string]any{vertex}
	}
	return c, nil
}

type tableRow struct {
	name, reg string
	size      int
}

// tableRows reads the register table of the header comment.
func tableRows(asm string) []tableRow {
	var rows []tableRow
	for _, l := range strings.Split(asm, "\n") {
		if !strings.HasPrefix(l, "//") {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(l, "//"))
		if len(f) != 3 || f[0] == "Name" || strings.HasPrefix(f[0], "-") {
			continue
		}
		var n int
		if _, err := fmt.Sscanf(f[2], "%d", &n); err != nil {
			continue
		}
		rows = append(rows, tableRow{f[0], f[1], n})
	}
	return rows
}

// outputsOf reads the emulator's outputs by semantic: oC#/oDepth for pixel
// shaders, o# through their dcl lines for vertex shaders.
func outputsOf(e *emulator, asm string) map[string][4]float32 {
	out := map[string][4]float32{}
	for name, r := range e.f {
		if strings.HasPrefix(name, "oC") {
			out["target"+name[2:]] = *r
		}
	}
	for _, l := range strings.Split(asm, "\n") {
		f := strings.Fields(l)
		if len(f) == 2 && strings.HasPrefix(f[0], "dcl_") && strings.HasPrefix(f[1], "o") {
			out[strings.TrimPrefix(f[0], "dcl_")] = *e.freg(f[1])
		}
	}
	return out
}

// semKey is the key outputsOf uses for an output semantic.
func semKey(stage ir.Stage, sem string) string {
	usage, index := splitSemantic(sem)
	if stage == ir.StagePixel && (usage == "target" || usage == "color") {
		if index == "" {
			index = "0"
		}
		return "target" + index
	}
	return usage + index
}

// closeTo reports whether two floats agree to within rounding: tol
// relative to max(1, |b|).
func closeTo(a, b float32, tol float64) bool {
	if a == b || math.IsNaN(float64(a)) && math.IsNaN(float64(b)) {
		return true
	}
	if tol == 0 {
		tol = 1e-4
	}
	d := math.Abs(float64(a) - float64(b))
	return d <= tol*math.Max(1, math.Abs(float64(b)))
}

// runDiff runs one case on both sides; ref is the module the interpreter
// runs (not put through the pipeline). It returns "" when they agree.
func runDiff(ref *ir.Module, asm string, c *diffCase) (string, error) {
	stage := ref.EntryPoints()[0].Entry.Stage
	res, err := interp.Run(ref, c.interpIn, interp.Options{WaveSize: 4})
	if err != nil {
		return "", fmt.Errorf("interp: %w", err)
	}
	var diffs []string
	if stage == ir.StagePixel {
		es, err := runQuad(asm, c.fregs, c.lanes, c.iconst, c.bconst, c.samplers)
		if err != nil {
			return "", fmt.Errorf("emulator: %w", err)
		}
		c.killed = false
		for q, e := range es {
			if !c.covered[q] {
				continue
			}
			c.killed = c.killed || e.killed
			got := outputsOf(e, asm)
			px := c.pixels[q]
			for _, tg := range res.Targets {
				wantKilled := !tg.Written[px[1]*tg.Width+px[0]]
				if wantKilled != e.killed {
					return fmt.Sprintf("pixel %v killed: emulator %v, interp %v", px, e.killed, wantKilled), nil
				}
				if wantKilled {
					continue
				}
				cells := tg.Pixel(px[0], px[1])
				g := got[semKey(stage, tg.Semantic)]
				for i, cell := range cells {
					w := cellFloat(tg.Elem, cell)
					if !closeTo(g[i], w, c.tol) {
						diffs = append(diffs, fmt.Sprintf("pixel %v %s[%d]: emulator %v, interp %v", px, tg.Semantic, i, g[i], w))
					}
				}
			}
		}
	} else {
		e, err := runSM3Tex(asm, c.fregs, c.iconst, c.bconst, c.samplers)
		if err != nil {
			return "", fmt.Errorf("emulator: %w", err)
		}
		c.killed = e.killed
		got := outputsOf(e, asm)
		for _, lane := range res.Lanes {
			for _, o := range lane.Outputs {
				g := got[semKey(stage, o.Semantic)]
				for i, cell := range o.Cells {
					w := cellFloat(o.Type, cell)
					if i < 4 && !closeTo(g[i], w, c.tol) {
						diffs = append(diffs, fmt.Sprintf("%s[%d]: emulator %v, interp %v", o.Semantic, i, g[i], w))
					}
				}
			}
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; "), nil
}

// cellFloat reads an interpreter cell of (scalar kind of) t as SM3 sees it.
func cellFloat(t *ir.Type, cell uint64) float32 {
	switch t.Scalar().Kind {
	case ir.KInt:
		return float32(int32(uint32(cell)))
	case ir.KUint:
		return float32(uint32(cell))
	case ir.KBool:
		return b2f(cell&1 != 0)
	}
	return math.Float32frombits(uint32(cell))
}

// bindTextures gives the interpreter the textures and sampler states (by
// the names of their globals in m) and binds the same data to the
// emulator's sampler registers through the register table's
// "texture+sampler sN" rows (an SM1 sampler's row has one name, both).
func bindTextures(c *diffCase, m *ir.Module, asm string, textures []interp.TextureInput, samplers []interp.SamplerInput) error {
	c.interpIn.Textures, c.interpIn.Samplers = textures, samplers
	c.samplers = map[string]*interp.SampledTexture{}
	for _, row := range tableRows(asm) {
		if row.reg[0] != 's' {
			continue
		}
		tn, sn, ok := strings.Cut(row.name, "+")
		if !ok { // an SM1 sampler: its texture global is <s>.texture
			sn, tn = tn, tn+".texture"
		}
		tg, sg := m.Global(tn), m.Global(sn)
		if tg == nil || sg == nil {
			return fmt.Errorf("register table row %s %s names no texture and sampler of the module", row.name, row.reg)
		}
		var ti *interp.TextureInput
		for i := range textures {
			if textures[i].Name == tn {
				ti = &textures[i]
			}
		}
		var si *interp.SamplerInput
		for i := range samplers {
			if samplers[i].Name == sn {
				si = &samplers[i]
			}
		}
		st, err := interp.NewSampledTexture(ti, tg, si, sg)
		if err != nil {
			return err
		}
		c.samplers[row.reg] = st
	}
	return nil
}
