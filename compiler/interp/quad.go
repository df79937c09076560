package interp

// This file is the quad model: lanes 4k..4k+3 of a wave form a quad in
// the order top-left, top-right, bottom-left, bottom-right (the layout
// D3D, Vulkan and DXC assume). A pixel shader shades whole 2×2 blocks of
// pixels aligned to even coordinates: a block the input covers only in
// part is completed with helper invocations at the missing pixels, as a
// rasterizer does at a primitive's edge (DirectX-Specs, "HLSL SM 6.7 Wave
// Ops Include Helper Lanes": a helper lane is a lane of a pixel shader
// quad not covered by the primitive, or one demoted by discard; the
// Vulkan specification, "Helper Invocations"). A helper runs the shader
// so that its quad has derivatives, but
//
//   - its stores and atomics to storage buffers (UAVs) have no effect (an
//     atomic returns 0), and it writes no render target;
//   - it is not an active lane of the Wave* operations (helper lanes do
//     not participate unless the shader opts in with SM6.7's
//     [WaveOpsIncludeHelperLanes], which passlens does not model); it
//     does take part in derivatives and the Quad* operations.
//
// Compute shaders (SM6.6 derivatives in compute) use the same lane
// grouping: threads 4k..4k+3 in flattened group order form a quad (the
// linear layout; the 2D-quad remapping of threads to lanes for
// numthreads with X and Y multiples of 2 is not modelled). Vertex shaders
// have no quads: quad operations there are an error.
//
// Derivatives are computed in float32 (or the operand's precision) as the
// difference of two lanes of the quad: coarse ones from the top-left lane
// and its right/lower neighbour for all four lanes, fine ones within the
// lane's own row or column. A derivative or quad read that needs a lane
// which is not active at that point (divergent control flow inside the
// quad, a lane that returned early or was discarded by the IR's discard,
// which terminates the invocation like SPIR-V's OpKill) is undefined in
// D3D and Vulkan and is reported as ErrUndefined. ps.demote is D3D's
// discard: the lane becomes a helper and keeps running, so its quad's
// derivatives stay defined (it is reported as discarded).

import (
	"fmt"
	"math"
	"math/bits"

	"passlens/compiler/ir"
)

// pixelQuads groups covered pixels into aligned 2×2 quads, in order of
// each quad's first covered pixel, filling uncovered positions with
// helper invocations. Covered pixels keep their input order as index;
// helpers are numbered after them.
func pixelQuads(px [][2]int) []*invocation {
	type quad struct{ slot [4]*invocation }
	var order [][2]int
	quads := map[[2]int]*quad{}
	for i, p := range px {
		k := [2]int{p[0] >> 1, p[1] >> 1}
		q := quads[k]
		if q == nil {
			q = &quad{}
			quads[k] = q
			order = append(order, k)
		}
		s := p[0]&1 | (p[1]&1)<<1
		if q.slot[s] == nil { // a pixel listed twice shades once
			q.slot[s] = &invocation{index: i, pixel: p}
		}
	}
	n := len(px)
	out := make([]*invocation, 0, 4*len(order))
	for _, k := range order {
		q := quads[k]
		for s := range q.slot {
			inv := q.slot[s]
			if inv == nil {
				inv = &invocation{index: n, pixel: [2]int{2*k[0] + s&1, 2*k[1] + s>>1}, helper: true}
				n++
			}
			out = append(out, inv)
		}
	}
	return out
}

// helperStore reports whether a write by lane l to object o is dropped
// because the lane is a helper (storage buffers only: a helper's own
// registers, locals and outputs still change).
func (w *wave) helperStore(l int, o *object) bool {
	return w.helper&(1<<uint(l)) != 0 && o != nil && o.space == ir.SpaceStorage
}

// quadAcross is the lane of the quad each QuadReadAcross* reads, as an
// xor of the lane index (QuadReadLaneAt: 0).
var quadAcross = map[string]int{"QuadReadAcrossX": 1, "QuadReadAcrossY": 2, "QuadReadAcrossDiagonal": 3}

