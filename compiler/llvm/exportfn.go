package llvm

import (
	"fmt"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// fnExporter writes one function body.
type fnExporter struct {
	x         *exporter
	f         *ir.Function
	sb        *strings.Builder
	alias     map[ir.Value]ir.Value // pointer casts that LLVM does not need
	numericOK bool                  // numbered names are in LLVM's order
	users     map[ir.Value][]*ir.Instr
	skip      map[*ir.Instr]bool
	fold      map[*ir.Instr]*ir.Instr // construct -> the cmpxchg it folds
	asMemo    map[ir.Value]int
	anon      map[*ir.Instr]string // helper base names of unnamed instructions
	names     map[string]bool      // every LLVM local name in use (helpers avoid them)
	helpers   map[helperKey]string // helper names already chosen
}

type helperKey struct {
	in     *ir.Instr
	suffix string
}

func (x *exporter) function(f *ir.Function) error {
	fx := &fnExporter{x: x, f: f, sb: &x.body, alias: map[ir.Value]ir.Value{},
		users: map[ir.Value][]*ir.Instr{}, skip: map[*ir.Instr]bool{}, fold: map[*ir.Instr]*ir.Instr{},
		asMemo: map[ir.Value]int{}}
	fx.checkNumbering()
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				fx.users[a] = append(fx.users[a], in)
			}
		}
	}
	fx.findFolds()
	ret, err := llTypeStr(f.Ret)
	if err != nil {
		return err
	}
	var ps []string
	for _, p := range f.Params {
		t, err := fx.typeOf(p)
		if err != nil {
			return err
		}
		if p.Uniform {
			t += " inreg"
		}
		ps = append(ps, t+" "+fx.ref(p))
	}
	fmt.Fprintf(fx.sb, "\ndefine %s%s @%s(%s) {\n", entryCC(f), ret, llName(f.Name()), strings.Join(ps, ", "))
	for _, b := range f.Blocks {
		fmt.Fprintf(fx.sb, "%s:\n", fx.local(b.Name()))
		for _, in := range b.Instrs {
			if fx.skip[in] {
				continue
			}
			if err := fx.instr(in); err != nil {
				return fmt.Errorf("%s: %w", ir.InstrString(in), err)
			}
		}
	}
	fx.sb.WriteString("}\n")
	return nil
}

// checkNumbering decides whether numeric names can be written bare: LLVM
// requires %0, %1, ... to appear in order (parameters, then blocks and
// values in layout order).
func (fx *fnExporter) checkNumbering() {
	next := 0
	ok := true
	see := func(n string) {
		if allDigits(n) {
			if n != strconv.Itoa(next) {
				ok = false
			}
			next++
		}
	}
	for _, p := range fx.f.Params {
		see(p.Name())
	}
	for _, b := range fx.f.Blocks {
		see(b.Name())
		for _, in := range b.Instrs {
			if in.HasResult() {
				see(in.Name())
			}
		}
	}
	fx.numericOK = ok
}

// findFolds finds the importer's cmpxchg expansion (x.old, x.ok, x) so it
// is written back as one cmpxchg.
func (fx *fnExporter) findFolds() {
	for _, b := range fx.f.Blocks {
		for _, in := range b.Instrs {
			if in.Op != ir.OpConstruct || len(in.Args) != 2 {
				continue
			}
			old, ok1 := in.Args[0].(*ir.Instr)
			okv, ok2 := in.Args[1].(*ir.Instr)
			if !ok1 || !ok2 || old.Op != ir.OpAtomic || old.Atomic != ir.AtomicCmpXchg || len(old.Args) != 3 ||
				okv.Op != ir.OpICmp || okv.Pred != ir.PredEQ || okv.Args[0] != old || okv.Args[1] != old.Args[2] ||
				old.Block != b || okv.Block != b {
				continue
			}
			if !onlyUsers(fx.users[old], okv, in) || !onlyUsers(fx.users[okv], in) {
				continue
			}
			fx.fold[in] = old
			fx.skip[old] = true
			fx.skip[okv] = true
		}
	}
}

