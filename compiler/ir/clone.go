package ir

// This file deep-copies modules and functions (the pipeline snapshots the
// module before each pass). Clones keep every name and the functions'
// name reservations, so a pass run on a clone generates the same names as
// on the original. Types and constants are immutable values and are shared
// between a clone and its original; intrinsics are shared table entries.
//
// Copies are allocated in slabs (one slice of Instr, one of operand
// values, ... per function) because snapshots of 100k-instruction modules
// are taken after every pass. Every slice handed out has its capacity
// clipped to its length, so appending to one (AddIncoming, passes growing
// Args) reallocates instead of overwriting a neighbour.

// CloneModule returns a deep copy of m: new globals, functions, blocks and
// instructions wired to each other; calls point at the copied callees.
func CloneModule(m *Module) *Module {
	if m == nil {
		return nil
	}
	out := &Module{Name: m.Name}
	out.Structs = append([]*Type(nil), m.Structs...)
	c := &cloner{
		globals: make(map[*Global]*Global, len(m.Globals)),
		funcs:   make(map[*Function]*Function, len(m.Funcs)),
	}
	if len(m.Globals) > 0 {
		gs := make([]Global, len(m.Globals))
		out.Globals = make([]*Global, len(m.Globals))
		for i, g := range m.Globals {
			if g == nil {
				continue
			}
			gs[i] = *g
			out.Globals[i] = &gs[i]
			c.globals[g] = &gs[i]
		}
	}
	out.Funcs = make([]*Function, len(m.Funcs))
	for i, f := range m.Funcs {
		if f == nil {
			continue
		}
		nf := cloneSignature(f, out)
		out.Funcs[i] = nf
		c.funcs[f] = nf
	}
	for i, f := range m.Funcs {
		if f != nil {
			c.body(f, out.Funcs[i])
		}
	}
	return out
}

// CloneFunction returns a deep copy of f that belongs to f's module (its
// Module field) without being added to the module's function list: globals
// and callees stay those of f's module.
func CloneFunction(f *Function) *Function {
	if f == nil {
		return nil
	}
	nf := cloneSignature(f, f.Module)
	(&cloner{}).body(f, nf)
	return nf
}

type cloner struct {
	globals map[*Global]*Global     // nil: keep the original globals
	funcs   map[*Function]*Function // nil: keep the original callees
}

// cloneSignature copies f's name, signature, entry point and name table.
func cloneSignature(f *Function, m *Module) *Function {
	nf := &Function{name: f.name, Ret: f.Ret, Module: m}
	if f.Entry != nil {
		e := *f.Entry
		nf.Entry = &e
	}
	nf.names = make(map[string]int, len(f.names))
	for k, v := range f.names {
		nf.names[k] = v
	}
	if len(f.Params) > 0 {
		ps := make([]Param, len(f.Params))
		nf.Params = make([]*Param, len(f.Params))
		for i, p := range f.Params {
			if p == nil {
				continue
			}
			ps[i] = *p
			ps[i].Func = nf
			nf.Params[i] = &ps[i]
		}
	}
	return nf
}

