package interp

import (
	"fmt"

	"passlens/compiler/ir"
)

// This file prepares a function for execution: value slots, operands
// resolved once (constants flattened, globals indexed), block indexes of
// branch targets, and the control-flow facts of cfg.go.

// funcInfo is a function ready to run.
type funcInfo struct {
	fn       *ir.Function
	cfg      *cfg
	bindex   map[*ir.Block]int
	slot     map[ir.Value]int
	width    []int // cells of each slot
	params   []int // slot of each parameter
	code     [][]*icode
	switches []*switchInfo
	retW     int
}

// operand kinds.
const (
	opReg uint8 = iota
	opConst
	opGlobal
)

// operand is a resolved instruction operand.
type operand struct {
	kind  uint8
	slot  int      // opReg
	w     int      // cells
	cells []uint64 // opConst
	g     int      // opGlobal: index into machine.globals
	typ   *ir.Type
	konst *ir.Const // opConst: the constant (struct indices of access chains)
}

// icode is a resolved instruction.
type icode struct {
	in    *ir.Instr
	args  []operand
	res   int // result slot, -1 if none
	w     int // result cells
	succ  []int
	cases []int  // switch: target block of each case group
	preds []int  // phi: incoming block of each argument
	sw    int    // switch: index into funcInfo.switches
	name  string // intrinsic: its name without LLVM overload suffixes (llvmBase)
}

// switchInfo says where the lanes of a switch are kept apart under the
// switch-separate policy: the blocks of its construct (dominated by the
// switch block and not by its merge).
type switchInfo struct {
	block int
	merge int // -1 when the switch has no merge (no annotation, no post-dominator)
	in    []bool
}

// compileErr reports a malformed instruction found while preparing f.
func compileErr(f *ir.Function, b *ir.Block, in *ir.Instr, format string, args ...any) error {
	e := &Error{Func: f.Name(), Msg: fmt.Sprintf(format, args...), Err: ErrMalformed}
	if b != nil {
		e.Block = b.Name()
	}
	if in != nil {
		e.Instr = ir.InstrString(in)
		e.Loc = in.Loc
	}
	return e
}

func (mc *machine) funcInfo(f *ir.Function) (*funcInfo, error) {
	if fi, ok := mc.funcs[f]; ok {
		return fi, nil
	}
	fi, err := mc.compile(f)
	if err != nil {
		return nil, err
	}
	mc.funcs[f] = fi
	return fi, nil
}

func (mc *machine) compile(f *ir.Function) (*funcInfo, error) {
	if f.IsDeclaration() {
		return nil, &Error{Func: f.Name(), Msg: "function has no body (a declaration cannot be executed)", Err: ErrUnsupported}
	}
	fi := &funcInfo{fn: f, bindex: map[*ir.Block]int{}, slot: map[ir.Value]int{}}
	for i, b := range f.Blocks {
		fi.bindex[b] = i
	}
	newSlot := func(v ir.Value) int {
		fi.slot[v] = len(fi.width)
		fi.width = append(fi.width, slots(v.Type()))
		return len(fi.width) - 1
	}
	for _, p := range f.Params {
		fi.params = append(fi.params, newSlot(p))
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.HasResult() {
				newSlot(in)
			}
		}
	}
	if f.Ret != nil {
		fi.retW = slots(f.Ret)
	}
	fi.cfg = newCFG(f, fi.bindex)
	fi.code = make([][]*icode, len(f.Blocks))
	for bi, b := range f.Blocks {
		if len(b.Instrs) == 0 || b.Terminator() == nil {
			if fi.cfg.rpoNum[bi] >= 0 {
				return nil, compileErr(f, b, nil, "block has no terminator")
			}
			continue
		}
		for _, in := range b.Instrs {
			ic, err := mc.compileInstr(fi, b, in)
			if err != nil {
				return nil, err
			}
			fi.code[bi] = append(fi.code[bi], ic)
		}
	}
	return fi, nil
}

func (mc *machine) operand(fi *funcInfo, b *ir.Block, in *ir.Instr, v ir.Value) (operand, error) {
	switch x := v.(type) {
	case nil:
		return operand{}, compileErr(fi.fn, b, in, "missing operand")
	case *ir.Const:
		return operand{kind: opConst, cells: constCells(x), w: slots(x.Type()), typ: x.Type(), konst: x}, nil
	case *ir.Global:
		gi, ok := mc.gindex[x]
		if !ok {
			return operand{}, compileErr(fi.fn, b, in, "global %s is not in the module", x.Ref())
		}
		return operand{kind: opGlobal, g: gi, w: 1, typ: x.Type()}, nil
	}
	s, ok := fi.slot[v]
	if !ok {
		return operand{}, compileErr(fi.fn, b, in, "operand %s is not defined in this function", v.Ref())
	}
	return operand{kind: opReg, slot: s, w: fi.width[s], typ: v.Type()}, nil
}

