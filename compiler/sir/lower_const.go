package sir

import (
	"math"

	"passlens/compiler/ir"
)

// Uniform memory maps onto constant registers the way D3D9 constant tables
// lay it out: each uniform variable (a member of a cbuffer or of $Globals, or
// a whole non-struct uniform global) is one const register array whose slots
// are vector registers. A scalar or vector takes one slot, a matrix one slot
// per IR row (a column_major matrix is stored transposed, so its IR rows are
// the HLSL columns, as in D3D), an array Len times its element, a struct the
// sum of its fields. Every element starts a new slot, as fxc does for SM3.

// constSlots is the number of vector slots a value of type t occupies.
// ConstSlots is the number of vector slots (SM3 c# registers) a uniform
// of type t occupies: one per scalar or vector, per matrix row, per array
// element.
func ConstSlots(t *ir.Type) int { return constSlots(t) }

func constSlots(t *ir.Type) int {
	switch t.Kind {
	case ir.KMatrix:
		return t.Len
	case ir.KArray:
		return max(t.Len, 0) * constSlots(t.Elem)
	case ir.KStruct:
		n := 0
		for _, f := range t.Fields {
			n += constSlots(f.Type)
		}
		return n
	}
	return 1
}

// constComps is the widest slot of t (components used per slot).
func constComps(t *ir.Type) int {
	switch t.Kind {
	case ir.KVector:
		return t.Len
	case ir.KMatrix:
		return t.Cols
	case ir.KArray:
		return constComps(t.Elem)
	case ir.KStruct:
		n := 1
		for _, f := range t.Fields {
			n = max(n, constComps(f.Type))
		}
		return n
	}
	return 1
}

// constRef is a resolved read of uniform memory: the register array, the
// constant slot and component, and an optional dynamic slot index (a value
// counted in elements of stride slots each).
type constRef struct {
	reg    *Reg
	slot   int
	lane   int
	dyn    ir.Value
	stride int
	reach  int // slots from the indexed array's first one to its end
	start  int // the indexed array's first slot
}

// constReg resolves a pointer into uniform memory: g with the index path
// (dynAt: the position of the one dynamic index in path, -1 if none).
func (l *lowerer) constReg(in *ir.Instr, g *ir.Global, path []int, dynAt int, dyn ir.Value) (constRef, error) {
	t := g.ValType
	name := g.Name()
	rest := path
	if t.Kind == ir.KStruct && len(path) > 0 && dynAt != 0 {
		// A member of a cbuffer (or $Globals) is its own variable, named
		// as fxc's constant table names it.
		i := path[0]
		if i < 0 || i >= len(t.Fields) {
			return constRef{}, locErr(in, "field index %d out of range in %s", i, g.Ref())
		}
		name = t.Fields[i].Name // members of cbuffers are global names in HLSL
		t, rest, dynAt = t.Fields[i].Type, path[1:], dynAt-1
	}
	ref := constRef{lane: -1}
	vt := t
	for k, i := range rest {
		if k == dynAt {
			switch vt.Kind {
			case ir.KArray:
				ref.dyn, ref.stride, ref.reach, ref.start, vt = dyn, constSlots(vt.Elem), constSlots(vt), ref.slot, vt.Elem
			case ir.KMatrix:
				ref.dyn, ref.stride, ref.reach, ref.start, vt = dyn, 1, vt.Len, ref.slot, ir.Vec(vt.Elem, vt.Cols)
			default:
				return constRef{}, locErr(in, "dynamic index into %s in %s (only arrays and matrix rows of uniforms can be indexed dynamically)", vt, g.Ref())
			}
			continue
		}
		switch vt.Kind {
		case ir.KStruct:
			if i < 0 || i >= len(vt.Fields) {
				return constRef{}, locErr(in, "field index %d out of range in %s", i, g.Ref())
			}
			for _, f := range vt.Fields[:i] {
				ref.slot += constSlots(f.Type)
			}
			vt = vt.Fields[i].Type
		case ir.KArray:
			if i < 0 || i >= vt.Len {
				return constRef{}, locErr(in, "index %d out of range in %s", i, g.Ref())
			}
			ref.slot += i * constSlots(vt.Elem)
			vt = vt.Elem
		case ir.KMatrix:
			if i < 0 || i >= vt.Len {
				return constRef{}, locErr(in, "row %d out of range in %s", i, g.Ref())
			}
			ref.slot += i
			vt = ir.Vec(vt.Elem, vt.Cols)
		case ir.KVector:
			if i < 0 || i >= vt.Len {
				return constRef{}, locErr(in, "component %d out of range in %s", i, g.Ref())
			}
			ref.lane = i
			vt = vt.Elem
		default:
			if vt.IsScalar() && i == 0 {
				continue // component 0 of a one-component row
			}
			return constRef{}, locErr(in, "index into %s in %s", vt, g.Ref())
		}
	}
	if !vt.IsScalar() {
		return constRef{}, locErr(in, "load of %s from %s; SIR lowering expects scalarized IR", vt, g.Ref())
	}
	comps := constComps(t)
	if comps > 4 {
		return constRef{}, locErr(in, "%s has %d components per register", g.Ref(), comps)
	}
	key := "const:" + name
	r := l.named[key]
	if r == nil {
		r = l.f.NewReg(l.uniqueName(name), 32, comps, Group{0, 1}, FileConst)
		if n := constSlots(t); n > 1 {
			r.Elems = n
		}
		l.named[key] = r
	}
	if ref.lane < 0 {
		ref.lane = 0
	}
	ref.reg = r
	return ref, nil
}

// loadConst lowers a load from uniform memory: a mov from the slot, or for a
// dynamic index a movidx whose index is the IR index times the slot stride.
func (l *lowerer) loadConst(in *ir.Instr, ref constRef, emit func(Op, *Dst, ...Src) *Instr) error {
	s := Src{Reg: ref.reg, Elem: ref.slot}
	if ref.reg.Comps > 1 {
		s.Swizzle = []uint8{uint8(ref.lane)}
	}
	dst, err := l.result(in)
	if err != nil {
		return err
	}
	if dst.BitSize == 1 {
		// A bool uniform is stored as 0.0 / 1.0: the flag is "!= 0".
		emit(OpFCmp, D(dst), s, Imm32(0)).Cond = CondNE
		return nil
	}
	if ref.dyn == nil {
		emit(OpMov, D(dst), s)
		if s.Swizzle == nil && ref.reg.Elems <= 1 {
			l.loads[in] = ref.reg
		}
		return nil
	}
	idx, err := l.src(in, ref.dyn)
	if err != nil {
		return err
	}
	if ref.stride != 1 {
		scaled := l.f.NewReg(l.uniqueName(in.Name()+".idx"), 32, 1, l.all(), FileTemp)
		emit(OpFMul, D(scaled), idx, Imm32(f32bits(float32(ref.stride))))
		idx = R(scaled)
	}
	// The index reaches up to the end of the indexed array (or matrix).
	emit(OpMovIdx, D(dst), s, idx, Imm32(uint32(ref.start+ref.reach-ref.slot)))
	return nil
}

func f32bits(v float32) uint32 { return math.Float32bits(v) }
