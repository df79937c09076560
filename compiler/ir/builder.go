package ir

import "fmt"

// Builder creates instructions at an insertion point. Result names are made
// unique within the function; pass "" to get a generated name (t0, t1, ...).
type Builder struct {
	F   *Function
	B   *Block
	pos int // insert before B.Instrs[pos]; -1 appends
	Loc Loc // source location stamped on new instructions
}

// NewBuilder returns a builder for f with no insertion block.
func NewBuilder(f *Function) *Builder { return &Builder{F: f, pos: -1} }

// SetBlock appends subsequent instructions at the end of b.
func (bd *Builder) SetBlock(b *Block) { bd.B, bd.pos = b, -1 }

// SetBeforeTerminator inserts before b's terminator (or at the end).
func (bd *Builder) SetBeforeTerminator(b *Block) {
	bd.B = b
	if b.Terminator() != nil {
		bd.pos = len(b.Instrs) - 1
	} else {
		bd.pos = -1
	}
}

// SetBefore inserts subsequent instructions right before in.
func (bd *Builder) SetBefore(in *Instr) {
	bd.B = in.Block
	bd.pos = indexOf(in.Block, in)
}

// SetAfterPhis inserts at the first non-phi position of b.
func (bd *Builder) SetAfterPhis(b *Block) { bd.B, bd.pos = b, b.FirstNonPhi() }

func indexOf(b *Block, in *Instr) int {
	for i, x := range b.Instrs {
		if x == in {
			return i
		}
	}
	return -1
}

// Insert places a fully formed instruction at the insertion point.
func (bd *Builder) Insert(in *Instr) *Instr {
	if bd.B == nil {
		panic("ir.Builder: no insertion block")
	}
	in.Block = bd.B
	if in.Loc == (Loc{}) {
		in.Loc = bd.Loc
	}
	if bd.pos < 0 || bd.pos >= len(bd.B.Instrs) {
		bd.B.Instrs = append(bd.B.Instrs, in)
		return in
	}
	bd.B.Instrs = append(bd.B.Instrs, nil)
	copy(bd.B.Instrs[bd.pos+1:], bd.B.Instrs[bd.pos:])
	bd.B.Instrs[bd.pos] = in
	bd.pos++
	return in
}

// NewInstr creates an unattached instruction with a unique name in f
// (no name when t is Void).
func NewInstr(f *Function, op Op, t *Type, name string) *Instr {
	in := &Instr{Op: op, typ: t}
	if t != nil && t != Void {
		in.name = f.UniqueName(name)
	}
	return in
}

// SetName renames the instruction's result (made unique in its function).
func (in *Instr) SetName(f *Function, name string) { in.name = f.UniqueName(name) }

// SetRawName sets the name without reserving it (parsers that reserve
// names themselves use it).
func (in *Instr) SetRawName(name string) { in.name = name }

func (bd *Builder) mk(op Op, t *Type, name string, args ...Value) *Instr {
	in := NewInstr(bd.F, op, t, name)
	in.Args = args
	return bd.Insert(in)
}

// Binary emits a two-operand arithmetic or bitwise op.
func (bd *Builder) Binary(op Op, x, y Value, name string) *Instr {
	return bd.mk(op, x.Type(), name, x, y)
}

// Unary emits not, neg or fneg.
func (bd *Builder) Unary(op Op, x Value, name string) *Instr { return bd.mk(op, x.Type(), name, x) }

// Cmp emits icmp or fcmp (chosen by the operand type) with predicate p.
func (bd *Builder) Cmp(p CmpPred, x, y Value, name string) *Instr {
	op := OpICmp
	if x.Type().Scalar().Kind == KFloat {
		op = OpFCmp
	}
	in := bd.mk(op, BoolOf(x.Type()), name, x, y)
	in.Pred = p
	return in
}

// Select emits select c, x, y.
func (bd *Builder) Select(c, x, y Value, name string) *Instr {
	return bd.mk(OpSelect, x.Type(), name, c, x, y)
}

// Cast emits a conversion of x to type to.
func (bd *Builder) Cast(op Op, x Value, to *Type, name string) *Instr {
	return bd.mk(op, to, name, x)
}

