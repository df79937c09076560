package ir

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// opExamples is a module using every op at least once, in the printer's
// canonical spelling. TestOpTableExamples fails for an op missing here, so
// a new op gets a textual example along with its table entry.
const opExamples = `@g = global groupshared u32
@buf = global storage [? x u32] binding 0, 0

declare f32 @h(f32 %x)

define void @ops(i32 %a, i32 %b, f32 %x, f32 %y, bool %c, <4 x f32> %v, u32 %i, <2 x bool> %bv) {
entry:
  %add = add i32 %a, %b
  %sub = sub i32 %a, %b
  %mul = mul i32 %a, %b
  %sdiv = sdiv i32 %a, %b
  %udiv = udiv u32 %i, %i
  %srem = srem i32 %a, %b
  %urem = urem u32 %i, %i
  %shl = shl i32 %a, %b
  %lshr = lshr i32 %a, %b
  %ashr = ashr i32 %a, %b
  %and = and bool %c, %c
  %or = or i32 %a, %b
  %xor = xor <2 x bool> %bv, %bv
  %not = not i32 %a
  %neg = neg i32 %a
  %fadd = fadd f32 %x, %y
  %fsub = fsub f32 %x, %y
  %fmul = fmul <4 x f32> %v, %v
  %fdiv = fdiv f32 %x, %y
  %frem = frem f32 %x, %y
  %fneg = fneg f32 %x
  %icmp = icmp slt i32 %a, %b
  %icmpb = icmp eq bool %c, true
  %fcmp = fcmp ult f32 %x, %y
  %fcmpo = fcmp oge <4 x f32> %v, %v
  %sel = select bool %c, i32 %a, %b
  %selv = select <2 x bool> %bv, <2 x bool> %bv, %bv
  %sitofp = sitofp i32 %a to f32
  %uitofp = uitofp u32 %i to f32
  %fptosi = fptosi f32 %x to i32
  %fptoui = fptoui f32 %x to u32
  %bitcast = bitcast f32 %x to i32
  %zext = zext i32 %a to i64
  %trunc = trunc i64 %zext to i32
  %sext = sext i32 %a to i64
  %fpext = fpext f32 %x to f64
  %fptrunc = fptrunc f64 %fpext to f32
  %con = construct <2 x f32> (f32 %x, f32 %y)
  %ee = extractelement <4 x f32> %v, u32 %i
  %ie = insertelement <4 x f32> %v, f32 %x, u32 %i
  %sh = shuffle <4 x f32> %v, <4 x f32> %v, [0, 5, 7]
  %ev = extractvalue <4 x f32> %v, 2
  %iv = insertvalue <4 x f32> %v, f32 %x, 1
  %cp = copy f32 %x
  %p = alloca f32
  store f32 %x, ptr<function, f32> %p
  %ld = load ptr<function, f32> %p
  %q = alloca f32
  memcpy ptr<function, f32> %q, ptr<function, f32> %p
  memset ptr<function, f32> %q, u32 0
  %el = access ptr<storage, [? x u32]> @buf, u32 %i
  %old = atomic add ptr<groupshared, u32> @g, u32 %i
  %cx = atomic cmpxchg ptr<groupshared, u32> @g, u32 %i, u32 0
  %call = call f32 @h(f32 %x)
  %sq = intr f32 sqrt(f32 %x)
  intr void GroupMemoryBarrierWithGroupSync()
  condbr bool %c, %l, %r
l:
  switch i32 %a [case 1, 2: %m] [case 3: %d] [default: %u]
r:
  br %m
m:
  %phi = phi i32 [%a, %l], [%b, %r]
  ret
d:
  discard
u:
  unreachable
}
`

// allOps lists every real op (OpInvalid excluded).
func allOps() []Op {
	var out []Op
	for op := OpInvalid + 1; op < numOps; op++ {
		out = append(out, op)
	}
	return out
}

