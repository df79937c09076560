package sm3

// vkd3d tests with a custom vertex shader: "draw quad" draws the
// full-viewport quad (positions (±1, ±1, 0, 1) into the vertex shader's
// position input, as vkd3d's runners feed it); the vertex shader, compiled
// as vs_3_0 by this back end, runs on the emulator at the four corners,
// and its outputs are interpolated to each pixel for the pixel shader's
// v# inputs. The quad's two triangles are interpolated alike only when
// each output is an affine function of the position (true of every
// vertex shader the applicable tests use: tex = pos.x and the like), so a
// shader whose outputs are not is skipped, as are vertex shaders with
// samplers or inputs other than the position, and a position that is not
// passed through. Uniforms fill the vertex shader's constants from the
// same words as the pixel shader's, as vkd3d's D3D9 runner sets both. D3D9 puts pixel centres at integer coordinates: pixel
// (x, y) of the 640×480 target is at NDC (2x/640 - 1, 1 - 2y/480).

import (
	"fmt"
	"math"
	"strings"
)

// vkd3d's render target size.
const vkWidth, vkHeight = 640, 480

// quadVaryings are the pixel shader's interpolated inputs: for each v#
// register, its value at NDC (-1, -1) and its steps from there to x = +1
// and to y = +1.
type quadVaryings struct {
	regs map[string][3][4]float64
}

// at sets the v# registers of pixel p.
func (v *quadVaryings) at(p [2]int, regs map[string][4]float32) {
	x := (2*float64(p[0])/vkWidth - 1 + 1) / 2
	y := (1 - 2*float64(p[1])/vkHeight + 1) / 2
	for r, f := range v.regs {
		var out [4]float32
		for k := range out {
			out[k] = float32(f[0][k] + x*f[1][k] + y*f[2][k])
		}
		regs[r] = out
	}
}

// semKeyOf normalizes a dcl usage ("texcoord" and "texcoord0" are one).
func semKeyOf(usage string) string {
	if usage == "" || usage[len(usage)-1] < '0' || usage[len(usage)-1] > '9' {
		return usage + "0"
	}
	return usage
}

// dclRegs maps the normalized usage of each "dcl_<usage> <prefix>#" line
// of asm to its register.
func dclRegs(asm, prefix string) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(asm, "\n") {
		f := strings.Fields(l)
		if len(f) == 2 && strings.HasPrefix(f[0], "dcl_") && strings.HasPrefix(f[1], prefix) && !strings.HasPrefix(f[1], "vPos") {
			out[semKeyOf(strings.TrimPrefix(f[0], "dcl_"))] = strings.SplitN(f[1], ".", 2)[0]
		}
	}
	return out
}

// runQuadVS runs vertex shader vs at the quad's corners, its constants
// from the uniform words as the D3D9 runner sets them (the same words as
// the pixel shader's), and returns the pixel shader ps's interpolated
// inputs, or why the test cannot run.
func runQuadVS(vs, ps string, words map[int]float32) (*quadVaryings, string) {
	for _, r := range tableRows(vs) {
		if r.reg[0] == 's' {
			return nil, "vertex shader with samplers"
		}
	}
	fregs, iconst, bconst, err := constRegs(vs, words)
	if err != nil {
		return nil, "vertex shader constants: " + err.Error()
	}
	ins := dclRegs(vs, "v")
	pos, ok := ins["position0"]
	if !ok || len(ins) != 1 {
		return nil, "vertex shader inputs other than the position"
	}
	corners := [4][2]float32{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}
	var outs [4]map[string][4]float32
	outRegs := dclRegs(vs, "o")
	for i, c := range corners {
		p := [4]float32{c[0], c[1], 0, 1}
		regs := map[string][4]float32{pos: p}
		for k, v := range fregs {
			regs[k] = v
		}
		e, err := runSM3(vs, regs, iconst, bconst)
		if err != nil {
			return nil, fmt.Sprintf("vertex shader: emulator: %v", err)
		}
		outs[i] = map[string][4]float32{}
		for sem, r := range outRegs {
			outs[i][sem] = *e.freg(r)
		}
		if outs[i]["position0"] != p {
			return nil, "vertex shader moves the quad"
		}
	}
	v := &quadVaryings{regs: map[string][3][4]float64{}}
	for sem, r := range dclRegs(ps, "v") {
		if _, ok := outs[0][sem]; !ok {
			return nil, "pixel input the vertex shader does not write"
		}
		var f [3][4]float64
		for k := 0; k < 4; k++ {
			a, b, c, d := float64(outs[0][sem][k]), float64(outs[1][sem][k]), float64(outs[2][sem][k]), float64(outs[3][sem][k])
			if math.Abs(d-c-b+a) > 1e-6*math.Max(1, math.Abs(d)) {
				return nil, "vertex shader outputs not affine in the position"
			}
			f[0][k], f[1][k], f[2][k] = a, b-a, c-a
		}
		v.regs[r] = f
	}
	return v, ""
}