func onlyUsers(us []*ir.Instr, allowed ...*ir.Instr) bool {
	for _, u := range us {
		found := false
		for _, a := range allowed {
			if u == a {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func (fx *fnExporter) local(n string) string {
	if fx.numericOK && allDigits(n) {
		return n
	}
	return llName(n)
}

func (fx *fnExporter) resolve(v ir.Value) ir.Value { return ir.Resolve(fx.alias, v) }

// ref spells a value operand.
func (fx *fnExporter) ref(v ir.Value) string {
	v = fx.resolve(v)
	switch v := v.(type) {
	case *ir.Const:
		s, err := constStr(v)
		if err != nil {
			return "undef"
		}
		return s
	case *ir.Global:
		return "@" + llName(v.Name())
	}
	return "%" + fx.local(v.Name())
}

// asOf is the LLVM address space of a pointer value: globals carry theirs
// (stage inputs differ from their passlens space), derived pointers inherit.
func (fx *fnExporter) asOf(v ir.Value) int {
	v = fx.resolve(v)
	if n, ok := fx.asMemo[v]; ok {
		return n
	}
	n := LLVMAddrSpace(v.Type().Space)
	fx.asMemo[v] = n // guards cycles through phis
	switch v := v.(type) {
	case *ir.Global:
		n = globalAS(v)
	case *ir.Instr:
		switch v.Op {
		case ir.OpAccess, ir.OpPhi, ir.OpSelect, ir.OpCopy:
			for _, a := range v.Args {
				if a.Type().Kind == ir.KPointer && a.Type().Space == v.Type().Space {
					n = fx.asOf(a)
					break
				}
			}
		case ir.OpBitcast:
			if a := v.Args[0]; a.Type().Kind == ir.KPointer && a.Type().Space == v.Type().Space {
				n = fx.asOf(a)
			}
		}
	}
	fx.asMemo[v] = n
	return n
}

// typeOf spells a value's type, with pointers in their actual space.
func (fx *fnExporter) typeOf(v ir.Value) (string, error) {
	t := v.Type()
	if t.Kind == ir.KPointer {
		if as := fx.asOf(v); as != 0 {
			return fmt.Sprintf("ptr addrspace(%d)", as), nil
		}
		return "ptr", nil
	}
	return llTypeStr(t)
}

func (fx *fnExporter) typed(v ir.Value) (string, error) {
	t, err := fx.typeOf(v)
	if err != nil {
		return "", err
	}
	return t + " " + fx.ref(v), nil
}

func (fx *fnExporter) typedList(vs []ir.Value) (string, error) {
	var parts []string
	for _, v := range vs {
		s, err := fx.typed(v)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", "), nil
}

func (fx *fnExporter) line(format string, args ...any) {
	fx.sb.WriteString("  ")
	fmt.Fprintf(fx.sb, format, args...)
	fx.sb.WriteByte('\n')
}

func (fx *fnExporter) def(in *ir.Instr) string { return "%" + fx.local(in.Name()) + " = " }

// helper names a temporary LLVM value that in expands to. Unnamed
// instructions (memcpy, memset, stores) get a base name unique in the
// function, so two of them never define the same LLVM value; a name that
// another value of the function already has gets a counter.
func (fx *fnExporter) helper(in *ir.Instr, suffix string) string {
	key := helperKey{in, suffix}
	if n, ok := fx.helpers[key]; ok {
		return n
	}
	if fx.names == nil {
		fx.names = map[string]bool{}
		for _, p := range fx.f.Params {
			fx.names[p.Name()] = true
		}
		for _, b := range fx.f.Blocks {
			fx.names[b.Name()] = true
			for _, x := range b.Instrs {
				if x.HasResult() {
					fx.names[x.Name()] = true
				}
			}
		}
		fx.helpers = map[helperKey]string{}
	}
	name := fx.helperBase(in) + "." + suffix
	for i := 1; fx.names[name]; i++ {
		name = fx.helperBase(in) + "." + suffix + ".h" + strconv.Itoa(i)
	}
	fx.names[name] = true
	n := "%" + llName(name)
	fx.helpers[key] = n
	return n
}

func (fx *fnExporter) helperBase(in *ir.Instr) string {
	base := in.Name()
	if base == "" {
		if fx.anon == nil {
			fx.anon = map[*ir.Instr]string{}
		}
		if b, ok := fx.anon[in]; ok {
			base = b
		} else {
			// A counter, not Function.UniqueName: export must not touch the
			// module, which snapshots share between goroutines.
			base = "anon." + strconv.Itoa(len(fx.anon))
			fx.anon[in] = base
		}
	}
	return base
}

var irOpNames = map[ir.Op]string{ir.OpAdd: "add", ir.OpSub: "sub", ir.OpMul: "mul", ir.OpSDiv: "sdiv",
	ir.OpUDiv: "udiv", ir.OpSRem: "srem", ir.OpURem: "urem", ir.OpShl: "shl", ir.OpLShr: "lshr",
	ir.OpAShr: "ashr", ir.OpAnd: "and", ir.OpOr: "or", ir.OpXor: "xor", ir.OpFAdd: "fadd",
	ir.OpFSub: "fsub", ir.OpFMul: "fmul", ir.OpFDiv: "fdiv", ir.OpFRem: "frem",
	ir.OpSIToFP: "sitofp", ir.OpUIToFP: "uitofp", ir.OpFPToSI: "fptosi", ir.OpFPToUI: "fptoui",
	ir.OpBitcast: "bitcast", ir.OpTrunc: "trunc", ir.OpZExt: "zext", ir.OpSExt: "sext",
	ir.OpFPTrunc: "fptrunc", ir.OpFPExt: "fpext"}

func (fx *fnExporter) instr(in *ir.Instr) error {
	a := in.Args
	rt := ""
	if in.HasResult() {
		var err error
		if rt, err = fx.typeOf(in); err != nil {
			return err
		}
	}
	switch op := in.Op; {
	case op.IsBinary():
		x, err := fx.typed(a[0])
		if err != nil {
			return err
		}
		fx.line("%s%s %s, %s", fx.def(in), irOpNames[op], x, fx.ref(a[1]))
	case op == ir.OpNot:
		ones := "-1"
		if in.Type().Scalar() == ir.Bool {
			ones = "true"
		}
		if in.Type().Kind == ir.KVector {
			et, _ := llTypeStr(in.Type().Elem)
			ones = "splat (" + et + " " + ones + ")"
		}
		x, err := fx.typed(a[0])
		if err != nil {
			return err
		}
		fx.line("%sxor %s, %s", fx.def(in), x, ones)
	case op == ir.OpNeg:
		fx.line("%ssub %s %s, %s", fx.def(in), rt, zeroOf(in.Type()), fx.ref(a[0]))
	case op == ir.OpFNeg:
		x, err := fx.typed(a[0])
		if err != nil {
			return err
		}
		fx.line("%sfneg %s", fx.def(in), x)
	case op == ir.OpICmp || op == ir.OpFCmp:
		x, err := fx.typed(a[0])
		if err != nil {
			return err
		}
		name := "icmp"
		if op == ir.OpFCmp {
			name = "fcmp"
		}
		fx.line("%s%s %s %s, %s", fx.def(in), name, in.Pred, x, fx.ref(a[1]))
	case op == ir.OpSelect:
		s, err := fx.typedList(a)
		if err != nil {
			return err
		}
		fx.line("%sselect %s", fx.def(in), s)
	case op.IsCast():
		src := a[0].Type()
		if src.Kind == ir.KPointer && in.Type().Kind == ir.KPointer {
			if fx.asOf(a[0]) == fx.asOf(in) {
				// A pointee change: LLVM pointers are opaque.
				fx.alias[in] = fx.resolve(a[0])
				return nil
			}
			x, err := fx.typed(a[0])
			if err != nil {
				return err
			}
			fx.line("%saddrspacecast %s to %s", fx.def(in), x, rt)
			return nil
		}
		x, err := fx.typed(a[0])
		if err != nil {
			return err
		}
		fx.line("%s%s %s to %s", fx.def(in), irOpNames[op], x, rt)
	case op == ir.OpCopy:
		x, err := fx.typed(a[0])
		if err != nil {
			return err
		}
		fx.line("%sfreeze %s", fx.def(in), x)
	case op == ir.OpConstruct:
		return fx.construct(in, rt)
	case op == ir.OpExtractElem, op == ir.OpInsertElem:
		s, err := fx.typedList(a)
		if err != nil {
			return err
		}
		fx.line("%s%s %s", fx.def(in), in.Op, s)
	case op == ir.OpShuffle:
		return fx.shuffle(in, a)
	case (op == ir.OpExtractValue || op == ir.OpInsertValue) && fx.hasVectorStep(a[0].Type(), in.Idx):
		return fx.vectorPath(in, rt)
	case op == ir.OpExtractValue, op == ir.OpInsertValue:
		s, err := fx.typedList(a)
		if err != nil {
			return err
		}
		var idx []string
		for _, i := range in.Idx {
			idx = append(idx, strconv.Itoa(i))
		}
		fx.line("%s%s %s, %s", fx.def(in), in.Op, s, strings.Join(idx, ", "))
	case op == ir.OpAlloca:
		et, err := llTypeStr(in.Type().Elem)
		if err != nil {
			return err
		}
		fx.line("%salloca %s, addrspace(%d)", fx.def(in), et, fx.asOf(in))
	case op == ir.OpLoad:
		p, err := fx.typed(a[0])
		if err != nil {
			return err
		}
		fx.line("%sload %s, %s", fx.def(in), rt, p)
	case op == ir.OpStore:
		s, err := fx.typedList(a)
		if err != nil {
			return err
		}
		fx.line("store %s", s)
	case op == ir.OpAccess:
		return fx.access(in)
	case op == ir.OpMemcpy, op == ir.OpMemset:
		return fx.memop(in)
	case op == ir.OpAtomic:
		p, err := fx.typed(a[0])
		if err != nil {
			return err
		}
		if in.Atomic == ir.AtomicCmpXchg {
			pair := fx.helper(in, "pair")
			vt, _ := llTypeStr(in.Type())
			fx.line("%s = cmpxchg %s, %s %s, %s %s seq_cst seq_cst", pair, p, vt, fx.ref(a[2]), vt, fx.ref(a[1]))
			fx.line("%sextractvalue { %s, i1 } %s, 0", fx.def(in), vt, pair)
			return nil
		}
		v, err := fx.typed(a[1])
		if err != nil {
			return err
		}
		fx.line("%satomicrmw %s %s, %s seq_cst", fx.def(in), in.Atomic, p, v)
	case op == ir.OpCall:
		s, err := fx.typedList(a)
		if err != nil {
			return err
		}
		def := ""
		if in.HasResult() {
			def = fx.def(in)
		} else {
			rt = "void"
		}
		if in.Callee.IsDeclaration() {
			if err := fx.x.declareFunction(in.Callee); err != nil {
				return err
			}
		}
		fx.line("%scall %s @%s(%s)", def, rt, llName(in.Callee.Name()), s)
	case op == ir.OpIntrinsic:
		return fx.intrinsic(in, rt)
	case op == ir.OpPhi:
		// LLVM wants one entry per CFG edge, and a switch has one edge per
		// case value (plus the default) where the IR has one per label
		// group: `case 1: case 3:` is two edges to one block. The values
		// from one block are equal (the verifier checks), so each incoming
		// block's value is repeated once per LLVM edge.
		var parts []string
		done := map[*ir.Block]bool{}
		for i, v := range a {
			pb := in.PhiBlocks[i]
			if done[pb] {
				continue
			}
			done[pb] = true
			for range llvmEdges(pb, in.Block) {
				parts = append(parts, fmt.Sprintf("[ %s, %%%s ]", fx.ref(v), fx.local(pb.Name())))
			}
		}
		fx.line("%sphi %s %s", fx.def(in), rt, strings.Join(parts, ", "))
	case op == ir.OpBr:
		fx.line("br label %%%s", fx.local(in.Succs[0].Name()))
	case op == ir.OpCondBr:
		c, err := fx.typed(a[0])
		if err != nil {
			return err
		}
		fx.line("br %s, label %%%s, label %%%s", c, fx.local(in.Succs[0].Name()), fx.local(in.Succs[1].Name()))
	case op == ir.OpSwitch:
		return fx.switchInstr(in)
	case op == ir.OpRet:
		if len(a) == 0 {
			fx.line("ret void")
			return nil
		}
		v, err := fx.typed(a[0])
		if err != nil {
			return err
		}
		fx.line("ret %s", v)
	case op == ir.OpDiscard:
		fx.x.addDecl("llvm.amdgcn.kill", "declare void @llvm.amdgcn.kill(i1)\n")
		fx.line("call void @llvm.amdgcn.kill(i1 false)")
		fx.line("unreachable")
	case op == ir.OpUnreachable:
		fx.line("unreachable")
	default:
		return fmt.Errorf("no LLVM equivalent for '%s'", in.Op)
	}
	return nil
}

func zeroOf(t *ir.Type) string {
	if t.Kind == ir.KVector {
		return "zeroinitializer"
	}
	return "0"
}

// construct builds an aggregate with a chain of insertvalue/insertelement,
// or writes the importer's cmpxchg expansion back as one cmpxchg.
func (fx *fnExporter) construct(in *ir.Instr, rt string) error {
	if old := fx.fold[in]; old != nil {
		p, err := fx.typed(old.Args[0])
		if err != nil {
			return err
		}
		vt, err := llTypeStr(old.Type())
		if err != nil {
			return err
		}
		fx.line("%scmpxchg %s, %s %s, %s %s seq_cst seq_cst", fx.def(in), p, vt, fx.ref(old.Args[2]), vt, fx.ref(old.Args[1]))
		return nil
	}
	t := in.Type()
	cur := "undef"
	for i, e := range in.Args {
		x, err := fx.typed(e)
		if err != nil {
			return err
		}
		dst := fx.helper(in, strconv.Itoa(i))
		if i == len(in.Args)-1 {
			dst = "%" + fx.local(in.Name())
		}
		if t.Kind == ir.KVector {
			fx.line("%s = insertelement %s %s, %s, i32 %d", dst, rt, cur, x, i)
		} else {
			fx.line("%s = insertvalue %s %s, %s, %d", dst, rt, cur, x, i)
		}
		cur = dst
	}
	if len(in.Args) == 0 {
		fx.line("%sfreeze %s undef", fx.def(in), rt)
	}
	return nil
}

func (fx *fnExporter) access(in *ir.Instr) error {
	base := in.Args[0]
	bt := base.Type()
	b, err := fx.typed(base)
	if err != nil {
		return err
	}
	var idx []string
	src := bt.Elem
	if src.Kind == ir.KArray && src.Len < 0 {
		// A pointer to an unbounded array: LLVM's pointer arithmetic.
		src = src.Elem
	} else {
		idx = append(idx, "i32 0")
	}
	for _, ix := range in.Args[1:] {
		s, err := fx.typed(ix)
		if err != nil {
			return err
		}
		idx = append(idx, s)
	}
	st, err := llTypeStr(src)
	if err != nil {
		return err
	}
	if len(idx) == 0 {
		fx.alias[in] = fx.resolve(base)
		return nil
	}
	fx.line("%sgetelementptr %s, %s, %s", fx.def(in), st, b, strings.Join(idx, ", "))
	return nil
}

// typeSize is the store size of t in bytes (no padding: enough for
// memcpy/memset lengths in exported code).
func typeSize(t *ir.Type) int {
	switch t.Kind {
	case ir.KBool:
		return 1
	case ir.KInt, ir.KUint, ir.KFloat:
		return t.Bits / 8
	case ir.KPointer:
		return 8
	case ir.KVector, ir.KArray:
		if t.Len < 0 {
			return 0
		}
		return t.Len * typeSize(t.Elem)
	case ir.KMatrix:
		return t.Len * t.Cols * typeSize(t.Elem)
	case ir.KStruct:
		n := 0
		for _, f := range t.Fields {
			n += typeSize(f.Type)
		}
		return n
	}
	return 0
}

func (fx *fnExporter) memop(in *ir.Instr) error {
	dst := in.Args[0]
	size := typeSize(dst.Type().Elem)
	d, err := fx.typed(dst)
	if err != nil {
		return err
	}
	if in.Op == ir.OpMemcpy {
		src := in.Args[1]
		s, err := fx.typed(src)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("llvm.memcpy.p%d.p%d.i64", fx.asOf(dst), fx.asOf(src))
		fx.x.addDecl(name, fmt.Sprintf("declare void @%s(ptr addrspace(%d), ptr addrspace(%d), i64, i1)\n", name, fx.asOf(dst), fx.asOf(src)))
		fx.line("call void @%s(%s, %s, i64 %d, i1 false)", name, d, s, size)
		return nil
	}
	byteVal := in.Args[1]
	b := fx.ref(byteVal)
	if bt := byteVal.Type(); bt.Kind != ir.KInt || bt.Bits != 8 {
		x, err := fx.typed(byteVal)
		if err != nil {
			return err
		}
		tmp := fx.helper(in, "byte")
		if bt == ir.Bool {
			fx.line("%s = zext %s to i8", tmp, x)
		} else {
			fx.line("%s = trunc %s to i8", tmp, x)
		}
		b = tmp
	}
	name := fmt.Sprintf("llvm.memset.p%d.i64", fx.asOf(dst))
	fx.x.addDecl(name, fmt.Sprintf("declare void @%s(ptr addrspace(%d), i8, i64, i1)\n", name, fx.asOf(dst)))
	fx.line("call void @%s(%s, i8 %s, i64 %d, i1 false)", name, d, b, size)
	return nil
}

func (fx *fnExporter) switchInstr(in *ir.Instr) error {
	sel, err := fx.typed(in.Args[0])
	if err != nil {
		return err
	}
	st, _ := fx.typeOf(in.Args[0])
	var def *ir.Block
	var cases []string
	for _, c := range in.Cases {
		if c.Default {
			def = c.Target
		}
		for _, v := range c.Values {
			cases = append(cases, fmt.Sprintf("%s %d, label %%%s", st, v, fx.local(c.Target.Name())))
		}
	}
	if def == nil {
		return fmt.Errorf("switch without a default")
	}
	fx.line("switch %s, label %%%s [ %s ]", sel, fx.local(def.Name()), strings.Join(cases, " "))
	return nil
}

// llvmEdges counts the CFG edges from one block to another in the LLVM
// output: a switch has one per case value and one for the default, a
// conditional branch one per successor slot.
func llvmEdges(from, to *ir.Block) int {
	t := from.Terminator()
	if t == nil {
		return 0
	}
	n := 0
	if t.Op == ir.OpSwitch {
		for _, c := range t.Cases {
			if c.Target == to {
				n += len(c.Values)
				if c.Default {
					n++
				}
			}
		}
		return n
	}
	for _, s := range t.Succs {
		if s == to {
			n++
		}
	}
	return n
}

// hasVectorStep reports whether a constant index path steps into a vector,
// which LLVM's extractvalue/insertvalue cannot do.
func (fx *fnExporter) hasVectorStep(t *ir.Type, path []int) bool {
	for _, i := range path {
		if t.Kind == ir.KVector {
			return true
		}
		t = t.ElemType(i)
		if t == nil {
			return false
		}
	}
	return false
}

// vectorPath writes extractvalue/insertvalue whose path ends in a vector
// element (passlens allows it; LLVM needs extractelement/insertelement):
// the aggregate part of the path, then the element.
func (fx *fnExporter) vectorPath(in *ir.Instr, rt string) error {
	agg := in.Args[0]
	path := in.Idx
	vecT := agg.Type().IndexPath(path[:len(path)-1])
	if vecT == nil || vecT.Kind != ir.KVector {
		return fmt.Errorf("unsupported index path %v into %s", path, agg.Type())
	}
	last := path[len(path)-1]
	vecS, err := llTypeStr(vecT)
	if err != nil {
		return err
	}
	vec := fx.ref(agg)
	prefix := path[:len(path)-1]
	idxStr := func(p []int) string {
		var xs []string
		for _, i := range p {
			xs = append(xs, strconv.Itoa(i))
		}
		return strings.Join(xs, ", ")
	}
	aggS, err := fx.typed(agg)
	if err != nil {
		return err
	}
	if len(prefix) > 0 {
		vec = fx.helper(in, "vec")
		fx.line("%s = extractvalue %s, %s", vec, aggS, idxStr(prefix))
	}
	if in.Op == ir.OpExtractValue {
		fx.line("%sextractelement %s %s, i32 %d", fx.def(in), vecS, vec, last)
		return nil
	}
	e, err := fx.typed(in.Args[1])
	if err != nil {
		return err
	}
	if len(prefix) == 0 {
		fx.line("%sinsertelement %s %s, %s, i32 %d", fx.def(in), vecS, vec, e, last)
		return nil
	}
	nv := fx.helper(in, "ins")
	fx.line("%s = insertelement %s %s, %s, i32 %d", nv, vecS, vec, e, last)
	fx.line("%sinsertvalue %s, %s %s, %s", fx.def(in), aggS, vecS, nv, idxStr(prefix))
	return nil
}

// shuffle writes a passlens shuffle. Its operands may differ in length
// (<4 x T> and <3 x T>); LLVM's shufflevector needs equal types, so the
// shorter one is first widened with a shufflevector of its own and the
// mask indices into the second operand are moved accordingly.
func (fx *fnExporter) shuffle(in *ir.Instr, a []ir.Value) error {
	idx := append([]int(nil), in.Idx...)
	ops := make([]string, 2)
	for i, v := range a[:2] {
		s, err := fx.typed(v)
		if err != nil {
			return err
		}
		ops[i] = s
	}
	ta, tb := a[0].Type(), a[1].Type()
	if ta.Kind == ir.KVector && tb.Kind == ir.KVector && ta.Len != tb.Len {
		n := max(ta.Len, tb.Len)
		widen := func(i int, v ir.Value) error {
			t := v.Type()
			var m []string
			for k := 0; k < n; k++ {
				if k < t.Len {
					m = append(m, "i32 "+strconv.Itoa(k))
				} else {
					m = append(m, "i32 poison")
				}
			}
			e, err := llTypeStr(t.Elem)
			if err != nil {
				return err
			}
			w := fx.helper(in, "widen"+strconv.Itoa(i))
			fx.line("%s = shufflevector %s, %s poison, <%d x i32> <%s>", w, ops[i], "<"+strconv.Itoa(t.Len)+" x "+e+">", n, strings.Join(m, ", "))
			ops[i] = fmt.Sprintf("<%d x %s> %s", n, e, w)
			return nil
		}
		if ta.Len < n {
			if err := widen(0, a[0]); err != nil {
				return err
			}
		}
		if tb.Len < n {
			if err := widen(1, a[1]); err != nil {
				return err
			}
		}
		for i, m := range idx {
			if m >= ta.Len {
				idx[i] = m - ta.Len + n
			}
		}
	}
	var mask []string
	for _, m := range idx {
		mask = append(mask, "i32 "+strconv.Itoa(m))
	}
	fx.line("%sshufflevector %s, %s, <%d x i32> <%s>", fx.def(in), ops[0], ops[1], len(idx), strings.Join(mask, ", "))
	return nil
}
