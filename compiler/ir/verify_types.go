package ir

import "fmt"

// The verifier's type rules for one instruction. The regular rules come
// from the op table (optable.go): the result must be void for ResultNone
// ops, the operand count must be within [MinArgs, MaxArgs], the operands
// in OpInfo.Same must share one type, operand 0 must be of the class
// OpInfo.Operands, and the result type must be what OpInfo.Result derives
// from the operands. What is irregular (an atomic's count depending on its
// kind, a predicate allowing bool operands, index paths, the callee's
// signature, branch targets) is a small per-op check in opChecks, run after
// the regular operand rules and before the result rule.

// badFunc reports one problem with the instruction being checked.
type badFunc = func(format string, args ...any)

// opCheck is an op's irregular rule. It returns false when the operands are
// so wrong that the result-type rule would only add noise.
type opCheck func(v *verifier, in *Instr, bad badFunc) bool

var opChecks [numOps]opCheck

func init() {
	// init, not a composite literal: the checks refer to the verifier,
	// whose methods refer back to this table.
	for op := range numOps {
		if op.IsCast() {
			opChecks[op] = checkCast
		}
	}
	opChecks[OpICmp] = checkCmp
	opChecks[OpFCmp] = checkCmp
	opChecks[OpCopy] = checkCopy
	opChecks[OpSelect] = checkSelect
	opChecks[OpConstruct] = checkConstruct
	opChecks[OpExtractElem] = checkExtractElem
	opChecks[OpInsertElem] = checkInsertElem
	opChecks[OpShuffle] = checkShuffle
	opChecks[OpExtractValue] = checkExtractValue
	opChecks[OpInsertValue] = checkInsertValue
	opChecks[OpAlloca] = checkAlloca
	opChecks[OpLoad] = checkLoad
	opChecks[OpStore] = checkStore
	opChecks[OpAccess] = checkAccess
	opChecks[OpMemcpy] = checkMemcpy
	opChecks[OpMemset] = checkMemset
	opChecks[OpAtomic] = checkAtomic
	opChecks[OpCall] = checkCall
	opChecks[OpIntrinsic] = checkIntrinsic
	opChecks[OpCondBr] = checkCondBr
	opChecks[OpSwitch] = checkSwitch
	opChecks[OpRet] = checkRet
}

// operandClassWords describe an OperandClass in messages: binary ops say
// "needs integer scalar or vector operands", unary ones "needs an integer
// operand".
var operandClassWords = [...]struct {
	kinds []Kind
	words string
}{
	OperandsInt:     {[]Kind{KInt, KUint}, "integer"},
	OperandsIntBool: {[]Kind{KInt, KUint, KBool}, "integer or bool"},
	OperandsFloat:   {[]Kind{KFloat}, "f32"},
	OperandsNumeric: {[]Kind{KInt, KUint, KFloat}, "non-bool"},
}

