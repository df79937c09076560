package sir

import (
	"fmt"
	"math"
	"strings"

	"passlens/compiler/ir"
)

// Lower translates a scalarized passlens IR function, as the "sm3" pipeline
// leaves it (see docs/control-flow-passes.md, "SM3 contract"), into a SIR
// function of the given dispatch width:
//
//   - every scalar IR value becomes a 32-bit (bool: 1-bit) one-component
//     temporary over the whole dispatch range; IR blocks become SIR blocks
//     with the same names, condbr/br/ret/discard become brc/br/ret/discard
//     (SIR control flow is unstructured; merge annotations are dropped);
//   - a scalar alloca (the out-of-SSA "%x.var" variables and the rep
//     counter) becomes a multiply-written temporary named after it; loads
//     and stores are movs;
//   - a uniform scalar reached through a constant access chain becomes a
//     uniform (SIMD width 1) const register named after its field path;
//     stage inputs and outputs become input/output registers, vector ones
//     with one component per lane (stores use write masks);
//   - casts are movs (SM3 carries integers as floats), fsub and fneg use the
//     negate modifier, fdiv is frcp + fmul;
//   - the sm3.rep loop marker becomes the header block's Rep; the IR's
//     counter code dies and its "done" flag becomes the opaque Rep.Done.
//
// Anything else is an error naming the construct and its source location.
func Lower(fn *ir.Function, width int) (*Func, error) {
	l := &lowerer{
		f:      NewFunc(fn.Name(), width),
		vals:   map[ir.Value]*Reg{},
		ptrs:   map[ir.Value]ptrRef{},
		blocks: map[*ir.Block]*Block{},
		named:  map[string]*Reg{},
		imms:   map[ir.Value]Src{},
		loads:  map[ir.Value]*Reg{},
		vecs:   map[ir.Value][]Src{},
	}
	for _, b := range fn.Blocks {
		l.blocks[b] = l.f.NewBlock(b.Name())
	}
	l.inits = nil
	for _, b := range fn.Blocks {
		sb := l.blocks[b]
		if t := b.Terminator(); t != nil && t.MergeKind != ir.MergeNone {
			sb.Merge = l.blocks[t.Merge]
			if t.MergeKind == ir.MergeLoop {
				sb.Loop = true
				sb.Continue = l.blocks[t.Continue]
			}
		}
		for _, in := range b.Instrs {
			if err := l.instr(sb, in); err != nil {
				return nil, err
			}
		}
	}
	if len(l.inits) > 0 && len(l.f.Blocks) > 0 {
		// Static globals start with their initializers on entry.
		e := l.f.Blocks[0]
		e.Instrs = append(l.inits, e.Instrs...)
	}
	return l.f, nil
}

// privateReg returns the temporary holding one scalar of a static global
// (private memory reached through a constant path), creating it with its
// initializer, which Lower moves to the start of the entry block.
func (l *lowerer) privateReg(in *ir.Instr, g *ir.Global, path []int) (*Reg, error) {
	t := g.ValType
	init := g.Init
	name := g.Name()
	for _, i := range path {
		if !t.IsAggregate() || i < 0 || i >= t.NumElems() {
			return nil, locErr(in, "index %d into %s in static %s", i, t, g.Ref())
		}
		if init != nil {
			init = init.Elem(i)
		}
		t = t.ElemType(i)
		name += fmt.Sprintf("[%d]", i)
	}
	if !t.IsScalar() {
		return nil, locErr(in, "access to %s in static %s; SIR lowering expects scalarized IR", t, g.Ref())
	}
	key := "private:" + name
	if r := l.named[key]; r != nil {
		return r, nil
	}
	bits := 32
	if t.Kind == ir.KBool {
		bits = 1
	}
	r := l.f.NewReg(l.uniqueName(name), bits, 1, l.all(), FileTemp)
	l.named[key] = r
	v := Imm32(0)
	if bits == 1 {
		v = Src{ImmBits: 1}
	}
	if init != nil {
		s, err := l.src(in, init)
		if err != nil {
			return nil, err
		}
		v = s
	}
	l.inits = append(l.inits, &Instr{Op: OpMov, Exec: l.all(), Dst: D(r), Srcs: []Src{v}, Loc: locOf(in)})
	return r, nil
}

