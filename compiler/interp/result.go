package interp

import (
	"fmt"

	"passlens/compiler/ir"
)

// Result is what a run produced. Values are kept as cells (layout.go):
// bit-exact, comparable with Equal, printable with Format or as JSON
// (WriteJSON).
type Result struct {
	Entry    string
	Stage    ir.Stage
	WaveSize int
	Policy   Policy
	Steps    int64 // steps executed (see Options.MaxSteps)
	// Buffers holds every storage global after the run, in module order.
	Buffers []Buffer
	// Targets holds pixel shader outputs as images, in module order.
	Targets []Target
	// Lanes holds per-invocation outputs (stage output globals and the
	// entry point's return value), in invocation order; empty when the
	// entry point has no outputs.
	Lanes []Lane
	// WaveOps records wave operations and barriers when Options.Trace is
	// set, up to MaxTrace of them; WaveOpsDropped counts the rest.
	WaveOps        []WaveOp
	WaveOpsDropped int64
}

// Buffer is a storage global: Count elements of type Elem. A buffer whose
// type is a struct ending in a runtime-sized array (ByteAddressBuffer-like)
// is one element whose trailing array has Tail elements.
type Buffer struct {
	Name string
	// IsArg marks the buffer of the entry point's pointer parameter Arg
	// (LLVM kernels); Set and Binding are then meaningless.
	IsArg   bool
	Arg     int
	Set     int
	Binding int
	Elem    *ir.Type
	Count   int
	Tail    int
	Cells   []uint64
}

// ElemCells is the number of cells of one element.
func (b *Buffer) ElemCells() int { return cellsFor(b.Elem, b.Tail) }

// Element returns the cells of element i.
func (b *Buffer) Element(i int) []uint64 {
	n := b.ElemCells()
	return b.Cells[i*n : (i+1)*n]
}

// Target is a render target written by a pixel shader: Width x Height
// pixels (row-major, origin at pixel (0, 0)) of type Elem. Pixels no lane
// wrote (not shaded, or discarded) stay zero; Written says which were.
type Target struct {
	Name     string // output global
	Semantic string
	Elem     *ir.Type
	Width    int
	Height   int
	Cells    []uint64
	Written  []bool
}

// Pixel returns the cells of pixel (x, y).
func (t *Target) Pixel(x, y int) []uint64 {
	n := slots(t.Elem)
	i := y*t.Width + x
	return t.Cells[i*n : (i+1)*n]
}

// Lane is one invocation (thread, pixel or vertex) and its outputs.
type Lane struct {
	Index    int    // invocation index in run order
	Group    [3]int // SV_GroupID (compute)
	Thread   [3]int // SV_GroupThreadID (compute)
	Pixel    [2]int // pixel coordinates (pixel shaders)
	Vertex   int    // SV_VertexID (vertex shaders)
	Killed   bool   // discarded (its outputs are not reported)
	Helper   bool   // a helper pixel completing a 2×2 quad (no outputs reported, no render target written)
	Outputs  []Output
	WaveLane int // lane within its wave
	Wave     int // wave within its group
}

// Output is one output value of a lane.
type Output struct {
	Name     string // global name, or "return" for the entry's return value
	Semantic string
	Type     *ir.Type
	Cells    []uint64
}

// WaveOp is one dynamic execution of a wave operation or barrier: which
// lanes took part and what each got.
type WaveOp struct {
	Seq         int
	Group       [3]int
	Wave        int
	Func, Block string
	Instr       *ir.Instr
	Name        string   // intrinsic name
	Mask        uint64   // active lanes (bit i = lane i of the wave)
	Lanes       []int    // the active lanes, ascending
	Invocations []int    // the invocation index of each active lane
	Type        *ir.Type // result type (Void for barriers)
	Results     [][]uint64
}