// types checks in's operand and result types (its operands are known to be
// non-nil values with types).
func (v *verifier) types(bi int, b *Block, j int, in *Instr, bad badFunc) {
	op := in.Op
	info := &opTable[op]
	a := in.Args
	if info.Result == ResultNone && in.typ != Void {
		bad("%s produces no value but has result type %s", op, in.typ)
	}
	if n := len(a); n < info.MinArgs || (info.MaxArgs != Variadic && n > info.MaxArgs) {
		switch {
		case info.FixedArity():
			bad("%s takes %s, has %d", op, countN(info.MinArgs, "operand"), n)
		case info.MaxArgs == Variadic:
			bad("%s takes at least %s, has %d", op, countN(info.MinArgs, "operand"), n)
		default:
			bad("%s takes %d to %d operands, has %d", op, info.MinArgs, info.MaxArgs, n)
		}
		return
	}
	var shared *Type
	for i := range a {
		if info.Same&(1<<i) == 0 {
			continue
		}
		if shared == nil {
			shared = a[i].Type()
		} else if a[i].Type() != shared {
			bad("operand types differ: %s and %s", shared, a[i].Type())
			return
		}
	}
	if c := info.Operands; c != OperandsAny {
		w := operandClassWords[c]
		if t := a[0].Type(); !isClass(t, w.kinds...) {
			if len(a) == 1 {
				bad("%s needs an %s operand, not %s", op, w.words, t)
			} else {
				bad("%s needs %s scalar or vector operands, not %s", op, w.words, t)
			}
		}
	}
	if op == OpPhi {
		v.phi(bi, b, j, in, bad) // needs the block's predecessors
	} else if chk := opChecks[op]; chk != nil && !chk(v, in, bad) {
		return
	}
	if info.Aux == AuxSuccs {
		if len(in.Succs) != info.NumSuccs {
			bad("%s needs exactly %s, has %d", op, countWords(info.NumSuccs, "target"), len(in.Succs))
			return
		}
		for _, t := range in.Succs {
			v.target(t, bad)
		}
	}
	switch info.Result {
	case ResultNone:
	case ResultBoolShape:
		// Checked without building the bool vector type (Vec interns).
		if t := a[0].Type(); !isBoolOf(in.typ, t) {
			bad("result type is %s, want %s", in.typ, BoolOf(t))
		}
	default:
		if want := ResultTypeOf(op, a); want != nil && in.typ != want {
			bad("result type is %s, want %s", in.typ, want)
		}
	}
}

func checkCmp(_ *verifier, in *Instr, bad badFunc) bool {
	t := in.Args[0].Type()
	if in.Op == OpICmp {
		if !in.Pred.IsInt() {
			bad("invalid icmp predicate %q", in.Pred.String())
		}
		if !isClass(t, KInt, KUint) && !(isClass(t, KBool) && (in.Pred == PredEQ || in.Pred == PredNE)) {
			bad("icmp %s needs integer operands (bool only for eq/ne), not %s", in.Pred, t)
		}
		return true
	}
	if !in.Pred.IsFloat() {
		bad("invalid fcmp predicate %q", in.Pred.String())
	}
	if !isClass(t, KFloat) {
		bad("fcmp needs f32 operands, not %s", t)
	}
	return true
}

func checkCopy(_ *verifier, in *Instr, bad badFunc) bool {
	if in.Args[0].Type() == Void {
		bad("copy of a void value")
	}
	return true
}

func checkSelect(_ *verifier, in *Instr, bad badFunc) bool {
	c, t := in.Args[0].Type(), in.Args[1].Type()
	if c != Bool && !(c.Kind == KVector && c.Elem == Bool && t.Kind == KVector && t.Len == c.Len) {
		bad("select condition has type %s, want bool (or a bool vector of the operands' length)", c)
	}
	if t == Void {
		bad("select of void values")
	}
	return true
}

// checkCast checks a conversion against its op's CastRule.
func checkCast(_ *verifier, in *Instr, bad badFunc) bool {
	s, d := in.Args[0].Type(), in.typ
	rule := opTable[in.Op].Cast
	if rule.Size == CastEqualBits && s.Kind == KPointer && d.Kind == KPointer {
		return true // pointer casts (LLVM addrspacecast, opaque-pointer reinterpretation)
	}
	shape := func(t *Type) (*Type, int, bool) {
		switch {
		case t.IsScalar():
			return t, 1, true
		case t.Kind == KVector && t.Elem != nil:
			return t.Elem, t.Len, true
		}
		return nil, 0, false
	}
	se, sl, ok1 := shape(s)
	de, dl, ok2 := shape(d)
	if !ok1 || !ok2 {
		bad("%s converts scalars and vectors, not %s to %s", in.Op, s, d)
		return true
	}
	if rule.Size != CastEqualBits && sl != dl {
		bad("%s changes the vector length: %s to %s", in.Op, s, d)
		return true
	}
	from, to := operandClassWords[rule.From], operandClassWords[rule.To]
	classOK := isClass(se, from.kinds...) && isClass(de, to.kinds...)
	switch rule.Size {
	case CastAnySize:
		if !classOK {
			bad("%s converts %ss to %ss, not %s to %s", in.Op, castNouns[rule.From], castNouns[rule.To], s, d)
		}
	case CastEqualBits:
		if !classOK || sl*se.Bits != dl*de.Bits {
			bad("%s needs %s types of equal size, not %s to %s", in.Op, from.words, s, d)
		}
	case CastNarrower, CastWider:
		narrower := rule.Size == CastNarrower
		if !classOK || (narrower && de.Bits >= se.Bits) || (!narrower && de.Bits <= se.Bits) {
			rel := "wider"
			if narrower {
				rel = "narrower"
			}
			bad("%s needs a %s %s result, not %s to %s", in.Op, rel, castNouns[rule.To], s, d)
		}
	}
	return true
}

