package sir

import (
	"fmt"

	"passlens/compiler/ir"
)

// Local memory — function variables (allocas) and static globals of
// aggregate type — becomes one temporary per scalar, named after the
// variable and its index path ("arr[2]", "s[1][0]"). SM3 cannot index
// temporaries at run time, so a dynamic index selects: a load is a chain
// "r = elem0; r = (i == k) ? elemk : r" over the indexed array's elements,
// a store writes every element "elemk = (i == k) ? v : elemk". An index out
// of range reads element 0 and writes nothing.

// maxLocalScalars bounds the temporaries one aggregate variable may take.
const maxLocalScalars = 256

// localLeaf returns the temporary of one scalar of a local aggregate: the
// alloca or static global base with the constant index path.
func (l *lowerer) localLeaf(in *ir.Instr, ref ptrRef, path []int) (*Reg, error) {
	if ref.global != nil {
		return l.privateReg(in, ref.global, path)
	}
	t := ref.alloca.Type().Elem
	name := ref.alloca.Name()
	for _, i := range path {
		if !t.IsAggregate() || i < 0 || i >= t.NumElems() {
			return nil, locErr(in, "index %d into %s in %s", i, t, ref.alloca.Ref())
		}
		t = t.ElemType(i)
		name += fmt.Sprintf("[%d]", i)
	}
	if !t.IsScalar() {
		return nil, locErr(in, "access to %s in %s; SIR lowering expects scalarized IR", t, ref.alloca.Ref())
	}
	key := fmt.Sprintf("local:%p:%s", ref.alloca, name)
	if r := l.named[key]; r != nil {
		return r, nil
	}
	if n := ref.alloca.Type().Elem.ScalarCount(); n > maxLocalScalars {
		return nil, locErr(in, "%s has %d scalars; SM3 temporaries hold at most %d of one variable", ref.alloca.Ref(), n, maxLocalScalars)
	}
	bits := 32
	if t.Kind == ir.KBool {
		bits = 1
	}
	r := l.f.NewReg(l.uniqueName(name), bits, 1, l.all(), FileTemp)
	l.named[key] = r
	return r, nil
}

// localArrayLen is the length of the array the dynamic index of ref
// selects in.
func localArrayLen(ref ptrRef) int {
	var t *ir.Type
	if ref.global != nil {
		t = ref.global.ValType
	} else {
		t = ref.alloca.Type().Elem
	}
	for _, i := range ref.path[:ref.dynAt] {
		t = t.ElemType(i)
	}
	if t == nil || !t.IsAggregate() {
		return 0
	}
	return t.NumElems()
}

// localAccess lowers a load (val == nil) or store of local memory.
func (l *lowerer) localAccess(in *ir.Instr, ref ptrRef, val *Src, emit func(Op, *Dst, ...Src) *Instr) error {
	if ref.dyn == nil {
		r, err := l.localLeaf(in, ref, ref.path)
		if err != nil {
			return err
		}
		if val != nil {
			emit(OpMov, D(r), *val)
			return nil
		}
		dst, err := l.result(in)
		if err != nil {
			return err
		}
		emit(OpMov, D(dst), R(r))
		return nil
	}
	n := localArrayLen(ref)
	if n < 1 {
		return locErr(in, "dynamic index into a non-array")
	}
	idx, err := l.src(in, ref.dyn)
	if err != nil {
		return err
	}
	leaf := func(k int) (*Reg, error) {
		p := append([]int(nil), ref.path...)
		p[ref.dynAt] = k
		return l.localLeaf(in, ref, p)
	}
	is := func(k int) *Reg {
		c := l.f.NewReg(l.uniqueName(fmt.Sprintf("%s.is%d", in.Name(), k)), 1, 1, l.all(), FileTemp)
		emit(OpFCmp, D(c), idx, Imm32(f32bits(float32(k)))).Cond = CondEQ
		return c
	}
	if val != nil {
		for k := 0; k < n; k++ {
			r, err := leaf(k)
			if err != nil {
				return err
			}
			emit(OpSel, D(r), R(is(k)), *val, R(r))
		}
		return nil
	}
	dst, err := l.result(in)
	if err != nil {
		return err
	}
	first, err := leaf(0)
	if err != nil {
		return err
	}
	emit(OpMov, D(dst), R(first))
	for k := 1; k < n; k++ {
		r, err := leaf(k)
		if err != nil {
			return err
		}
		emit(OpSel, D(dst), R(is(k)), R(r), R(dst))
	}
	return nil
}

// isLocal reports local memory: an aggregate alloca or a static global.
func isLocal(ref ptrRef) bool {
	return ref.alloca != nil && ref.alloca.Type().Elem.IsAggregate() || ref.global != nil && ref.global.Space == ir.SpacePrivate
}

// localRef resolves a pointer into local memory (see isLocal).
func (l *lowerer) localRef(p ir.Value) (ptrRef, bool) {
	ref, ok := l.ptrs[p]
	if !ok {
		g, isG := p.(*ir.Global)
		if !isG {
			return ptrRef{}, false
		}
		ref = ptrRef{global: g, dynAt: -1}
	}
	return ref, isLocal(ref)
}
