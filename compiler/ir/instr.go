package ir

// Op is an instruction opcode.
type Op uint8

const (
	OpInvalid Op = iota

	// Integer arithmetic and bitwise (operands and result of one int/uint/bool
	// scalar or vector type; and/or/xor/not also on bool).
	OpAdd
	OpSub
	OpMul
	OpSDiv
	OpUDiv
	OpSRem
	OpURem
	OpShl
	OpLShr
	OpAShr
	OpAnd
	OpOr
	OpXor
	OpNot // bitwise not (logical not on bool)
	OpNeg // integer negation

	// Float arithmetic.
	OpFAdd
	OpFSub
	OpFMul
	OpFDiv
	OpFRem
	OpFNeg

	// Comparisons: result bool with the operand's vector shape; Pred says which.
	OpICmp
	OpFCmp

	OpSelect // select cond, a, b (cond bool, or bool vector of a's shape)

	// Conversions: "op T %x to U".
	OpSIToFP
	OpUIToFP
	OpFPToSI
	OpFPToUI
	OpBitcast
	OpTrunc
	OpZExt
	OpSExt
	OpFPTrunc
	OpFPExt

	// Vectors and aggregates.
	OpConstruct    // construct T, elems...: build a vector/matrix/array/struct from its components
	OpExtractElem  // extractelement <N x T> %v, i32 %i (dynamic index)
	OpInsertElem   // insertelement <N x T> %v, T %e, i32 %i
	OpShuffle      // shuffle <N x T> %a, <M x T> %b, [mask] (swizzles)
	OpExtractValue // extractvalue T %agg, i, j, ...: constant index path
	OpInsertValue  // insertvalue T %agg, U %e, i, j, ...
	OpCopy         // copy T %x: a plain copy (out-of-SSA, SIR lowering)

	// Memory.
	OpAlloca // alloca T -> ptr<function, T>
	OpLoad   // load T, ptr %p
	OpStore  // store T %v, ptr %p
	OpAccess // access ptr %base, idx...: SPIR-V OpAccessChain (no leading pointer index)
	OpMemcpy // memcpy ptr %dst, ptr %src: copies one pointee value
	OpMemset // memset ptr %dst, u32 %byte: fills the pointee with a byte
	OpAtomic // atomic <kind> ptr %p, T %v [, T %cmp]: returns the old value

	OpCall      // call T @f(args)
	OpIntrinsic // intr T name(args)
	OpPhi

	// Terminators.
	OpBr
	OpCondBr
	OpSwitch
	OpRet
	OpDiscard
	OpUnreachable

	numOps
)

func (o Op) String() string {
	if o < numOps {
		return opTable[o].Name
	}
	return "op?"
}

// OpByName maps a mnemonic to its Op.
var OpByName = func() map[string]Op {
	m := map[string]Op{}
	for i := range opTable {
		m[opTable[i].Name] = Op(i)
	}
	return m
}()

// CmpPred is the predicate of an icmp or fcmp.
type CmpPred uint8

const (
	PredNone CmpPred = iota
	// icmp
	PredEQ
	PredNE
	PredSLT
	PredSLE
	PredSGT
	PredSGE
	PredULT
	PredULE
	PredUGT
	PredUGE
	// fcmp (ordered and unordered)
	PredOEQ
	PredONE
	PredOLT
	PredOLE
	PredOGT
	PredOGE
	PredORD
	PredUNO
	PredUEQ
	PredUNE
	PredFULT
	PredFULE
	PredFUGT
	PredFUGE
	numCmpPreds
)

// cmpPredTable describes each predicate: its spelling and which compare it
// belongs to (icmp and fcmp share "ult", "ule", "ugt", "uge"; the
// instruction's op says which one is meant).
var cmpPredTable = [numCmpPreds]struct {
	name  string
	float bool // an fcmp predicate (else icmp; PredNone is neither)
}{
	PredNone: {"", false},
	PredEQ:   {"eq", false}, PredNE: {"ne", false},
	PredSLT: {"slt", false}, PredSLE: {"sle", false}, PredSGT: {"sgt", false}, PredSGE: {"sge", false},
	PredULT: {"ult", false}, PredULE: {"ule", false}, PredUGT: {"ugt", false}, PredUGE: {"uge", false},
	PredOEQ: {"oeq", true}, PredONE: {"one", true}, PredOLT: {"olt", true}, PredOLE: {"ole", true},
	PredOGT: {"ogt", true}, PredOGE: {"oge", true}, PredORD: {"ord", true}, PredUNO: {"uno", true},
	PredUEQ: {"ueq", true}, PredUNE: {"une", true},
	PredFULT: {"ult", true}, PredFULE: {"ule", true}, PredFUGT: {"ugt", true}, PredFUGE: {"uge", true},
}

// String is the textual spelling.
func (p CmpPred) String() string {
	if p < numCmpPreds {
		return cmpPredTable[p].name
	}
	return "pred?"
}

// IsInt reports icmp predicates.
func (p CmpPred) IsInt() bool { return p > PredNone && p < numCmpPreds && !cmpPredTable[p].float }

// IsFloat reports fcmp predicates.
func (p CmpPred) IsFloat() bool { return p < numCmpPreds && cmpPredTable[p].float }

// ValidFor reports whether p is a predicate of op (OpICmp or OpFCmp).
func (p CmpPred) ValidFor(op Op) bool {
	switch op {
	case OpICmp:
		return p.IsInt()
	case OpFCmp:
		return p.IsFloat()
	}
	return false
}