// Construct builds a vector, matrix, array or struct from its components.
func (bd *Builder) Construct(t *Type, elems []Value, name string) *Instr {
	return bd.mk(OpConstruct, t, name, elems...)
}

// ExtractElem emits extractelement v, idx.
func (bd *Builder) ExtractElem(v, idx Value, name string) *Instr {
	return bd.mk(OpExtractElem, v.Type().Elem, name, v, idx)
}

// InsertElem emits insertelement v, e, idx.
func (bd *Builder) InsertElem(v, e, idx Value, name string) *Instr {
	return bd.mk(OpInsertElem, v.Type(), name, v, e, idx)
}

// Shuffle emits a shuffle of a and b; mask indices >= len(a) select from b.
// A one-element mask still yields a 1-vector only if requested by the
// caller; use ExtractValue for single components.
func (bd *Builder) Shuffle(a, b Value, mask []int, name string) *Instr {
	in := bd.mk(OpShuffle, Vec(a.Type().Elem, len(mask)), name, a, b)
	in.Idx = append([]int(nil), mask...)
	return in
}

// ExtractValue emits extractvalue agg, path...
func (bd *Builder) ExtractValue(agg Value, path []int, name string) *Instr {
	t := agg.Type().IndexPath(path)
	if t == nil {
		panic(fmt.Sprintf("ir.Builder: bad extractvalue path %v into %s", path, agg.Type()))
	}
	in := bd.mk(OpExtractValue, t, name, agg)
	in.Idx = append([]int(nil), path...)
	return in
}

// InsertValue emits insertvalue agg, e, path...
func (bd *Builder) InsertValue(agg, e Value, path []int, name string) *Instr {
	in := bd.mk(OpInsertValue, agg.Type(), name, agg, e)
	in.Idx = append([]int(nil), path...)
	return in
}

// Copy emits copy x.
func (bd *Builder) Copy(x Value, name string) *Instr { return bd.mk(OpCopy, x.Type(), name, x) }

// Alloca emits alloca t (a ptr<function, t>).
func (bd *Builder) Alloca(t *Type, name string) *Instr {
	return bd.mk(OpAlloca, Ptr(SpaceFunction, t), name)
}

// Load emits load from p.
func (bd *Builder) Load(p Value, name string) *Instr { return bd.mk(OpLoad, p.Type().Elem, name, p) }

// Store emits store v to p.
func (bd *Builder) Store(v, p Value) *Instr { return bd.mk(OpStore, Void, "", v, p) }

// AccessType computes the pointer type reached by indexing base with idx
// (nil if invalid). Struct indices must be integer constants.
func AccessType(base *Type, idx []Value) *Type {
	if base.Kind != KPointer {
		return nil
	}
	cur := base.Elem
	for _, ix := range idx {
		if cur.Kind == KStruct {
			c, ok := ix.(*Const)
			if !ok || !c.Type().IsIntegral() {
				return nil
			}
			cur = cur.ElemType(int(c.Int()))
		} else {
			if !ix.Type().IsIntegral() {
				return nil
			}
			if cur.Kind == KArray || cur.Kind == KVector {
				cur = cur.Elem
			} else if cur.Kind == KMatrix {
				cur = Vec(cur.Elem, cur.Cols)
			} else {
				return nil
			}
		}
		if cur == nil {
			return nil
		}
	}
	return Ptr(base.Space, cur)
}

// Access emits an access chain from base through idx.
func (bd *Builder) Access(base Value, idx []Value, name string) *Instr {
	t := AccessType(base.Type(), idx)
	if t == nil {
		panic(fmt.Sprintf("ir.Builder: bad access chain into %s", base.Type()))
	}
	return bd.mk(OpAccess, t, name, append([]Value{base}, idx...)...)
}

// Memcpy copies the pointee of src to dst.
func (bd *Builder) Memcpy(dst, src Value) *Instr { return bd.mk(OpMemcpy, Void, "", dst, src) }

// Memset fills the pointee of dst with a byte value.
func (bd *Builder) Memset(dst, byteVal Value) *Instr { return bd.mk(OpMemset, Void, "", dst, byteVal) }