// body copies f's blocks and instructions into nf.
func (c *cloner) body(f, nf *Function) {
	nb := len(f.Blocks)
	if nb == 0 {
		return
	}
	// Count what the slabs need.
	nInstr, nArgs, nSuccs, nCases, nVals, nIdx := 0, 0, 0, 0, 0, 0
	for _, b := range f.Blocks {
		if b == nil {
			continue
		}
		nInstr += len(b.Instrs)
		for _, in := range b.Instrs {
			if in == nil {
				continue
			}
			nArgs += len(in.Args)
			nSuccs += len(in.Succs) + len(in.PhiBlocks)
			nCases += len(in.Cases)
			for _, sc := range in.Cases {
				nVals += len(sc.Values)
			}
			nIdx += len(in.Idx)
		}
	}
	blockSlab := make([]Block, nb)
	blockMap := make(map[*Block]*Block, nb)
	nf.Blocks = make([]*Block, nb) // nil blocks (a broken module) stay nil
	for i, b := range f.Blocks {
		if b == nil {
			continue
		}
		blockSlab[i] = Block{name: b.name, Func: nf, Index: i}
		nf.Blocks[i] = &blockSlab[i]
		blockMap[b] = &blockSlab[i]
	}
	// A block outside f's layout (a dangling edge) maps to itself.
	mapBlock := func(b *Block) *Block {
		if nb, ok := blockMap[b]; ok {
			return nb
		}
		return b
	}

	instrSlab := make([]Instr, nInstr)
	ptrSlab := make([]*Instr, nInstr)
	instrMap := make(map[*Instr]*Instr, nInstr)
	k := 0
	for _, b := range f.Blocks {
		if b == nil {
			continue
		}
		for _, in := range b.Instrs {
			if in != nil {
				instrMap[in] = &instrSlab[k]
			}
			k++
		}
	}
	paramMap := func(p *Param) Value {
		if p != nil && p.Func == f && p.Index >= 0 && p.Index < len(nf.Params) && f.Params[p.Index] == p {
			return nf.Params[p.Index]
		}
		return p
	}
	mapValue := func(v Value) Value {
		switch x := v.(type) {
		case *Instr:
			if n, ok := instrMap[x]; ok {
				return n
			}
		case *Param:
			return paramMap(x)
		case *Global:
			if c.globals != nil {
				if n, ok := c.globals[x]; ok {
					return n
				}
			}
		}
		return v // constants, foreign values
	}

	argSlab := make([]Value, nArgs)
	succSlab := make([]*Block, nSuccs)
	caseSlab := make([]SwitchCase, nCases)
	valSlab := make([]int64, nVals)
	idxSlab := make([]int, nIdx)
	k = 0
	for bi, b := range f.Blocks {
		if b == nil {
			continue
		}
		dst := nf.Blocks[bi]
		dst.Instrs = ptrSlab[k : k+len(b.Instrs) : k+len(b.Instrs)]
		for j, in := range b.Instrs {
			ni := &instrSlab[k]
			k++
			if in == nil {
				dst.Instrs[j] = nil
				continue
			}
			dst.Instrs[j] = ni
			*ni = Instr{
				Op: in.Op, name: in.name, typ: in.typ, Pred: in.Pred, Atomic: in.Atomic, Intr: in.Intr,
				Callee: in.Callee, MergeKind: in.MergeKind, Block: dst, Loc: in.Loc,
			}
			if c.funcs != nil && in.Callee != nil {
				if n, ok := c.funcs[in.Callee]; ok {
					ni.Callee = n
				}
			}
			if in.Merge != nil {
				ni.Merge = mapBlock(in.Merge)
			}
			if in.Continue != nil {
				ni.Continue = mapBlock(in.Continue)
			}
			if n := len(in.Args); n > 0 {
				ni.Args = argSlab[:n:n]
				argSlab = argSlab[n:]
				for i, a := range in.Args {
					ni.Args[i] = mapValue(a)
				}
			}
			if n := len(in.Succs); n > 0 {
				ni.Succs = succSlab[:n:n]
				succSlab = succSlab[n:]
				for i, s := range in.Succs {
					ni.Succs[i] = mapBlock(s)
				}
			}
			if n := len(in.PhiBlocks); n > 0 {
				ni.PhiBlocks = succSlab[:n:n]
				succSlab = succSlab[n:]
				for i, s := range in.PhiBlocks {
					ni.PhiBlocks[i] = mapBlock(s)
				}
			}
			if n := len(in.Cases); n > 0 {
				ni.Cases = caseSlab[:n:n]
				caseSlab = caseSlab[n:]
				for i, sc := range in.Cases {
					nc := SwitchCase{Default: sc.Default, Target: mapBlock(sc.Target)}
					if m := len(sc.Values); m > 0 {
						nc.Values = valSlab[:m:m]
						valSlab = valSlab[m:]
						copy(nc.Values, sc.Values)
					}
					ni.Cases[i] = nc
				}
			}
			if n := len(in.Idx); n > 0 {
				ni.Idx = idxSlab[:n:n]
				idxSlab = idxSlab[n:]
				copy(ni.Idx, in.Idx)
			}
		}
	}
}