// ParseCmpPred finds the predicate spelled s for op (OpICmp or OpFCmp).
func ParseCmpPred(op Op, s string) (CmpPred, bool) {
	for p := PredNone + 1; p < numCmpPreds; p++ {
		if cmpPredTable[p].name == s && p.ValidFor(op) {
			return p, true
		}
	}
	return PredNone, false
}

// AtomicKind is the read-modify-write operation of an atomic instruction.
type AtomicKind uint8

const (
	AtomicNone AtomicKind = iota
	AtomicAdd
	AtomicMin
	AtomicMax
	AtomicUMin
	AtomicUMax
	AtomicAnd
	AtomicOr
	AtomicXor
	AtomicXchg
	AtomicCmpXchg
	numAtomicKinds
)

var atomicKindNames = [numAtomicKinds]string{
	AtomicNone: "",
	AtomicAdd:  "add", AtomicMin: "min", AtomicMax: "max", AtomicUMin: "umin", AtomicUMax: "umax",
	AtomicAnd: "and", AtomicOr: "or", AtomicXor: "xor", AtomicXchg: "xchg", AtomicCmpXchg: "cmpxchg",
}

func (k AtomicKind) String() string {
	if k < numAtomicKinds {
		return atomicKindNames[k]
	}
	return "atomic?"
}

// Valid reports a real kind (not AtomicNone, not out of range).
func (k AtomicKind) Valid() bool { return k > AtomicNone && k < numAtomicKinds }

// NumOperands is the operand count of an atomic of this kind: the pointer
// and the value, plus the comparand for cmpxchg.
func (k AtomicKind) NumOperands() int {
	if k == AtomicCmpXchg {
		return 3
	}
	return 2
}

// ParseAtomicKind finds the atomic kind spelled s.
func ParseAtomicKind(s string) (AtomicKind, bool) {
	for k := AtomicAdd; k < numAtomicKinds; k++ {
		if atomicKindNames[k] == s {
			return k, true
		}
	}
	return AtomicNone, false
}

// MergeKind says which structured-control-flow annotation a terminator has.
type MergeKind uint8

const (
	MergeNone      MergeKind = iota
	MergeSelection           // selection_merge %m (if / switch)
	MergeLoop                // loop_merge %m, %continue (on the loop header's terminator)
)

// SwitchCase is one label group of a switch, in source order. Values are the
// case values; Default marks the group containing `default:` (it may also
// carry values, as in `case 1: default:`).
type SwitchCase struct {
	Values  []int64
	Default bool
	Target  *Block
}

// Loc is a source position (1-based; 0 means unknown).
type Loc struct {
	Line, Col int32
}

// Instr is one instruction. Which fields are used depends on Op (see the
// comments on the Op constants and docs/ir.md).
type Instr struct {
	// The one-byte fields sit together (layout only): an Instr is 224
	// bytes instead of 240 (large imported modules have ~10^6 of them).
	Op        Op
	Pred      CmpPred    // icmp/fcmp predicate
	Atomic    AtomicKind // atomic operation kind
	MergeKind MergeKind

	name string
	typ  *Type // result type; Void for instructions without a result

	Args []Value // operands; for switch Args[0] is the selector

	Succs     []*Block     // br: [dst]; condbr: [then, else]
	Cases     []SwitchCase // switch: label groups in source order
	PhiBlocks []*Block     // phi: incoming block of Args[i]

	Idx    []int // extractvalue/insertvalue path; shuffle mask
	Callee *Function
	Intr   *Intrinsic

	Merge    *Block // selection or loop merge block
	Continue *Block // loop continue target

	Block *Block
	Loc   Loc

	// The verifier's scratch: its position in the layout, valid while
	// vmark is the running check's number (verify.go, verifyGen).
	vmark uint64
	vpos  ipos
}

func (in *Instr) Type() *Type { return in.typ }
func (in *Instr) Name() string {
	return in.name
}
func (in *Instr) Ref() string { return "%" + quoteName(in.name) }

// SetType changes the result type (used by passes that retype, e.g. scalarize).
func (in *Instr) SetType(t *Type) { in.typ = t }

// HasResult reports whether the instruction defines a value.
func (in *Instr) HasResult() bool { return in.typ != nil && in.typ != Void }

// Successors returns the CFG successors in LLVM order: for switch the
// default target first, then the other groups' targets in source order (one
// entry per case value, as LLVM lists them). Analyses rely on this order.
func (in *Instr) Successors() []*Block {
	switch in.Op {
	case OpBr, OpCondBr:
		return in.Succs
	case OpSwitch:
		var out []*Block
		for _, c := range in.Cases {
			if c.Default {
				out = append(out, c.Target)
			}
		}
		for _, c := range in.Cases {
			for range c.Values {
				out = append(out, c.Target)
			}
		}
		return out
	}
	return nil
}

// ReplaceSuccessor rewrites every CFG edge (and merge annotation) from old to new.
func (in *Instr) ReplaceSuccessor(old, new *Block) {
	for i, s := range in.Succs {
		if s == old {
			in.Succs[i] = new
		}
	}
	for i := range in.Cases {
		if in.Cases[i].Target == old {
			in.Cases[i].Target = new
		}
	}
}

// IsTerminator reports whether in ends its block.
func (in *Instr) IsTerminator() bool { return in.Op.IsTerminator() }

// Incoming returns the value a phi receives from block b (nil if none).
func (in *Instr) Incoming(b *Block) Value {
	for i, pb := range in.PhiBlocks {
		if pb == b {
			return in.Args[i]
		}
	}
	return nil
}