// Atomic emits an atomic read-modify-write returning the old value; cmp is
// the comparator for cmpxchg (nil otherwise).
func (bd *Builder) Atomic(kind AtomicKind, p, v, cmp Value, name string) *Instr {
	args := []Value{p, v}
	if cmp != nil {
		args = append(args, cmp)
	}
	in := bd.mk(OpAtomic, p.Type().Elem, name, args...)
	in.Atomic = kind
	return in
}

// Call emits a call of f.
func (bd *Builder) Call(f *Function, args []Value, name string) *Instr {
	in := bd.mk(OpCall, f.Ret, name, args...)
	in.Callee = f
	return in
}

// Intrinsic emits a call of the named intrinsic with result type ret.
func (bd *Builder) Intrinsic(intr string, ret *Type, args []Value, name string) *Instr {
	it := LookupIntrinsic(intr)
	if it == nil {
		panic("ir.Builder: unknown intrinsic " + intr)
	}
	in := bd.mk(OpIntrinsic, ret, name, args...)
	in.Intr = it
	return in
}

// Phi emits an empty phi of type t; add incoming values with AddIncoming.
func (bd *Builder) Phi(t *Type, name string) *Instr { return bd.mk(OpPhi, t, name) }

// AddIncoming adds (v from b) to a phi.
func (in *Instr) AddIncoming(v Value, b *Block) {
	in.Args = append(in.Args, v)
	in.PhiBlocks = append(in.PhiBlocks, b)
}

// RemoveIncoming removes every incoming entry from b.
func (in *Instr) RemoveIncoming(b *Block) {
	args, blocks := in.Args[:0], in.PhiBlocks[:0]
	for i, pb := range in.PhiBlocks {
		if pb != b {
			args = append(args, in.Args[i])
			blocks = append(blocks, pb)
		}
	}
	in.Args, in.PhiBlocks = args, blocks
}

// Br emits an unconditional branch.
func (bd *Builder) Br(dst *Block) *Instr {
	in := bd.mk(OpBr, Void, "")
	in.Succs = []*Block{dst}
	return in
}

// CondBr emits a two-way branch on c.
func (bd *Builder) CondBr(c Value, then, els *Block) *Instr {
	in := bd.mk(OpCondBr, Void, "", c)
	in.Succs = []*Block{then, els}
	return in
}

// Switch emits a switch on sel with label groups in source order.
func (bd *Builder) Switch(sel Value, cases []SwitchCase) *Instr {
	in := bd.mk(OpSwitch, Void, "", sel)
	in.Cases = cases
	return in
}

// Ret emits ret (v may be nil for void).
func (bd *Builder) Ret(v Value) *Instr {
	if v == nil {
		return bd.mk(OpRet, Void, "")
	}
	return bd.mk(OpRet, Void, "", v)
}

// Discard emits discard (pixel shaders: kill this lane).
func (bd *Builder) Discard() *Instr { return bd.mk(OpDiscard, Void, "") }

// Unreachable emits unreachable.
func (bd *Builder) Unreachable() *Instr { return bd.mk(OpUnreachable, Void, "") }

// SetSelectionMerge annotates a terminator with a selection merge block.
func (in *Instr) SetSelectionMerge(merge *Block) {
	in.MergeKind, in.Merge, in.Continue = MergeSelection, merge, nil
}

// SetLoopMerge annotates a loop header's terminator with its merge and
// continue blocks.
func (in *Instr) SetLoopMerge(merge, cont *Block) {
	in.MergeKind, in.Merge, in.Continue = MergeLoop, merge, cont
}

// ClearMerge removes a structured annotation.
func (in *Instr) ClearMerge() { in.MergeKind, in.Merge, in.Continue = MergeNone, nil, nil }

// Remove deletes in from its block (the caller ensures it has no uses).
func (in *Instr) Remove() {
	b := in.Block
	if b == nil {
		return
	}
	if i := indexOf(b, in); i >= 0 {
		copy(b.Instrs[i:], b.Instrs[i+1:])
		b.Instrs[len(b.Instrs)-1] = nil
		b.Instrs = b.Instrs[:len(b.Instrs)-1]
	}
	in.Block = nil
}