// quadIntrinsic executes a derivative or Quad* operation for the lanes of
// mask.
func (w *wave) quadIntrinsic(fr *frame, ic *icode, mask uint64) error {
	name := ic.name
	if w.mc.entry.Entry != nil && w.mc.entry.Entry.Stage == ir.StageVertex {
		return fmt.Errorf("%w: %s needs quads, which only pixel and compute shaders have", ErrUnsupported, name)
	}
	if ic.res < 0 || len(ic.args) == 0 {
		return fmt.Errorf("%w: %s needs an operand and a result", ErrMalformed, name)
	}
	env := w.fenv()
	at := env.arith(ic.args[0].typ)
	// src is lane q (0..3) of l's quad.
	src := func(l int, q int) int { return l&^3 | q }
	read := func(l, from int) ([]uint64, error) {
		if mask&(1<<uint(from)) == 0 {
			return nil, fmt.Errorf("%w: %s in lane %d reads lane %d of its quad, which is not active here (divergent control flow in the quad, or the lane returned or was discarded)", ErrUndefined, name, l, from)
		}
		return w.arg(fr, &ic.args[0], from), nil
	}
	diff := func(r []uint64, a, b []uint64) {
		for i := range r {
			r[i] = at.sub(pick(a, i), pick(b, i))
		}
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		r := w.dst(fr, ic.res, l)
		var pair [2]int // lanes (minuend, subtrahend) for derivatives
		switch name {
		case "ddx_coarse":
			pair = [2]int{src(l, 1), src(l, 0)}
		case "ddy_coarse":
			pair = [2]int{src(l, 2), src(l, 0)}
		case "ddx_fine":
			pair = [2]int{src(l, l&2|1), src(l, l&2)}
		case "ddy_fine":
			pair = [2]int{src(l, l&1|2), src(l, l&1)}
		case "fwidth":
			tl, err := read(l, src(l, 0))
			if err != nil {
				return err
			}
			tr, err := read(l, src(l, 1))
			if err != nil {
				return err
			}
			bl, err := read(l, src(l, 2))
			if err != nil {
				return err
			}
			for i := range r {
				dx := at.from(math.Abs(at.f(at.sub(pick(tr, i), pick(tl, i)))))
				dy := at.from(math.Abs(at.f(at.sub(pick(bl, i), pick(tl, i)))))
				r[i] = at.add(dx, dy)
			}
			continue
		case "QuadReadAcrossX", "QuadReadAcrossY", "QuadReadAcrossDiagonal", "QuadReadLaneAt":
			from := l ^ quadAcross[name]
			if name == "QuadReadLaneAt" {
				i := w.arg(fr, &ic.args[1], l)[0]
				if i > 3 {
					return fmt.Errorf("%w: QuadReadLaneAt in lane %d: quad lane index %d is not 0..3", ErrUndefined, l, i)
				}
				from = src(l, int(i))
			}
			v, err := read(l, from)
			if err != nil {
				return err
			}
			copy(r, v)
			continue
		case "QuadAny", "QuadAll":
			any, all := false, true
			for q := range 4 {
				ql := src(l, q)
				if mask&(1<<uint(ql)) == 0 {
					continue
				}
				t := w.arg(fr, &ic.args[0], ql)[0]&1 != 0
				any, all = any || t, all && t
			}
			r[0] = b2u(any)
			if name == "QuadAll" {
				r[0] = b2u(all)
			}
			continue
		default:
			return fmt.Errorf("%w: quad intrinsic %s", ErrUnsupported, name)
		}
		a, err := read(l, pair[0])
		if err != nil {
			return err
		}
		b, err := read(l, pair[1])
		if err != nil {
			return err
		}
		diff(r, a, b)
	}
	return nil
}

// quadCoordDerivs returns the coarse derivatives of operand arg (a float
// vector) in lane l's quad, computed in float32 as a GPU does for
// implicit-LOD sampling; ok is false when the quad's top-left, top-right
// or bottom-left lane is not active (then the level of detail is
// undefined).
func (w *wave) quadCoordDerivs(fr *frame, a *operand, l int, mask uint64) (dx, dy []float64, ok bool) {
	tl, tr, bl := l&^3, l&^3|1, l&^3|2
	for _, q := range []int{tl, tr, bl} {
		if mask&(1<<uint(q)) == 0 {
			return nil, nil, false
		}
	}
	dx, dy = coarseDerivs(floats(w.arg(fr, a, tl)), floats(w.arg(fr, a, tr)), floats(w.arg(fr, a, bl)))
	return dx, dy, true
}

// coarseDerivs are the coarse derivatives of a float vector from its
// values in a quad's top-left (c0), top-right (cx) and bottom-left (cy)
// lanes, each a float32 difference as a GPU computes it.
func coarseDerivs(c0, cx, cy []float64) (dx, dy []float64) {
	dx, dy = make([]float64, len(c0)), make([]float64, len(c0))
	for i := range c0 {
		dx[i] = float64(float32(cx[i]) - float32(c0[i]))
		dy[i] = float64(float32(cy[i]) - float32(c0[i]))
	}
	return dx, dy
}

// demote makes the lanes of mask helpers (ps.demote, D3D's discard): they
// keep running for their quads' derivatives, and are reported discarded.
func (w *wave) demote(mask uint64) error {
	if w.mc.entry.Entry == nil || w.mc.entry.Entry.Stage != ir.StagePixel {
		return fmt.Errorf("%w: %s outside a pixel shader", ErrUnsupported, ir.Demote)
	}
	w.helper |= mask
	w.demoted |= mask
	return nil
}