// castNouns name a cast's operand classes in messages.
var castNouns = [...]string{OperandsInt: "integer", OperandsFloat: "float", OperandsIntBool: "integer", OperandsNumeric: "non-bool"}

func checkConstruct(_ *verifier, in *Instr, bad badFunc) bool {
	rt := in.typ
	switch rt.Kind {
	case KVector, KMatrix, KArray, KStruct:
	default:
		bad("construct needs an aggregate result type, not %s", rt)
		return false
	}
	if rt.Kind == KArray && rt.Len < 0 {
		bad("cannot construct a runtime-sized array")
		return false
	}
	n := rt.NumElems()
	if len(in.Args) != n {
		bad("construct %s needs %d components, has %d", rt, n, len(in.Args))
		return false
	}
	for i, x := range in.Args {
		if want := rt.ElemType(i); x.Type() != want {
			bad("component %d has type %s, want %s", i, x.Type(), want)
		}
	}
	return true
}

func checkExtractElem(_ *verifier, in *Instr, bad badFunc) bool {
	if vt := in.Args[0].Type(); vt.Kind != KVector {
		bad("extractelement needs a vector, not %s", vt)
		return false
	}
	if it := in.Args[1].Type(); !isIntegralScalar(it) {
		bad("index has type %s, want i32 or u32", it)
	}
	return true
}

func checkInsertElem(_ *verifier, in *Instr, bad badFunc) bool {
	vt := in.Args[0].Type()
	if vt.Kind != KVector {
		bad("insertelement needs a vector, not %s", vt)
		return false
	}
	if et := in.Args[1].Type(); et != vt.Elem {
		bad("inserted element has type %s, want %s", et, vt.Elem)
	}
	if it := in.Args[2].Type(); !isIntegralScalar(it) {
		bad("index has type %s, want i32 or u32", it)
	}
	return true
}

func checkShuffle(_ *verifier, in *Instr, bad badFunc) bool {
	ta, tb := in.Args[0].Type(), in.Args[1].Type()
	if ta.Kind != KVector || tb.Kind != KVector || ta.Elem != tb.Elem {
		bad("shuffle needs two vectors of one element type, not %s and %s", ta, tb)
		return false
	}
	if len(in.Idx) < 2 {
		bad("shuffle mask has %d entries; a shuffle must produce a vector (use extractvalue for one component)", len(in.Idx))
		return false
	}
	for _, k := range in.Idx {
		if k < 0 || k >= ta.Len+tb.Len {
			bad("shuffle mask index %d is out of range [0, %d)", k, ta.Len+tb.Len)
		}
	}
	if rt := in.typ; rt.Kind != KVector || rt.Elem != ta.Elem || rt.Len != len(in.Idx) {
		bad("result type is %s, want <%d x %s>", rt, len(in.Idx), ta.Elem)
	}
	return true
}

// checkPath checks an extractvalue/insertvalue index path into operand 0
// and returns the indexed type (nil after reporting a problem).
func checkPath(in *Instr, bad badFunc) *Type {
	at := in.Args[0].Type()
	if !at.IsAggregate() {
		bad("%s needs an aggregate, not %s", in.Op, at)
		return nil
	}
	if len(in.Idx) == 0 {
		bad("%s needs at least one index", in.Op)
		return nil
	}
	et := at.IndexPath(in.Idx)
	if et == nil {
		bad("index path %v is out of range for %s", in.Idx, at)
	}
	return et
}