func locOf(in *ir.Instr) string {
	if in.Loc.Line > 0 {
		return fmt.Sprintf("%d:%d", in.Loc.Line, in.Loc.Col)
	}
	return ""
}

// ptrRef is a pointer the lowering resolved at compile time: a global or an
// alloca plus a constant index path.
type ptrRef struct {
	global *ir.Global
	alloca *ir.Instr
	path   []int
	dynAt  int      // position of the dynamic index in path (-1: none)
	dyn    ir.Value // the dynamic index
}

type lowerer struct {
	f      *Func
	vals   map[ir.Value]*Reg
	ptrs   map[ir.Value]ptrRef
	blocks map[*ir.Block]*Block
	named  map[string]*Reg    // registers for memory locations, by name
	imms   map[ir.Value]Src   // IR values lowered to immediates
	loads  map[ir.Value]*Reg  // load results -> the memory register loaded
	inits  []*Instr           // static globals' initializations for the entry block
	vecs   map[ir.Value][]Src // vector values by component: texture coordinates and results (lower_texture.go)
}

func locErr(in *ir.Instr, format string, args ...any) error {
	where := fmt.Sprintf("block %s", in.Block.Name())
	if in.Loc.Line > 0 {
		where = fmt.Sprintf("%d:%d", in.Loc.Line, in.Loc.Col)
	}
	return fmt.Errorf("sir: %s: %s", where, fmt.Sprintf(format, args...))
}

func (l *lowerer) all() Group { return l.f.All() }

// result makes the register for an instruction's scalar result.
func (l *lowerer) result(in *ir.Instr) (*Reg, error) {
	t := in.Type()
	if !t.IsScalar() {
		return nil, locErr(in, "%s produces %s; SIR lowering expects scalarized IR", in.Op, t)
	}
	bits := 32
	if t.Kind == ir.KBool {
		bits = 1
	}
	r := l.f.NewReg(l.uniqueName(in.Name()), bits, 1, l.all(), FileTemp)
	l.vals[in] = r
	return r, nil
}

func (l *lowerer) uniqueName(base string) string {
	if base == "" {
		base = "t"
	}
	name := base
	for i := 1; l.named[name] != nil || l.hasReg(name); i++ {
		name = fmt.Sprintf("%s.%d", base, i)
	}
	return name
}

func (l *lowerer) hasReg(name string) bool {
	for _, r := range l.f.Regs {
		if r.Name == name {
			return true
		}
	}
	return false
}

// src lowers an operand.
func (l *lowerer) src(in *ir.Instr, v ir.Value) (Src, error) {
	if c, ok := v.(*ir.Const); ok {
		if !c.Type().IsScalar() {
			return Src{}, locErr(in, "non-scalar constant %s", c.Literal())
		}
		if c.Type().Kind == ir.KBool {
			return Src{Imm: c.Bits & 1, ImmBits: 1}, nil
		}
		if c.Zero || c.Undef {
			return Imm32(0), nil
		}
		if c.Type().IsIntegral() {
			// Integers are carried as floats (sm3-lower's contract).
			return Imm32(math.Float32bits(float32(c.Int()))), nil
		}
		return Imm32(uint32(c.Bits)), nil
	}
	if s, ok := l.imms[v]; ok {
		return s, nil
	}
	r, ok := l.vals[v]
	if !ok {
		return Src{}, locErr(in, "operand %s is not a lowered value (used before its definition, or a pointer)", v.Ref())
	}
	return R(r), nil
}