func (mc *machine) compileInstr(fi *funcInfo, b *ir.Block, in *ir.Instr) (*icode, error) {
	f := fi.fn
	ic := &icode{in: in, res: -1}
	if in.Intr != nil {
		ic.name = llvmBase(in.Intr.Name)
	}
	if in.HasResult() {
		ic.res = fi.slot[in]
		ic.w = fi.width[ic.res]
	}
	for _, a := range in.Args {
		o, err := mc.operand(fi, b, in, a)
		if err != nil {
			return nil, err
		}
		ic.args = append(ic.args, o)
	}
	block := func(x *ir.Block) (int, error) {
		j, ok := fi.bindex[x]
		if !ok || x == nil {
			return 0, compileErr(f, b, in, "branch to a block that is not in the function")
		}
		return j, nil
	}
	need := func(n int) error {
		if len(in.Args) < n {
			return compileErr(f, b, in, "%s needs %d operands, has %d", in.Op, n, len(in.Args))
		}
		return nil
	}
	// The operand counts the executor indexes come from the op table; the
	// other fields it relies on are checked per op.
	err := need(in.Op.Info().MinArgs)
	switch op := in.Op; {
	case err != nil:
	case op == ir.OpCondBr:
		if len(in.Succs) != 2 {
			err = compileErr(f, b, in, "condbr needs two targets")
		}
	case op == ir.OpBr:
		if len(in.Succs) != 1 {
			err = compileErr(f, b, in, "br needs one target")
		}
	case op == ir.OpCall:
		if in.Callee == nil {
			err = compileErr(f, b, in, "call without a callee")
		} else if len(in.Args) != len(in.Callee.Params) {
			err = compileErr(f, b, in, "call of %s with %d arguments, expects %d", in.Callee.Ref(), len(in.Args), len(in.Callee.Params))
		}
	case op == ir.OpIntrinsic:
		if in.Intr == nil {
			err = compileErr(f, b, in, "intrinsic call without an intrinsic")
		}
	case op == ir.OpPhi:
		if len(in.PhiBlocks) != len(in.Args) {
			err = compileErr(f, b, in, "phi has %d values for %d blocks", len(in.Args), len(in.PhiBlocks))
		}
	}
	if err != nil {
		return nil, err
	}
	switch in.Op {
	case ir.OpBr, ir.OpCondBr:
		for _, s := range in.Succs {
			j, err := block(s)
			if err != nil {
				return nil, err
			}
			ic.succ = append(ic.succ, j)
		}
	case ir.OpSwitch:
		hasDefault := false
		for _, c := range in.Cases {
			j, err := block(c.Target)
			if err != nil {
				return nil, err
			}
			ic.cases = append(ic.cases, j)
			hasDefault = hasDefault || c.Default
		}
		if !hasDefault {
			return nil, compileErr(f, b, in, "switch has no default label")
		}
		ic.sw = len(fi.switches)
		fi.switches = append(fi.switches, newSwitchInfo(fi, b, in))
	case ir.OpPhi:
		for _, pb := range in.PhiBlocks {
			j, err := block(pb)
			if err != nil {
				return nil, err
			}
			ic.preds = append(ic.preds, j)
		}
	case ir.OpAccess:
		t := in.Args[0].Type()
		if t.Kind != ir.KPointer {
			return nil, compileErr(f, b, in, "access base is not a pointer")
		}
		cur := t.Elem
		for _, x := range in.Args[1:] {
			if cur == nil {
				return nil, compileErr(f, b, in, "access chain indexes past a scalar")
			}
			if cur.Kind == ir.KStruct {
				c, ok := x.(*ir.Const)
				if !ok || !c.Type().IsIntegral() {
					return nil, compileErr(f, b, in, "struct index of an access chain must be an integer constant")
				}
				cur = cur.ElemType(int(c.Int()))
				continue
			}
			if !x.Type().IsIntegral() {
				return nil, compileErr(f, b, in, "access chain index %s is not an integer", x.Ref())
			}
			switch cur.Kind {
			case ir.KArray, ir.KVector:
				cur = cur.Elem
			case ir.KMatrix:
				cur = ir.Vec(cur.Elem, cur.Cols)
			default:
				cur = nil
			}
		}
		if cur == nil {
			return nil, compileErr(f, b, in, "access chain indexes past a scalar")
		}
	case ir.OpExtractValue, ir.OpInsertValue:
		if _, _, ok := pathOffset(in.Args[0].Type(), in.Idx); !ok {
			return nil, compileErr(f, b, in, "index path %v is out of range for %s", in.Idx, in.Args[0].Type())
		}
	case ir.OpConstruct:
		n := 0
		for _, a := range ic.args {
			n += a.w
		}
		if n != ic.w {
			return nil, compileErr(f, b, in, "construct of %s from %d components, needs %d", in.Type(), n, ic.w)
		}
	case ir.OpLoad, ir.OpStore, ir.OpMemcpy, ir.OpMemset, ir.OpAtomic:
		pi := 0
		if in.Op == ir.OpStore {
			pi = 1
		}
		if in.Args[pi].Type().Kind != ir.KPointer {
			return nil, compileErr(f, b, in, "%s through a non-pointer", in.Op)
		}
	case ir.OpIntrinsic:
		if n := len(in.Args); n < in.Intr.MinArgs || n > in.Intr.MaxArgs {
			return nil, compileErr(f, b, in, "%s takes %d to %d operands, has %d", in.Intr.Name, in.Intr.MinArgs, in.Intr.MaxArgs, n)
		}
	}
	return ic, nil
}

func newSwitchInfo(fi *funcInfo, b *ir.Block, in *ir.Instr) *switchInfo {
	c := fi.cfg
	bi := fi.bindex[b]
	si := &switchInfo{block: bi, merge: -1, in: make([]bool, c.n)}
	if in.MergeKind == ir.MergeSelection && in.Merge != nil {
		if j, ok := fi.bindex[in.Merge]; ok {
			si.merge = j
		}
	}
	if si.merge < 0 {
		si.merge = c.ipdom[bi]
	}
	for x := 0; x < c.n; x++ {
		if c.dominates(bi, x) && (si.merge < 0 || !c.dominates(si.merge, x)) {
			si.in[x] = true
		}
	}
	return si
}