func checkExtractValue(_ *verifier, in *Instr, bad badFunc) bool {
	et := checkPath(in, bad)
	if et != nil && in.typ != et {
		bad("result type is %s, want %s", in.typ, et)
	}
	return et != nil
}

func checkInsertValue(_ *verifier, in *Instr, bad badFunc) bool {
	et := checkPath(in, bad)
	if et == nil {
		return false
	}
	if t := in.Args[1].Type(); t != et {
		bad("inserted value has type %s, want %s", t, et)
	}
	return true
}

func checkAlloca(_ *verifier, in *Instr, bad badFunc) bool {
	if rt := in.typ; rt.Kind != KPointer || rt.Space != SpaceFunction {
		bad("alloca result must be a ptr<function, T>, not %s", rt)
	} else if holdsRuntimeArray(rt.Elem) {
		bad("cannot allocate a runtime-sized array")
	}
	return true
}

func checkLoad(_ *verifier, in *Instr, bad badFunc) bool {
	pt := in.Args[0].Type()
	if pt.Kind != KPointer {
		bad("load needs a pointer, not %s", pt)
		return false
	}
	if holdsRuntimeArray(pt.Elem) {
		bad("cannot load a value holding a runtime-sized array")
	}
	return true
}

func checkStore(_ *verifier, in *Instr, bad badFunc) bool {
	pt := in.Args[1].Type()
	if pt.Kind != KPointer {
		bad("store needs a pointer as its second operand, not %s", pt)
		return false
	}
	if t := in.Args[0].Type(); pt.Elem != t {
		bad("stored value has type %s, but the pointer points to %s", t, pt.Elem)
	}
	if why := readOnlyPointer(in.Args[1]); why != "" {
		bad("store through a read-only pointer: %s", why)
	}
	return true
}

func checkAccess(_ *verifier, in *Instr, bad badFunc) bool {
	bt := in.Args[0].Type()
	if bt.Kind != KPointer {
		bad("access needs a pointer base, not %s", bt)
		return false
	}
	pointee, why := accessPointee(bt, in.Args[1:])
	if why != "" {
		bad("%s", why)
		return false
	}
	if rt := in.typ; rt.Kind != KPointer || rt.Space != bt.Space || rt.Elem != pointee {
		bad("result type is %s, want ptr<%s, %s>", rt, bt.Space, pointee)
	}
	return true
}

func checkMemcpy(_ *verifier, in *Instr, bad badFunc) bool {
	d, s := in.Args[0].Type(), in.Args[1].Type()
	if d.Kind != KPointer || s.Kind != KPointer || d.Elem != s.Elem {
		bad("memcpy needs two pointers to one type, not %s and %s", d, s)
		return false
	}
	if why := readOnlyPointer(in.Args[0]); why != "" {
		bad("memcpy into a read-only pointer: %s", why)
	}
	return true
}

func checkMemset(_ *verifier, in *Instr, bad badFunc) bool {
	if t := in.Args[0].Type(); t.Kind != KPointer {
		bad("memset needs a pointer, not %s", t)
		return false
	}
	if t := in.Args[1].Type(); !isIntegralScalar(t) {
		bad("memset byte has type %s, want i32 or u32", t)
	}
	if why := readOnlyPointer(in.Args[0]); why != "" {
		bad("memset of a read-only pointer: %s", why)
	}
	return true
}

func checkAtomic(_ *verifier, in *Instr, bad badFunc) bool {
	if !in.Atomic.Valid() {
		bad("invalid atomic operation %q", in.Atomic.String())
		return false
	}
	if want := in.Atomic.NumOperands(); len(in.Args) != want {
		bad("atomic takes %d operands, has %d", want, len(in.Args))
		return false
	}
	pt := in.Args[0].Type()
	if pt.Kind != KPointer || !isIntegralScalar(pt.Elem) {
		bad("atomic needs a pointer to i32 or u32, not %s", pt)
		return false
	}
	if why := readOnlyPointer(in.Args[0]); why != "" {
		bad("atomic on a read-only pointer: %s", why)
	}
	for i := 1; i < len(in.Args); i++ {
		if t := in.Args[i].Type(); t != pt.Elem {
			bad("operand %d has type %s, want %s", i, t, pt.Elem)
		}
	}
	return true
}

