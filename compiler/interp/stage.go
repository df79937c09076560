package interp

// This file is the stage interface: the initial value of every per-lane
// global (private initializers, system values, Input.Inputs and vertices),
// the render targets of pixel shaders, and the per-invocation outputs.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// shading holds per-stage input and output plans.
type shading struct {
	stage   ir.Stage
	rect    *Rect
	outputs []int // output globals
	targets map[int]int
}

func (mc *machine) newShading(f *ir.Function, in *Input) (*shading, error) {
	sh := &shading{stage: f.Entry.Stage, targets: map[int]int{}}
	if sh.stage == ir.StagePixel && len(in.Pixels) == 0 {
		sh.rect = in.Rect
		if sh.rect == nil {
			sh.rect = &Rect{Width: 4, Height: 4}
		}
	}
	for i, vtx := range in.Vertices {
		for key := range vtx {
			if !mc.isInputKey(key) {
				return nil, inputErr("vertex %d: %q matches no input global (by semantic or name)", i, key)
			}
		}
	}
	for key, li := range in.Inputs {
		if !mc.isInputKey(key) {
			return nil, inputErr("input %q matches no input global (by semantic or name)", key)
		}
		set := 0
		for _, x := range []bool{li.Value != nil, li.PerLane != nil, li.Corners != nil} {
			if x {
				set++
			}
		}
		if set != 1 {
			return nil, inputErr("input %q: give exactly one of value, per_lane, corners", key)
		}
		if li.Corners != nil && (sh.rect == nil || len(li.Corners) != 4) {
			return nil, inputErr("input %q: corners need a pixel rect and four values", key)
		}
	}
	w, h := 0, 0
	if sh.stage == ir.StagePixel {
		if sh.rect != nil {
			w, h = sh.rect.X+sh.rect.Width, sh.rect.Y+sh.rect.Height
		}
		for _, p := range in.Pixels {
			w, h = max(w, p[0]+1), max(h, p[1]+1)
		}
	}
	for gi, g := range mc.globals {
		if g.Space != ir.SpaceOutput {
			continue
		}
		sh.outputs = append(sh.outputs, gi)
		if sh.stage == ir.StagePixel {
			sem := g.Semantic
			if sem == "" {
				sem = g.Name()
			}
			n := slots(g.ValType)
			if int64(w)*int64(h)*int64(n) > MaxMemoryCells {
				return nil, &Error{Err: ErrMemoryLimit, Msg: fmt.Sprintf("render target %s of %dx%d pixels is too large", sem, w, h)}
			}
			sh.targets[gi] = len(mc.result.Targets)
			mc.result.Targets = append(mc.result.Targets, Target{
				Name: g.Name(), Semantic: sem, Elem: g.ValType, Width: w, Height: h,
				Cells: make([]uint64, w*h*n), Written: make([]bool, w*h),
			})
		}
	}
	return sh, nil
}

// laneValue computes the initial value of a per-lane global for an
// invocation: private globals from their initializer, outputs zero, inputs
// from Input.Inputs or the system value of their semantic.
func (mc *machine) laneValue(g *ir.Global, inv *invocation, in *Input, sh *shading) ([]uint64, error) {
	cells := make([]uint64, slots(g.ValType))
	switch g.Space {
	case ir.SpacePrivate:
		if v, ok := in.SpecConstants[strconv.Itoa(g.SpecID)]; ok && g.SpecID >= 0 {
			return fromValue(v, g.ValType, fmt.Sprintf("spec_constants[%d]", g.SpecID))
		}
		if g.Init != nil {
			fillConst(g.Init, cells)
		}
		return cells, nil
	case ir.SpaceOutput:
		return cells, nil
	}
	// Explicit input first.
	if key, ok := matchInput(g, in.Inputs); ok {
		li := in.Inputs[key]
		what := fmt.Sprintf("input %s", key)
		switch {
		case li.Value != nil:
			return fromValue(li.Value, g.ValType, what)
		case li.PerLane != nil:
			if inv.index >= len(li.PerLane) {
				return cells, nil
			}
			return fromValue(li.PerLane[inv.index], g.ValType, fmt.Sprintf("%s[%d]", what, inv.index))
		default:
			return mc.corners(li.Corners, g.ValType, inv, sh.rect, what)
		}
	}
	if sh.stage == ir.StageVertex && inv.vertex < len(in.Vertices) {
		vtx := in.Vertices[inv.vertex]
		if key, ok := matchInput(g, vtx); ok {
			return fromValue(vtx[key], g.ValType, fmt.Sprintf("vertex %d %s", inv.vertex, key))
		}
	}
	var vals []float64
	switch strings.ToUpper(g.Semantic) {
	case "SV_DISPATCHTHREADID":
		vals = ints3(inv.dispatch)
	case "SV_GROUPTHREADID":
		vals = ints3(inv.groupThread)
	case "SV_GROUPID":
		vals = ints3(inv.group)
	case "SV_GROUPINDEX":
		vals = []float64{float64(inv.groupIndex)}
	case "SV_POSITION":
		if sh.stage == ir.StagePixel {
			vals = []float64{float64(inv.pixel[0]) + 0.5, float64(inv.pixel[1]) + 0.5, 0, 1}
		}
	case "SV_ISFRONTFACE":
		vals = []float64{1}
	case "SV_VERTEXID":
		vals = []float64{float64(inv.vertex)}
	}
	leaves := leafTypes(g.ValType, 0, nil)
	for i, t := range leaves {
		if i < len(vals) {
			cells[i] = arithOf(t).from(vals[i])
		}
	}
	return cells, nil
}

