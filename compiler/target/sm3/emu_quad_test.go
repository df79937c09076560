package sm3

// This file makes the emulator shade pixel shaders in 2×2 quads, as the
// interpreter does (compiler/interp/quad.go, whose lane layout it keeps:
// lane 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right, i.e.
// x&1 | (y&1)<<1 of the pixel). Each lane is an emulator of its own,
// running in a goroutine; an instruction that reads the other lanes of
// the quad (dsx, dsy, and texld/texldb for their level of detail) is a
// rendezvous: the lane offers its operand and waits until all four lanes
// have reached the same instruction, then each computes its result from
// the four operands. If a lane has finished, or waits at another
// instruction, the quad's control flow has diverged and the derivative is
// undefined (D3D9 and the interpreter alike): every waiting lane fails.
//
// dsx and dsy are coarse here: the top-right (bottom-left) lane's operand
// minus the top-left's, for all four lanes, in float32 — the
// interpreter's ddx_coarse/ddy_coarse, which its ddx/ddy are. D3D9 leaves
// coarse or fine to the hardware.

import (
	"fmt"
	"strings"

	"passlens/compiler/interp"
)

// quadLink connects one lane to the quad's coordinator.
type quadLink struct {
	lane int
	reqs chan<- quadReq
}

// quadReq is a lane at a cross-lane instruction (pc, its operand v), or
// (done) a lane that has finished.
type quadReq struct {
	lane, pc int
	op       string
	v        [4]float32
	done     bool
	reply    chan quadReply
}

type quadReply struct {
	vals [4][4]float32 // the operand in each lane of the quad
	err  error
}

// exchange offers v, lane's operand of the cross-lane instruction at pc,
// and returns the operand of every lane of the quad.
func (e *emulator) exchange(pc int, l []string, v [4]float32) [4][4]float32 {
	if e.quad == nil {
		panic(emuError{fmt.Errorf("%s needs the 2×2 quad of a pixel shader; the emulator runs one lane (runQuad shades quads)", strings.Join(l, " "))})
	}
	reply := make(chan quadReply)
	e.quad.reqs <- quadReq{lane: e.quad.lane, pc: pc, op: l[0], v: v, reply: reply}
	r := <-reply
	if r.err != nil {
		panic(emuError{r.err})
	}
	return r.vals
}

// deriv executes dsx (top-right minus top-left) and dsy (bottom-left
// minus top-left) of source v into the destination's masked components.
func (e *emulator) deriv(pc int, l []string, v [4]float32) {
	q := e.exchange(pc, l, v)
	other := 1
	if l[0] == "dsy" {
		other = 2
	}
	name, mask, _ := strings.Cut(l[1], ".")
	if mask == "" {
		mask = "xyzw"
	}
	d := e.freg(name)
	for _, c := range mask {
		k := strings.IndexRune("xyzw", c)
		d[k] = q[other][k] - q[0][k]
	}
}

// f64s widens the first three components (a texture coordinate).
func f64s(v [4]float32) []float64 {
	return []float64{float64(v[0]), float64(v[1]), float64(v[2])}
}

// runQuad executes asm for the four lanes of a 2×2 quad: shared holds
// registers common to all lanes (constants), lanes[q] those of lane q
// (vPos, v#). It returns each lane's machine; the error is the first
// lane's failure (an undefined derivative among them).
func runQuad(asm string, shared map[string][4]float32, lanes [4]map[string][4]float32, iconst map[string]int, bconst map[string]bool, samplers map[string]*interp.SampledTexture) ([4]*emulator, error) {
	reqs := make(chan quadReq)
	var es [4]*emulator
	var errs [4]error
	for q := range es {
		regs := map[string][4]float32{}
		for k, v := range shared {
			regs[k] = v
		}
		for k, v := range lanes[q] {
			regs[k] = v
		}
		es[q] = newEmulator(regs, iconst, bconst, samplers)
		es[q].quad = &quadLink{lane: q, reqs: reqs}
	}
	for q := range es {
		go func() {
			errs[q] = es[q].run(asm)
			reqs <- quadReq{lane: q, done: true}
		}()
	}
	// Coordinate: when every lane waits or has finished, answer the
	// waiting ones.
	var waiting []quadReq
	done := 0
	for done < 4 {
		r := <-reqs
		if r.done {
			done++
		} else {
			waiting = append(waiting, r)
		}
		if len(waiting) == 0 || len(waiting)+done < 4 {
			continue
		}
		var rep quadReply
		for _, w := range waiting {
			if w.pc != waiting[0].pc {
				rep.err = fmt.Errorf("%s in lane %d and %s in lane %d at different instructions: the quad's control flow diverged (undefined derivatives)", waiting[0].op, waiting[0].lane, w.op, w.lane)
			}
			rep.vals[w.lane] = w.v
		}
		if done > 0 && rep.err == nil {
			rep.err = fmt.Errorf("%s in lane %d reads lanes of its quad that have finished (undefined derivatives)", waiting[0].op, waiting[0].lane)
		}
		for _, w := range waiting {
			w.reply <- rep
		}
		waiting = waiting[:0]
	}
	for q, err := range errs {
		if err != nil {
			return es, fmt.Errorf("lane %d: %w", q, err)
		}
	}
	return es, nil
}