// TestOpTableComplete: every op has a table entry whose fields are set and
// consistent with each other, and its spelling maps back to it.
func TestOpTableComplete(t *testing.T) {
	if len(opTable) != int(numOps) {
		t.Fatalf("opTable has %d entries for %d ops", len(opTable), numOps)
	}
	names := map[string]Op{}
	for _, op := range allOps() {
		info := op.Info()
		if info.Name == "" {
			t.Errorf("op %d has no name", op)
			continue
		}
		if prev, dup := names[info.Name]; dup {
			t.Errorf("%s and op %d share the spelling %q", prev, op, info.Name)
		}
		names[info.Name] = op
		if got := OpByName[info.Name]; got != op {
			t.Errorf("OpByName[%q] = %d, want %d", info.Name, got, op)
		}
		if op.String() != info.Name {
			t.Errorf("op %d prints as %q, table says %q", op, op.String(), info.Name)
		}
		if info.MinArgs < 0 || (info.MaxArgs != Variadic && info.MaxArgs < info.MinArgs) {
			t.Errorf("%s: bad arity [%d, %d]", op, info.MinArgs, info.MaxArgs)
		}
		if info.Result > ResultDerived {
			t.Errorf("%s: unknown result rule %d", op, info.Result)
		}
		if info.Result == ResultOperand && info.ResultArg >= info.MinArgs {
			t.Errorf("%s: result copies operand %d, but the op may have only %d", op, info.ResultArg, info.MinArgs)
		}
		if (info.Result == ResultBoolShape || info.Result == ResultElem || info.Result == ResultPointee) && info.MinArgs < 1 {
			t.Errorf("%s: result rule needs operand 0, but the op may have none", op)
		}
		if info.Same != 0 && int(info.Same) >= 1<<info.MinArgs {
			t.Errorf("%s: same-type mask %b names operands the op may not have (min %d)", op, info.Same, info.MinArgs)
		}
		if info.Operands != OperandsAny && info.MinArgs < 1 {
			t.Errorf("%s: operand class without operands", op)
		}
		if info.LastBare && (info.Syntax != SyntaxOperands || !info.FixedArity() || info.MinArgs < 2) {
			t.Errorf("%s: a bare last operand needs a fixed operand list of at least two", op)
		}
		if (info.Aux == AuxSuccs) != (info.NumSuccs > 0) {
			t.Errorf("%s: aux %d with %d successors", op, info.Aux, info.NumSuccs)
		}
		// Irregular results need a rule that checks them.
		if (info.Result == ResultWritten || info.Result == ResultDerived) && opChecks[op] == nil && op != OpPhi {
			t.Errorf("%s: result rule %d but no per-op verifier check", op, info.Result)
		}
		// An op with neither a class rule nor a per-op check would accept
		// operands of any type.
		if info.Operands == OperandsAny && info.Same == 0 && opChecks[op] == nil && op != OpPhi && info.MaxArgs != 0 {
			t.Errorf("%s: operands are not checked by any rule", op)
		}
	}
	if info := OpInvalid.Info(); info.Flags != 0 || OpInvalid.IsTerminator() {
		t.Errorf("OpInvalid has properties: %+v", info)
	}
	if (numOps+1).Info() != (OpInfo{}) || (numOps + 1).IsTerminator() || (numOps + 1).IsBinary() {
		t.Errorf("an out-of-range op has properties")
	}
}

// TestOpFlagsConsistent: the flags do not contradict each other.
func TestOpFlagsConsistent(t *testing.T) {
	for _, op := range allOps() {
		info := op.Info()
		has := info.Has
		if has(FlagPure) && (has(FlagReadsMemory) || has(FlagWritesMemory) || has(FlagSideEffects) || has(FlagTerminator)) {
			t.Errorf("%s is pure but touches memory or has effects", op)
		}
		if has(FlagWritesMemory) && !has(FlagSideEffects) {
			t.Errorf("%s writes memory without side effects", op)
		}
		if has(FlagTerminator) && (!has(FlagSideEffects) || info.Result != ResultNone) {
			t.Errorf("%s: a terminator must have side effects and no result", op)
		}
		if has(FlagCommutative) && (!has(FlagPure) || info.Same != 0b11 || !info.FixedArity() || info.MinArgs != 2) {
			t.Errorf("%s: commutative ops are pure with two operands of one type", op)
		}
		if has(FlagElementwise) && !has(FlagPure) {
			t.Errorf("%s: elementwise ops are pure", op)
		}
		if has(FlagConvergent) {
			t.Errorf("%s: no op is convergent by itself (intrinsics carry it)", op)
		}
		if info.Result == ResultNone && !has(FlagSideEffects) {
			t.Errorf("%s has no result and no side effects: it would be dead on arrival", op)
		}
	}
}