func checkCall(v *verifier, in *Instr, bad badFunc) bool {
	c := in.Callee
	if c == nil {
		bad("call has no callee")
		return false
	}
	if v.funcSet != nil && !v.funcSet[c] {
		bad("callee @%s is not in the module", quoteName(c.name))
	}
	if len(in.Args) != len(c.Params) {
		bad("call of @%s passes %d arguments, want %d", quoteName(c.name), len(in.Args), len(c.Params))
	} else {
		for i, p := range c.Params {
			if p != nil && in.Args[i].Type() != p.typ {
				bad("argument %d has type %s, want %s", i, in.Args[i].Type(), tstr(p.typ))
			}
		}
	}
	if in.typ != c.Ret {
		bad("result type is %s, want %s", in.typ, c.Ret)
	}
	return true
}

func checkIntrinsic(_ *verifier, in *Instr, bad badFunc) bool {
	it := in.Intr
	if it == nil {
		bad("intrinsic call has no intrinsic")
		return false
	}
	if LookupIntrinsic(it.Name) != it {
		bad("intrinsic %q is not in the intrinsic table", it.Name)
		return false
	}
	if n := len(in.Args); n < it.MinArgs || n > it.MaxArgs {
		if it.MinArgs == it.MaxArgs {
			bad("intrinsic %s takes %d arguments, has %d", it.Name, it.MinArgs, n)
		} else {
			bad("intrinsic %s takes %d to %d arguments, has %d", it.Name, it.MinArgs, it.MaxArgs, n)
		}
		return true
	}
	if it.Name == ResIndex {
		checkResIndex(in, bad)
	}
	return true
}

func checkCondBr(_ *verifier, in *Instr, bad badFunc) bool {
	if t := in.Args[0].Type(); t != Bool {
		bad("condition has type %s, want bool", t)
	}
	return true
}

func checkSwitch(v *verifier, in *Instr, bad badFunc) bool {
	st := in.Args[0].Type()
	if !isIntegralScalar(st) {
		bad("switch selector has type %s, want i32 or u32", st)
	}
	defaults := 0
	seen := map[int64]bool{}
	for ci, c := range in.Cases {
		if c.Default {
			defaults++
		}
		if !c.Default && len(c.Values) == 0 {
			bad("case group %d has neither values nor default", ci)
		}
		for _, val := range c.Values {
			if seen[val] {
				bad("duplicate case value %d", val)
			}
			seen[val] = true
			if isIntegralScalar(st) && !fitsInt(st, val) {
				bad("case value %d does not fit %s", val, st)
			}
		}
		v.target(c.Target, bad)
	}
	if defaults != 1 {
		bad("switch needs exactly one default, has %d", defaults)
	}
	return true
}

func checkRet(v *verifier, in *Instr, bad badFunc) bool {
	a := in.Args
	if v.f.Ret == Void || v.f.Ret == nil {
		if len(a) != 0 {
			bad("ret with a value in a function returning void")
		}
	} else if len(a) != 1 {
		bad("ret needs a %s value", v.f.Ret)
	} else if a[0].Type() != v.f.Ret {
		bad("returns %s, but the function returns %s", a[0].Type(), v.f.Ret)
	}
	return true
}

// countWords spells a small count with its noun: "one target", "two targets".
func countWords(n int, noun string) string {
	words := [...]string{"no", "one", "two", "three"}
	w := fmt.Sprint(n)
	if n >= 0 && n < len(words) {
		w = words[n]
	}
	if n != 1 {
		noun += "s"
	}
	return w + " " + noun
}

// countN writes a count with its noun: "1 operand", "2 operands".
func countN(n int, noun string) string {
	if n != 1 {
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}