func (l *lowerer) srcs(in *ir.Instr) ([]Src, error) {
	out := make([]Src, len(in.Args))
	for i, a := range in.Args {
		s, err := l.src(in, a)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

var fcmpConds = map[ir.CmpPred]Cond{
	ir.PredOEQ: CondEQ, ir.PredONE: CondNE, ir.PredOLT: CondLT, ir.PredOLE: CondLE, ir.PredOGT: CondGT, ir.PredOGE: CondGE,
	ir.PredUEQ: CondEQ, ir.PredUNE: CondNE, ir.PredFULT: CondLT, ir.PredFULE: CondLE, ir.PredFUGT: CondGT, ir.PredFUGE: CondGE,
}

var icmpConds = map[ir.CmpPred]Cond{
	ir.PredEQ: CondEQ, ir.PredNE: CondNE, ir.PredSLT: CondLT, ir.PredSLE: CondLE, ir.PredSGT: CondGT, ir.PredSGE: CondGE,
	ir.PredULT: CondLT, ir.PredULE: CondLE, ir.PredUGT: CondGT, ir.PredUGE: CondGE,
}

func (l *lowerer) instr(b *Block, in *ir.Instr) error {
	emit := func(op Op, dst *Dst, srcs ...Src) *Instr {
		x := b.Emit(op, l.all(), dst, srcs...)
		if in.Loc.Line > 0 {
			x.Loc = fmt.Sprintf("%d:%d", in.Loc.Line, in.Loc.Col)
		}
		return x
	}
	switch in.Op {
	case ir.OpAlloca:
		t := in.Type().Elem
		if t != nil && t.IsAggregate() {
			l.ptrs[in] = ptrRef{alloca: in, dynAt: -1} // lower_local.go
			return nil
		}
		if t == nil || !t.IsScalar() {
			return locErr(in, "alloca of %v; SIR lowering expects scalar variables", t)
		}
		bits := 32
		if t.Kind == ir.KBool {
			bits = 1
		}
		r := l.f.NewReg(l.uniqueName(in.Name()), bits, 1, l.all(), FileTemp)
		l.named[r.Name] = r
		l.ptrs[in] = ptrRef{alloca: in, dynAt: -1}
		l.vals[in] = r
		return nil
	case ir.OpAccess:
		base, ok := l.ptrs[in.Args[0]]
		if !ok {
			g, isG := in.Args[0].(*ir.Global)
			if !isG {
				return locErr(in, "access chain on a pointer SIR lowering cannot resolve")
			}
			base = ptrRef{global: g, dynAt: -1}
		}
		ref := ptrRef{global: base.global, alloca: base.alloca, path: append([]int(nil), base.path...), dynAt: base.dynAt, dyn: base.dyn}
		for _, a := range in.Args[1:] {
			c, ok := a.(*ir.Const)
			if !ok {
				// Uniform arrays (and matrix rows) are indexed by relative
				// addressing; local arrays by selects (lower_local.go).
				if !isLocal(ref) && (ref.global == nil || ref.global.Space != ir.SpaceUniform) {
					return locErr(in, "dynamic index into %s (SM3 can only index constant registers and local arrays at run time)", memWhat(ref))
				}
				if ref.dyn != nil {
					return locErr(in, "second dynamic index into %s (SM3 lowering handles one per access)", memWhat(ref))
				}
				ref.dynAt, ref.dyn = len(ref.path), a
				ref.path = append(ref.path, 0)
				continue
			}
			ref.path = append(ref.path, int(c.Int()))
		}
		l.ptrs[in] = ref
		return nil
	case ir.OpLoad:
		if ref, ok := l.localRef(in.Args[0]); ok {
			return l.localAccess(in, ref, nil, emit)
		}
		if ref, ok := l.ptrs[in.Args[0]]; ok && ref.global != nil && ref.global.Space == ir.SpaceUniform {
			cr, err := l.constReg(in, ref.global, ref.path, ref.dynAt, ref.dyn)
			if err != nil {
				return err
			}
			return l.loadConst(in, cr, emit)
		}
		if g, ok := in.Args[0].(*ir.Global); ok && g.Space == ir.SpaceUniform {
			cr, err := l.constReg(in, g, nil, -1, nil)
			if err != nil {
				return err
			}
			return l.loadConst(in, cr, emit)
		}
		dst, err := l.result(in)
		if err != nil {
			return err
		}
		src, err := l.memReg(in, in.Args[0], false)
		if err != nil {
			return err
		}
		emit(OpMov, D(dst), src)
		return nil
	case ir.OpStore:
		val, err := l.src(in, in.Args[0])
		if err != nil {
			return err
		}
		if ref, ok := l.localRef(in.Args[1]); ok {
			return l.localAccess(in, ref, &val, emit)
		}
		ds, err := l.memReg(in, in.Args[1], true)
		if err != nil {
			return err
		}
		d := &Dst{Reg: ds.Reg, Mask: ds.Reg.FullMask()}
		if ds.Swizzle != nil {
			d.Mask = 1 << ds.Swizzle[0]
		}
		emit(OpMov, d, val)
		return nil
	case ir.OpIntrinsic:
		if in.Intr != nil && strings.HasPrefix(in.Intr.Name, "tex.") {
			return l.texture(in, emit)
		}
		return l.intrinsic(b, in, emit)
	case ir.OpConstruct, ir.OpExtractValue:
		if ok, err := l.vectorPart(in); ok || err != nil {
			return err
		}
	case ir.OpBr:
		emit(OpBr, nil).Succs = []*Block{l.blocks[in.Succs[0]]}
		return nil
	case ir.OpCondBr:
		c, err := l.src(in, in.Args[0])
		if err != nil {
			return err
		}
		emit(OpBrc, nil, c).Succs = []*Block{l.blocks[in.Succs[0]], l.blocks[in.Succs[1]]}
		return nil
	case ir.OpRet:
		if len(in.Args) > 0 {
			return locErr(in, "ret with a value (entry points return through outputs)")
		}
		emit(OpRet, nil)
		return nil
	case ir.OpDiscard:
		emit(OpDiscard, nil)
		return nil
	case ir.OpUnreachable:
		// Never executed; ending the channels is as good as anything
		// and keeps the block well-formed (typically a folded branch's
		// dead arm, which Fold then disconnects).
		emit(OpDiscard, nil)
		return nil
	}
	s, err := l.srcs(in)
	if err != nil {
		return err
	}
	var op Op
	cond := CondNone
	switch in.Op {
	case ir.OpFAdd:
		op = OpFAdd
	case ir.OpFSub:
		op = OpFAdd
		s[1].Neg = !s[1].Neg
	case ir.OpFMul:
		op = OpFMul
	case ir.OpFNeg:
		op = OpMov
		s[0].Neg = !s[0].Neg
	case ir.OpFRem: // x - y*trunc(x/y), as fmod
		op, s = l.fmodOps(in, emit, s[0], s[1])
	case ir.OpFDiv:
		rcp := l.f.NewReg(l.uniqueName(in.Name()+".rcp"), 32, 1, l.all(), FileTemp)
		emit(OpFRcp, D(rcp), s[1])
		op, s = OpFMul, []Src{s[0], R(rcp)}
	case ir.OpCopy, ir.OpSIToFP, ir.OpUIToFP, ir.OpFPToSI, ir.OpFPToUI:
		op = OpMov
	case ir.OpSelect:
		op = OpSel
	case ir.OpFCmp:
		c, ok := fcmpConds[in.Pred]
		if !ok {
			return locErr(in, "fcmp %s has no SIR condition", in.Pred)
		}
		op, cond = OpFCmp, c
	case ir.OpICmp:
		c, ok := icmpConds[in.Pred]
		if !ok {
			return locErr(in, "icmp %s has no SIR condition", in.Pred)
		}
		op, cond = OpICmp, c
		if in.Args[0].Type().Kind != ir.KBool {
			op = OpFCmp // integers are carried as floats
		}
	case ir.OpAnd, ir.OpOr, ir.OpNot:
		if in.Type().Kind != ir.KBool {
			return locErr(in, "integer %s (sm3-lower should have rejected it)", in.Op)
		}
		op = map[ir.Op]Op{ir.OpAnd: OpAnd, ir.OpOr: OpOr, ir.OpNot: OpNot}[in.Op]
	default:
		return locErr(in, "%s is not supported by SIR lowering", in.Op)
	}
	dst, err := l.result(in)
	if err != nil {
		return err
	}
	emit(op, D(dst), s...).Cond = cond
	return nil
}

// memReg resolves a pointer operand to the register holding that memory
// location, as a source reading one component (Swizzle set for a lane of a
// vector register).
func (l *lowerer) memReg(in *ir.Instr, p ir.Value, write bool) (Src, error) {
	ref, ok := l.ptrs[p]
	if !ok {
		g, isG := p.(*ir.Global)
		if !isG {
			return Src{}, locErr(in, "memory access through a pointer SIR lowering cannot resolve")
		}
		ref = ptrRef{global: g}
	}
	if ref.alloca != nil {
		if len(ref.path) > 0 {
			return Src{}, locErr(in, "indexed function variable (SIR lowering expects scalar variables)")
		}
		return R(l.vals[ref.alloca]), nil
	}
	if ref.global != nil && ref.global.Space == ir.SpacePrivate {
		r, err := l.privateReg(in, ref.global, ref.path)
		if err != nil {
			return Src{}, err
		}
		return R(r), nil
	}
	g := ref.global
	var file File
	switch g.Space {
	case ir.SpaceInput:
		file = FileInput
	case ir.SpaceOutput:
		file = FileOutput
	default:
		return Src{}, locErr(in, "%s memory (%s) is not supported by SIR lowering", g.Space, g.Ref())
	}
	if write != (file == FileOutput) {
		return Src{}, locErr(in, "%s of %s memory %s", map[bool]string{true: "store", false: "load"}[write], g.Space, g.Ref())
	}
	// Name the register after the global and its field path.
	t := g.ValType
	name := g.Name()
	var lane = -1
	for _, i := range ref.path {
		switch t.Kind {
		case ir.KStruct:
			if i < 0 || i >= len(t.Fields) {
				return Src{}, locErr(in, "field index %d out of range in %s", i, g.Ref())
			}
			name += "." + t.Fields[i].Name
			t = t.Fields[i].Type
		case ir.KVector:
			lane = i
			t = t.Elem
		default:
			return Src{}, locErr(in, "index into %s in %s is not supported by SIR lowering", t, g.Ref())
		}
	}
	comps, group := 1, l.all()
	if lane >= 0 || t.Kind == ir.KVector {
		vt := g.ValType
		for _, i := range ref.path[:len(ref.path)-boolInt(lane >= 0)] {
			vt = vt.ElemType(i)
		}
		comps = vt.Len
	}
	if comps < 1 || comps > 4 {
		return Src{}, locErr(in, "%s has %d components", g.Ref(), comps)
	}
	key := strings.Join([]string{file.String(), name}, ":")
	r := l.named[key]
	if r == nil {
		r = l.f.NewReg(l.uniqueName(name), 32, comps, group, file)
		l.named[key] = r
	}
	s := R(r)
	if lane >= 0 {
		s.Swizzle = []uint8{uint8(lane)}
	}
	return s, nil
}

// memWhat names the memory a pointer points into, for messages.
func memWhat(ref ptrRef) string {
	switch {
	case ref.global != nil:
		return fmt.Sprintf("%s memory %s", ref.global.Space, ref.global.Ref())
	case ref.alloca != nil:
		return fmt.Sprintf("function variable %s", ref.alloca.Ref())
	}
	return "memory"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