// matchInput finds the key of m that names input global g: its semantic
// (case-insensitive) first, else its name; deterministic whatever the map
// order.
func matchInput[V any](g *ir.Global, m map[string]V) (string, bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if g.Semantic != "" && strings.EqualFold(g.Semantic, k) {
			return k, true
		}
	}
	for _, k := range keys {
		if g.Name() == k {
			return k, true
		}
	}
	return "", false
}

// isInputKey reports whether key names some input global.
func (mc *machine) isInputKey(key string) bool {
	for _, g := range mc.globals {
		if g.Space == ir.SpaceInput && (strings.EqualFold(g.Semantic, key) || g.Name() == key) {
			return true
		}
	}
	return false
}

func ints3(v [3]int) []float64 { return []float64{float64(v[0]), float64(v[1]), float64(v[2])} }

// corners interpolates four corner values bilinearly at a pixel centre:
// u = (x + 0.5 - rect.x) / width, v likewise; value = lerp(lerp(tl, tr, u),
// lerp(bl, br, u), v), computed in float64 and rounded once.
func (mc *machine) corners(cs []any, t *ir.Type, inv *invocation, r *Rect, what string) ([]uint64, error) {
	var c [4][]uint64
	for i := range c {
		v, err := fromValue(cs[i], t, fmt.Sprintf("%s corner %d", what, i))
		if err != nil {
			return nil, err
		}
		c[i] = v
	}
	u := (float64(inv.pixel[0]) + 0.5 - float64(r.X)) / float64(r.Width)
	v := (float64(inv.pixel[1]) + 0.5 - float64(r.Y)) / float64(r.Height)
	leaves := leafTypes(t, 0, nil)
	out := make([]uint64, len(leaves))
	for i, lt := range leaves {
		if lt.Kind != ir.KFloat {
			return nil, fmt.Errorf("%s: corners interpolate floats only, not %s", what, t)
		}
		a := arithOf(lt)
		f := func(k int) float64 { return a.f(c[k][i]) }
		top := f(0) + (f(1)-f(0))*u
		bot := f(2) + (f(3)-f(2))*u
		out[i] = a.from(top + (bot-top)*v)
	}
	return out, nil
}

// collectLanes records outputs of the group's invocations.
func (mc *machine) collectLanes(fi *funcInfo, waves []*wave, sh *shading) {
	hasRet := fi.retW > 0
	if len(sh.outputs) == 0 && !hasRet {
		return
	}
	for _, w := range waves {
		for l, inv := range w.inv {
			if inv == nil {
				continue
			}
			lane := Lane{Index: inv.index, Group: inv.group, Thread: inv.groupThread, Pixel: inv.pixel,
				Vertex: inv.vertex, Killed: (w.killed|w.demoted)&(1<<uint(l)) != 0, Helper: inv.helper, Wave: w.index, WaveLane: l}
			if !lane.Killed && !lane.Helper {
				for _, gi := range sh.outputs {
					g := mc.globals[gi]
					o := mc.mem.objs[ptrObj(w.gptr[gi][l])]
					cells := append([]uint64(nil), o.cells...)
					lane.Outputs = append(lane.Outputs, Output{Name: g.Name(), Semantic: g.Semantic, Type: g.ValType, Cells: cells})
					if ti, ok := sh.targets[gi]; ok {
						t := &mc.result.Targets[ti]
						x, y := inv.pixel[0], inv.pixel[1]
						if x < t.Width && y < t.Height {
							copy(t.Pixel(x, y), cells)
							t.Written[y*t.Width+x] = true
						}
					}
				}
				if hasRet && w.entryRet != nil {
					lane.Outputs = append(lane.Outputs, Output{Name: "return", Type: fi.fn.Ret,
						Cells: append([]uint64(nil), w.entryRet[l*fi.retW:(l+1)*fi.retW]...)})
				}
			}
			mc.result.Lanes = append(mc.result.Lanes, lane)
		}
	}
	// Quads reorder pixels in the waves: report them in input order,
	// helpers (numbered after the covered pixels) last.
	sort.SliceStable(mc.result.Lanes, func(i, j int) bool { return mc.result.Lanes[i].Index < mc.result.Lanes[j].Index })
}
