package ir

// Resource arrays. A global array of resources is one global per element
// (Global.Array, ArrayIndex, ArrayLen); a dynamic index into it is a
// chain of selects over the elements, as the HLSL lowering writes it:
//
//	%is2 = icmp eq u32 %i, 2
//	%s2  = select bool %is2, ptr<…> @Out.2, @Out.3
//	%is1 = icmp eq u32 %i, 1
//	%s1  = select bool %is1, ptr<…> @Out.1, %s2
//	%is0 = icmp eq u32 %i, 0
//	%s0  = select bool %is0, ptr<…> @Out.0, %s1
//
// which the interpreter runs as written and the back ends turn into one
// indexed access (SPIR-V OpAccessChain into the arrayed descriptor, DXIL
// createHandle with a dynamic index): MatchResourceArrayIndex recognises
// it.

// ResourceArrayIndex is a select chain recognised as a dynamic index.
type ResourceArrayIndex struct {
	Last  *Global // the chain's last element (the one an index past the end selects)
	Index Value   // the index: element k is selected when it equals k
	// Inner are the chain's selects below the top one.
	Inner []*Instr
}

// MatchResourceArrayIndex reports whether sel is a select chain over
// every element of one resource array, each chosen when one value equals
// its own index (icmp eq with a constant) and the last element otherwise.
// For an index in range the chain is that element; past the end it is
// the last one.
func MatchResourceArrayIndex(sel *Instr) (ResourceArrayIndex, bool) {
	var r ResourceArrayIndex
	seen := map[int]bool{}
	var first *Global
	var x Value = sel
	for {
		s, ok := x.(*Instr)
		if !ok || s.Op != OpSelect || s.Type().Kind != KPointer {
			break
		}
		if s != sel {
			r.Inner = append(r.Inner, s)
		}
		c, ok := s.Args[0].(*Instr)
		if !ok || c.Op != OpICmp || c.Pred != PredEQ || !c.Args[0].Type().IsScalar() {
			return ResourceArrayIndex{}, false
		}
		v, k := c.Args[0], c.Args[1]
		kc, isConst := k.(*Const)
		if !isConst {
			v, k = k, v
			if kc, isConst = k.(*Const); !isConst {
				return ResourceArrayIndex{}, false
			}
		}
		if r.Index == nil {
			r.Index = v
		} else if r.Index != v {
			return ResourceArrayIndex{}, false
		}
		g, ok := s.Args[1].(*Global)
		if !ok || g.ArrayLen == 0 || int64(g.ArrayIndex) != kc.Int() || seen[g.ArrayIndex] {
			return ResourceArrayIndex{}, false
		}
		if first == nil {
			first = g
		} else if !SameResourceArray(first, g) {
			return ResourceArrayIndex{}, false
		}
		seen[g.ArrayIndex] = true
		x = s.Args[2]
	}
	last, ok := x.(*Global)
	if !ok || first == nil || last.ArrayLen == 0 || !SameResourceArray(first, last) || seen[last.ArrayIndex] || len(seen)+1 != last.ArrayLen {
		return ResourceArrayIndex{}, false
	}
	r.Last = last
	return r, true
}

// SameResourceArray reports whether two element globals belong to one
// resource array: same name, length, space, kind, set and first register.
func SameResourceArray(a, b *Global) bool {
	base := func(g *Global) int {
		if g.Binding < 0 {
			return -1
		}
		return g.Binding - g.ArrayIndex
	}
	return a.ArrayLen > 0 && a.Array == b.Array && a.ArrayLen == b.ArrayLen && a.Space == b.Space && a.Kind == b.Kind && a.Set == b.Set && base(a) == base(b)
}

// UnboundedArray is Global.ArrayLen of an unbounded resource array
// (RWBuffer<int> Buf[] : register(u0)): one global, printed
// `array "Buf" 0 of ?`, that is the array's element 0 and names the
// array; element i (i may differ between lanes) is res.index(@Buf, i).
// The interpreter binds as many elements as the run input gives
// (buffers "Buf.0", "Buf.1", …; an index past them reads zero and
// writes nothing), SPIR-V declares an OpTypeRuntimeArray of the element's
// Block, DXIL-style an indexed call (docs/ir.md).
const UnboundedArray = -1

// ResIndex is the name of the intrinsic res.index(ptr @Buf, u32 i): a
// pointer (of @Buf's type) to element i of the unbounded resource array
// @Buf.
const ResIndex = "res.index"

func init() {
	def(ResIndex, AttrPure, 2, 2, "res.index(ptr @Buf, u32 i): pointer to element i of the unbounded resource array @Buf (a global `array … of ?`)")
}

// checkResIndex verifies a res.index call: an unbounded array global, an
// integer index, the global's pointer type as result.
func checkResIndex(in *Instr, bad func(string, ...any)) {
	g, ok := in.Args[0].(*Global)
	if !ok || g.ArrayLen != UnboundedArray {
		bad("res.index needs an unbounded resource array global (array … of ?) as operand 0, not %s", in.Args[0].Ref())
		return
	}
	if t := in.Args[1].Type(); !t.IsScalar() || !t.IsIntegral() {
		bad("res.index index has type %s, want an integer scalar", t)
	}
	if in.Type() != g.Type() {
		bad("res.index result has type %s, want %s", in.Type(), g.Type())
	}
}
