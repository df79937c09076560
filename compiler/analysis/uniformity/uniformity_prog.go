package uniformity

import (
	"passlens/compiler/analysis"
	"passlens/compiler/ir"
)

// uprog is a function as the uniformity engines see it: dense value ids,
// operand and user lists, and the per-value facts of the divergence policy.
//
// Value ids: the parameters are 0..nParams-1, then every instruction of
// every block in layout order (terminators included). Only parameters and
// instructions of the function are tracked; constants, globals and values
// of other functions are uniform and never appear in operand lists.
type uprog struct {
	f       *ir.Function
	fg      *analysis.FuncGraph
	nParams int

	vals  []ir.Value // id -> value
	id    map[ir.Value]int32
	block []int32 // id -> block index (-1 for parameters)
	// blockStart[b] .. blockStart[b+1]-1 are the ids of block b's
	// instructions, in order.
	blockStart []int32

	isTerm  []bool
	isPhi   []bool
	trivial []bool // phi whose incoming values are one value (or undef)

	source    []bool
	sourceWhy []string // only for sources
	override  []bool   // always uniform

	users csr // ids of the users that divergence of a value propagates to
	ops   csr // tracked operand ids of each value (empty for parameters)
}

// newUprog builds the model of f.
func newUprog(f *ir.Function, fg *analysis.FuncGraph) *uprog {
	n := len(f.Params)
	for _, b := range f.Blocks {
		n += len(b.Instrs)
	}
	p := &uprog{
		f:          f,
		fg:         fg,
		nParams:    len(f.Params),
		vals:       make([]ir.Value, 0, n),
		id:         make(map[ir.Value]int32, n),
		block:      make([]int32, 0, n),
		blockStart: make([]int32, len(f.Blocks)+1),
		isTerm:     make([]bool, n),
		isPhi:      make([]bool, n),
		trivial:    make([]bool, n),
		source:     make([]bool, n),
		sourceWhy:  make([]string, n),
		override:   make([]bool, n),
	}
	for _, a := range f.Params {
		p.id[a] = int32(len(p.vals))
		p.vals = append(p.vals, a)
		p.block = append(p.block, -1)
	}
	for bi, b := range f.Blocks {
		p.blockStart[bi] = int32(len(p.vals))
		for _, in := range b.Instrs {
			p.id[in] = int32(len(p.vals))
			p.vals = append(p.vals, in)
			p.block = append(p.block, int32(bi))
		}
	}
	p.blockStart[len(f.Blocks)] = int32(len(p.vals))

	for i, a := range f.Params {
		if why, ok := paramSource(a); ok {
			p.source[i], p.sourceWhy[i] = true, why
		}
	}
	// Count uses first, then fill the user lists (one entry per use).
	p.users.start = make([]int32, n+1)
	forUses := func(visit func(user, used int32)) {
		for id := p.nParams; id < n; id++ {
			in := p.vals[id].(*ir.Instr)
			for ai, a := range in.Args {
				if a == nil || ignoresOperandDivergence(in, ai) {
					continue
				}
				if d, ok := p.id[a]; ok {
					visit(int32(id), d)
				}
			}
		}
	}
	forUses(func(_, used int32) { p.users.start[used+1]++ })
	for i := 0; i < n; i++ {
		p.users.start[i+1] += p.users.start[i]
	}
	p.users.list = make([]int32, p.users.start[n])
	fill := make([]int32, n)
	copy(fill, p.users.start[:n])
	forUses(func(user, used int32) {
		p.users.list[fill[used]] = user
		fill[used]++
	})
	p.ops.start = make([]int32, n+1)
	for id := p.nParams; id < n; id++ {
		in := p.vals[id].(*ir.Instr)
		for _, a := range in.Args {
			if a == nil {
				continue
			}
			if d, ok := p.id[a]; ok {
				p.ops.list = append(p.ops.list, d)
			}
		}
		p.ops.start[id+1] = int32(len(p.ops.list))
	}
	for id := 0; id < p.nParams; id++ {
		p.ops.start[id+1] = p.ops.start[id]
	}

	for id := p.nParams; id < n; id++ {
		in := p.vals[id].(*ir.Instr)
		p.isTerm[id] = in.IsTerminator()
		if in.Op == ir.OpPhi {
			p.isPhi[id] = true
			p.trivial[id] = isConstantOrUndefPhi(in)
		}
		if why, ok := instrSource(in); ok {
			p.source[id], p.sourceWhy[id] = true, why
		} else if alwaysUniform(in) {
			p.override[id] = true
		}
	}
	return p
}

// numVals returns the number of tracked values.
func (p *uprog) numVals() int { return len(p.vals) }

// blockInstrs returns the ids of block b's instructions as a range [lo, hi).
func (p *uprog) blockInstrs(b int) (int32, int32) { return p.blockStart[b], p.blockStart[b+1] }

// phiRange returns the ids of block b's leading phis as a range [lo, hi).
func (p *uprog) phiRange(b int) (int32, int32) {
	lo, hi := p.blockInstrs(b)
	e := lo
	for e < hi && p.isPhi[e] {
		e++
	}
	return lo, e
}

// instr returns the instruction with id v (nil for a parameter).
func (p *uprog) instr(v int32) *ir.Instr {
	if int(v) < p.nParams {
		return nil
	}
	return p.vals[v].(*ir.Instr)
}

// operandIDs returns the tracked operand ids of value v (one per use).
func (p *uprog) operandIDs(v int32) []int32 { return p.ops.of(int(v)) }