// TestOpTableExamples: the example module uses every op, parses, verifies,
// and prints byte-identically (the table-driven printer and parser agree on
// each op's spelling), and every instruction's result type is the one its
// op's result rule derives.
func TestOpTableExamples(t *testing.T) {
	m, err := ParseModule("ops.pir", []byte(opExamples))
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(m); err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != opExamples {
		t.Errorf("print differs from the example text:\n%s", lineDiff(opExamples, got))
	}
	seen := map[Op]bool{}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				seen[in.Op] = true
				if want := ResultTypeOf(in.Op, in.Args); want != nil && want != in.Type() {
					t.Errorf("%s: result %s, rule says %s", in.Ref(), in.Type(), want)
				}
			}
		}
	}
	for _, op := range allOps() {
		if !seen[op] {
			t.Errorf("no example of %s in opExamples", op)
		}
	}
}

func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var sb strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			sb.WriteString("- " + a + "\n+ " + b + "\n")
		}
	}
	return sb.String()
}

// TestTerminatorsAgreeWithVerifier: moving an instruction of each op into
// the middle of a block is rejected as a misplaced terminator exactly when
// the table says the op is a terminator, and a block ending in it is
// rejected for lacking a terminator exactly when it is not.
func TestTerminatorsAgreeWithVerifier(t *testing.T) {
	checked := map[Op]bool{}
	for _, op := range allOps() {
		m, err := ParseModule("ops.pir", []byte(opExamples))
		if err != nil {
			t.Fatal(err)
		}
		f := m.Funcs[len(m.Funcs)-1]
		var in *Instr
		for _, b := range f.Blocks {
			for _, x := range b.Instrs {
				if x.Op == op && in == nil && op != OpPhi {
					in = x
				}
			}
		}
		if in == nil {
			continue // phi: placement rules of its own
		}
		checked[op] = true
		// In the middle: the entry block, before its last instruction.
		entry := f.Blocks[0]
		mid := &Instr{}
		*mid = *in
		mid.Block = entry
		n := len(entry.Instrs)
		entry.Instrs = append(entry.Instrs[:n-1:n-1], mid, entry.Instrs[n-1])
		err = VerifyFunction(f)
		misplaced := err != nil && strings.Contains(err.Error(), "terminator is not the last instruction")
		if misplaced != op.IsTerminator() {
			t.Errorf("%s in the middle of a block: verifier says misplaced=%v, table says terminator=%v (%v)", op, misplaced, op.IsTerminator(), err)
		}
		// At the end: replace the terminator of block d.
		entry.Instrs = append(entry.Instrs[:n-1:n-1], entry.Instrs[n])
		var d *Block
		for _, b := range f.Blocks {
			if b.Name() == "d" {
				d = b
			}
		}
		last := &Instr{}
		*last = *in
		last.Block = d
		d.Instrs = []*Instr{last}
		err = VerifyFunction(f)
		unterminated := err != nil && strings.Contains(err.Error(), "block does not end with a terminator")
		if unterminated == op.IsTerminator() {
			t.Errorf("%s ending a block: verifier says unterminated=%v, table says terminator=%v", op, unterminated, op.IsTerminator())
		}
	}
	if len(checked) != len(allOps())-1 {
		t.Errorf("checked %d ops, want all but phi", len(checked))
	}
}