// Equal compares two results bit for bit: buffers, render targets and lane
// outputs (not steps, traces or options). On a difference it returns false
// and a description of the first one.
func (r *Result) Equal(o *Result) (bool, string) {
	if r == nil || o == nil {
		if r == o {
			return true, ""
		}
		return false, "one result is nil"
	}
	if len(r.Buffers) != len(o.Buffers) {
		return false, fmt.Sprintf("%d buffers vs %d", len(r.Buffers), len(o.Buffers))
	}
	for i := range r.Buffers {
		a, b := &r.Buffers[i], &o.Buffers[i]
		if a.Name != b.Name {
			return false, fmt.Sprintf("buffer %d is %q vs %q", i, a.Name, b.Name)
		}
		if a.Elem.String() != b.Elem.String() || a.Count != b.Count || a.Tail != b.Tail {
			return false, fmt.Sprintf("buffer %s: %d x %s (tail %d) vs %d x %s (tail %d)", a.Name, a.Count, a.Elem, a.Tail, b.Count, b.Elem, b.Tail)
		}
		if d := firstDiff(a.Cells, b.Cells); d >= 0 {
			n := max(1, a.ElemCells())
			e := d / n
			return false, fmt.Sprintf("buffer %s element %d: %s vs %s", a.Name, e,
				FormatValue(a.Elem, a.Element(e)), FormatValue(b.Elem, b.Element(e)))
		}
	}
	if len(r.Targets) != len(o.Targets) {
		return false, fmt.Sprintf("%d render targets vs %d", len(r.Targets), len(o.Targets))
	}
	for i := range r.Targets {
		a, b := &r.Targets[i], &o.Targets[i]
		if a.Semantic != b.Semantic || a.Elem.String() != b.Elem.String() || a.Width != b.Width || a.Height != b.Height {
			return false, fmt.Sprintf("render target %d: %s %dx%d %s vs %s %dx%d %s", i,
				a.Semantic, a.Width, a.Height, a.Elem, b.Semantic, b.Width, b.Height, b.Elem)
		}
		for p := range a.Written {
			if a.Written[p] != b.Written[p] {
				return false, fmt.Sprintf("render target %s pixel (%d,%d): written %v vs %v", a.Semantic, p%a.Width, p/a.Width, a.Written[p], b.Written[p])
			}
		}
		if d := firstDiff(a.Cells, b.Cells); d >= 0 {
			p := d / max(1, slots(a.Elem))
			x, y := p%a.Width, p/a.Width
			return false, fmt.Sprintf("render target %s pixel (%d,%d): %s vs %s", a.Semantic, x, y,
				FormatValue(a.Elem, a.Pixel(x, y)), FormatValue(b.Elem, b.Pixel(x, y)))
		}
	}
	if len(r.Lanes) != len(o.Lanes) {
		return false, fmt.Sprintf("%d lanes with outputs vs %d", len(r.Lanes), len(o.Lanes))
	}
	for i := range r.Lanes {
		a, b := &r.Lanes[i], &o.Lanes[i]
		if a.Killed != b.Killed {
			return false, fmt.Sprintf("invocation %d: discarded %v vs %v", a.Index, a.Killed, b.Killed)
		}
		if len(a.Outputs) != len(b.Outputs) {
			return false, fmt.Sprintf("invocation %d: %d outputs vs %d", a.Index, len(a.Outputs), len(b.Outputs))
		}
		for j := range a.Outputs {
			x, y := &a.Outputs[j], &b.Outputs[j]
			if x.Name != y.Name || x.Type.String() != y.Type.String() {
				return false, fmt.Sprintf("invocation %d output %d: %s %s vs %s %s", a.Index, j, x.Type, x.Name, y.Type, y.Name)
			}
			if firstDiff(x.Cells, y.Cells) >= 0 {
				return false, fmt.Sprintf("invocation %d output %s: %s vs %s", a.Index, x.Name,
					FormatValue(x.Type, x.Cells), FormatValue(y.Type, y.Cells))
			}
		}
	}
	return true, ""
}

func firstDiff(a, b []uint64) int {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	if len(b) > len(a) {
		return len(a)
	}
	return -1
}

// Buffer returns the buffer of the named global, or nil.
func (r *Result) Buffer(name string) *Buffer {
	for i := range r.Buffers {
		if r.Buffers[i].Name == name {
			return &r.Buffers[i]
		}
	}
	return nil
}

// Target returns the render target with the given semantic (or output
// global name), or nil.
func (r *Result) Target(name string) *Target {
	for i := range r.Targets {
		if r.Targets[i].Semantic == name || r.Targets[i].Name == name {
			return &r.Targets[i]
		}
	}
	return nil
}