// TestInstrProperties: the per-instruction properties combine the table
// with the intrinsic attributes.
func TestInstrProperties(t *testing.T) {
	m, err := ParseModule("ops.pir", []byte(opExamples))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Instr{}
	var barrier *Instr
	for _, b := range m.Funcs[len(m.Funcs)-1].Blocks {
		for _, in := range b.Instrs {
			byName[in.Name()] = in
			if in.Op == OpIntrinsic && !in.HasResult() {
				barrier = in
			}
		}
	}
	type props struct{ pure, effects, reads, writes, convergent bool }
	get := func(in *Instr) props {
		return props{in.IsPure(), in.HasSideEffects(), in.ReadsMemory(), in.WritesMemory(), in.IsConvergent()}
	}
	for name, want := range map[string]props{
		"add":  {pure: true},
		"fcmp": {pure: true},
		"el":   {pure: true}, // access: address arithmetic
		"p":    {},           // alloca: a distinct object each time
		"phi":  {},
		"ld":   {reads: true},
		"old":  {effects: true, reads: true, writes: true},
		"call": {effects: true, reads: true, writes: true},
		"sq":   {pure: true},
	} {
		in := byName[name]
		if in == nil {
			t.Fatalf("no %%%s in the examples", name)
		}
		if got := get(in); got != want {
			t.Errorf("%%%s (%s): got %+v, want %+v", name, in.Op, got, want)
		}
	}
	if got, want := get(barrier), (props{effects: true, reads: true, writes: true, convergent: true}); got != want {
		t.Errorf("barrier: got %+v, want %+v", got, want)
	}
	// Wave ops: a reduction is convergent and kept (not AttrPure) but does
	// not touch memory; the lane count is pure.
	f := m.Funcs[len(m.Funcs)-1]
	for name, want := range map[string]props{
		"WaveActiveSum":    {effects: true, convergent: true},
		"WaveGetLaneCount": {pure: true},
		"WaveGetLaneIndex": {pure: true},
		"sm3.rep":          {effects: true, reads: true, writes: true},
	} {
		in := NewInstr(f, OpIntrinsic, F32, "w")
		in.Intr = LookupIntrinsic(name)
		if got := get(in); got != want {
			t.Errorf("%s: got %+v, want %+v", name, got, want)
		}
	}
	unknown := &Instr{Op: OpIntrinsic, typ: Void}
	if !unknown.HasSideEffects() || unknown.IsPure() {
		t.Errorf("an intrinsic call without an intrinsic must be treated as effectful")
	}
}

// TestCmpPredAndAtomicKindSpelling: every predicate and atomic kind reads
// back from its spelling; icmp and fcmp share "ult"/"ule"/"ugt"/"uge" and
// the op decides which one is meant.
func TestCmpPredAndAtomicKindSpelling(t *testing.T) {
	n := 0
	for p := PredNone + 1; p < numCmpPreds; p++ {
		op := OpICmp
		if p.IsFloat() {
			op = OpFCmp
		}
		if p.IsInt() == p.IsFloat() {
			t.Errorf("%d is both or neither an icmp and an fcmp predicate", p)
		}
		got, ok := ParseCmpPred(op, p.String())
		if !ok || got != p {
			t.Errorf("ParseCmpPred(%s, %q) = %d, %v; want %d", op, p, got, ok, p)
		}
		n++
	}
	if n != 24 {
		t.Errorf("%d predicates, want 24", n)
	}
	if p, _ := ParseCmpPred(OpFCmp, "ult"); p != PredFULT {
		t.Errorf("fcmp ult = %d, want PredFULT", p)
	}
	if p, _ := ParseCmpPred(OpICmp, "ult"); p != PredULT {
		t.Errorf("icmp ult = %d, want PredULT", p)
	}
	for _, bad := range []struct {
		op Op
		s  string
	}{{OpICmp, "oeq"}, {OpFCmp, "slt"}, {OpICmp, ""}, {OpAtomic, "eq"}} {
		if _, ok := ParseCmpPred(bad.op, bad.s); ok {
			t.Errorf("ParseCmpPred(%s, %q) accepted", bad.op, bad.s)
		}
	}
	for k := AtomicNone + 1; k < numAtomicKinds; k++ {
		got, ok := ParseAtomicKind(k.String())
		if !ok || got != k || !k.Valid() {
			t.Errorf("ParseAtomicKind(%q) = %d, %v; want %d", k, got, ok, k)
		}
	}
	if _, ok := ParseAtomicKind("eq"); ok || AtomicNone.Valid() || numAtomicKinds.Valid() {
		t.Errorf("invalid atomic kinds accepted")
	}
	if AtomicCmpXchg.NumOperands() != 3 || AtomicAdd.NumOperands() != 2 {
		t.Errorf("atomic operand counts wrong")
	}
}

// TestRepositoryPIRRoundTrip: every .pir file under the repository's
// testdata directories parses, and print → parse → print is the identity.
func TestRepositoryPIRRoundTrip(t *testing.T) {
	root := filepath.Join("..", "..")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".pir") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		m, err := ParseModule(path, src)
		if err != nil {
			t.Errorf("%v", err)
			return nil
		}
		once := m.String()
		m2, err := ParseModule(path, []byte(once))
		if err != nil {
			t.Errorf("%s: printed form does not parse: %v", path, err)
			return nil
		}
		if twice := m2.String(); twice != once {
			t.Errorf("%s: print → parse → print differs:\n%s", path, lineDiff(once, twice))
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Errorf("found only %d .pir files under %s", n, root)
	}
}
