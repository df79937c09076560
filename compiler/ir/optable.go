package ir

// The op descriptor table: one entry per Op holding everything the rest of
// the compiler needs to know about an opcode without switching on it: its
// textual spelling, how many operands it takes, how its result type follows
// from its operands, how the .pir text writes it, and its properties
// (terminator, pure, commutative, memory effects, convergence).
//
// The predicates on Op and Instr (IsTerminator, IsBinary, HasSideEffects,
// ReadsMemory, ...), the verifier's regular type rules, the printer and the
// parser read this table, so adding an op means adding one entry here plus
// its irregular rules (a per-op verifier check in verify_types.go and its
// execution in interp). optable_test.go checks that every op has a complete
// entry, an example whose text round-trips, and consistent flags;
// compiler/interp/optable_test.go checks the commutative and elementwise
// flags against execution.

// OpFlags are the properties of an op.
type OpFlags uint16

const (
	// FlagTerminator: ends its block (exactly one per block, last).
	FlagTerminator OpFlags = 1 << iota
	// FlagPure: the result depends only on the operands: no memory access,
	// no side effects, no dependence on control flow or on the other lanes.
	// Pure instructions may be merged (CSE), hoisted, or removed when unused.
	FlagPure
	// FlagCommutative: a two-operand op whose operands may be swapped.
	FlagCommutative
	// FlagReadsMemory: may read memory through a pointer.
	FlagReadsMemory
	// FlagWritesMemory: may write memory through a pointer.
	FlagWritesMemory
	// FlagSideEffects: must be kept even when its result is unused (memory
	// writes, calls, control transfer).
	FlagSideEffects
	// FlagConvergent: depends on which lanes execute it together (wave ops,
	// barriers, derivatives); never moved across control flow or merged.
	// No op has it statically; OpIntrinsic takes it from the intrinsic.
	FlagConvergent
	// FlagElementwise: on vector operands the op acts on each component
	// independently (the scalarizer splits it into one instruction per
	// component), like an intrinsic with AttrElementwise.
	FlagElementwise
)

// An intr instruction's properties come from its intrinsic's attributes
// (Instr.flags); a call's are the conservative ones in the table (it may
// read and write memory and has side effects).

// OpClass groups ops that share their operand and result rules.
type OpClass uint8

const (
	ClassOther  OpClass = iota
	ClassBinary         // two operands of one scalar/vector type, result of that type
	ClassUnary          // one operand, result of its type
	ClassCmp            // icmp/fcmp: two operands of one type, bool result of their shape
	ClassCast           // one operand converted to the written result type
)

// ResultRule says how an op's result type is determined.
type ResultRule uint8

const (
	// ResultNone: no value (the result type is Void).
	ResultNone ResultRule = iota
	// ResultOperand: the type of operand OpInfo.ResultArg.
	ResultOperand
	// ResultBoolShape: bool, or a bool vector with operand 0's length.
	ResultBoolShape
	// ResultElem: the element type of vector operand 0.
	ResultElem
	// ResultPointee: the pointee type of pointer operand 0.
	ResultPointee
	// ResultWritten: the instruction's text spells the result type (casts,
	// construct, call, intr, phi); per-op rules check it.
	ResultWritten
	// ResultDerived: computed from the operands and the index list by the
	// op's own rule (shuffle, extractvalue, access, alloca).
	ResultDerived
)

// Variadic is OpInfo.MaxArgs for ops without an upper operand bound.
const Variadic = -1

// Operand type classes for regular ops (OpInfo.Operands).
type OperandClass uint8

const (
	OperandsAny     OperandClass = iota // no class rule (per-op checks, if any)
	OperandsInt                         // integer scalars or vectors
	OperandsIntBool                     // integer or bool scalars or vectors
	OperandsFloat                       // float scalars or vectors
	OperandsNumeric                     // integer or float (not bool) scalars or vectors
)

// CastRule is a conversion op's rule: the classes of the operand's and the
// result's scalar (element) types and how their sizes relate.
type CastRule struct {
	From, To OperandClass
	Size     CastSize
}

// CastSize relates a conversion's operand and result sizes.
type CastSize uint8

const (
	CastAnySize   CastSize = iota // any element widths, same vector length
	CastNarrower                  // a narrower result element, same vector length
	CastWider                     // a wider result element, same vector length
	CastEqualBits                 // equal total bit size; the vector length may change
)

// Syntax says how an instruction's operands are written in the .pir text
// after its mnemonic; Aux says which non-operand fields it carries.
type Syntax uint8

const (
	// SyntaxOperands: the operands as a comma-separated list of typed
	// values ("T %a, T %b"). With OpInfo.LastBare the last operand is
	// written without its type, which is the type of the operand before it
	// ("add i32 %a, %b"). A predicate or atomic kind (Aux) comes first, an
	// index list, mask or branch targets after.
	SyntaxOperands Syntax = iota
	// SyntaxCast: "T %x to U".
	SyntaxCast
	// SyntaxConstruct: "T (T1 %a, T2 %b, ...)".
	SyntaxConstruct
	// SyntaxCall: "T @f(args)" or "T name(args)".
	SyntaxCall
	// SyntaxAlloca: the allocated type.
	SyntaxAlloca
	// SyntaxPhi: "T [%v, %pred], ...".
	SyntaxPhi
)

// Aux names the non-operand instruction field an op uses.
type Aux uint8

const (
	AuxNone      Aux = iota
	AuxCmpPred       // Instr.Pred, written before the operands
	AuxAtomic        // Instr.Atomic, written before the operands
	AuxMask          // Instr.Idx as a shuffle mask, written ", [i, j, ...]"
	AuxPath          // Instr.Idx as an aggregate index path, written ", i, j"
	AuxCallee        // Instr.Callee
	AuxIntrinsic     // Instr.Intr
	AuxPhiBlocks     // Instr.PhiBlocks
	AuxSuccs         // Instr.Succs, written after the operands
	AuxCases         // Instr.Cases, written after the selector
)

// OpInfo is one op's table entry.
type OpInfo struct {
	Name      string  // the textual IR mnemonic
	Class     OpClass // shared operand/result rules
	MinArgs   int     // fewest operands
	MaxArgs   int     // most operands, or Variadic
	Same      uint8   // bit i set: operand i has the type shared by all set operands
	Operands  OperandClass
	Result    ResultRule // how the result type follows
	ResultArg int        // the operand whose type ResultOperand copies
	Syntax    Syntax
	LastBare  bool // SyntaxOperands: the last operand is written without its type
	Aux       Aux
	NumSuccs  int      // AuxSuccs: how many branch targets
	Cast      CastRule // ClassCast: what converts to what
	Flags     OpFlags
}

// Has reports whether all of the flags f are set.
func (i *OpInfo) Has(f OpFlags) bool { return i.Flags&f == f }

// FixedArity reports whether the op always takes MinArgs operands.
func (i *OpInfo) FixedArity() bool { return i.MinArgs == i.MaxArgs }

// Info returns o's table entry (the zero entry for an out-of-range op).
func (o Op) Info() OpInfo {
	if o < numOps {
		return opTable[o]
	}
	return OpInfo{}
}

const (
	fPure = FlagPure
	fComm = FlagPure | FlagCommutative
	fEW   = FlagPure | FlagElementwise
	fTerm = FlagTerminator | FlagSideEffects
)

func opBinary(name string, ops OperandClass, f OpFlags) OpInfo {
	return OpInfo{Name: name, Class: ClassBinary, MinArgs: 2, MaxArgs: 2, Same: 0b11, Operands: ops,
		Result: ResultOperand, LastBare: true, Flags: f | FlagElementwise}
}

func opUnary(name string, ops OperandClass) OpInfo {
	return OpInfo{Name: name, Class: ClassUnary, MinArgs: 1, MaxArgs: 1, Operands: ops, Result: ResultOperand, Flags: fEW}
}

func opCmp(name string) OpInfo {
	return OpInfo{Name: name, Class: ClassCmp, MinArgs: 2, MaxArgs: 2, Same: 0b11, Result: ResultBoolShape,
		LastBare: true, Aux: AuxCmpPred, Flags: fEW}
}

func opCast(name string, from, to OperandClass, size CastSize) OpInfo {
	return OpInfo{Name: name, Class: ClassCast, MinArgs: 1, MaxArgs: 1, Result: ResultWritten, Syntax: SyntaxCast,
		Cast: CastRule{from, to, size}, Flags: fEW}
}

// operands is an entry written as a typed operand list.
func opList(name string, minArgs, maxArgs int, r ResultRule, f OpFlags) OpInfo {
	return OpInfo{Name: name, MinArgs: minArgs, MaxArgs: maxArgs, Result: r, Flags: f}
}

func opTerm(name string, minArgs, maxArgs int, aux Aux) OpInfo {
	return OpInfo{Name: name, MinArgs: minArgs, MaxArgs: maxArgs, Result: ResultNone, Aux: aux, Flags: fTerm}
}

func withAux(i OpInfo, edit func(*OpInfo)) OpInfo {
	edit(&i)
	return i
}

var opTable = [numOps]OpInfo{
	OpInvalid: {Name: "invalid"},

	OpAdd:  opBinary("add", OperandsInt, fComm),
	OpSub:  opBinary("sub", OperandsInt, fPure),
	OpMul:  opBinary("mul", OperandsInt, fComm),
	OpSDiv: opBinary("sdiv", OperandsInt, fPure),
	OpUDiv: opBinary("udiv", OperandsInt, fPure),
	OpSRem: opBinary("srem", OperandsInt, fPure),
	OpURem: opBinary("urem", OperandsInt, fPure),
	OpShl:  opBinary("shl", OperandsInt, fPure),
	OpLShr: opBinary("lshr", OperandsInt, fPure),
	OpAShr: opBinary("ashr", OperandsInt, fPure),
	OpAnd:  opBinary("and", OperandsIntBool, fComm),
	OpOr:   opBinary("or", OperandsIntBool, fComm),
	OpXor:  opBinary("xor", OperandsIntBool, fComm),
	OpNot:  opUnary("not", OperandsIntBool),
	OpNeg:  opUnary("neg", OperandsInt),

	OpFAdd: opBinary("fadd", OperandsFloat, fComm),
	OpFSub: opBinary("fsub", OperandsFloat, fPure),
	OpFMul: opBinary("fmul", OperandsFloat, fComm),
	OpFDiv: opBinary("fdiv", OperandsFloat, fPure),
	OpFRem: opBinary("frem", OperandsFloat, fPure),
	OpFNeg: opUnary("fneg", OperandsFloat),

	OpICmp: opCmp("icmp"),
	OpFCmp: opCmp("fcmp"),

	OpSelect: {Name: "select", MinArgs: 3, MaxArgs: 3, Same: 0b110, Result: ResultOperand, ResultArg: 1,
		LastBare: true, Flags: fEW},

	OpSIToFP:  opCast("sitofp", OperandsInt, OperandsFloat, CastAnySize),
	OpUIToFP:  opCast("uitofp", OperandsInt, OperandsFloat, CastAnySize),
	OpFPToSI:  opCast("fptosi", OperandsFloat, OperandsInt, CastAnySize),
	OpFPToUI:  opCast("fptoui", OperandsFloat, OperandsInt, CastAnySize),
	OpBitcast: opCast("bitcast", OperandsNumeric, OperandsNumeric, CastEqualBits), // also pointer to pointer
	OpTrunc:   opCast("trunc", OperandsIntBool, OperandsIntBool, CastNarrower),
	OpZExt:    opCast("zext", OperandsIntBool, OperandsIntBool, CastWider),
	OpSExt:    opCast("sext", OperandsIntBool, OperandsIntBool, CastWider),
	OpFPTrunc: opCast("fptrunc", OperandsFloat, OperandsFloat, CastNarrower),
	OpFPExt:   opCast("fpext", OperandsFloat, OperandsFloat, CastWider),

	OpConstruct:    {Name: "construct", MinArgs: 0, MaxArgs: Variadic, Result: ResultWritten, Syntax: SyntaxConstruct, Flags: fPure},
	OpExtractElem:  opList("extractelement", 2, 2, ResultElem, fPure),
	OpInsertElem:   opList("insertelement", 3, 3, ResultOperand, fPure),
	OpShuffle:      withAux(opList("shuffle", 2, 2, ResultDerived, fPure), func(i *OpInfo) { i.Aux = AuxMask }),
	OpExtractValue: withAux(opList("extractvalue", 1, 1, ResultDerived, fPure), func(i *OpInfo) { i.Aux = AuxPath }),
	OpInsertValue:  withAux(opList("insertvalue", 2, 2, ResultOperand, fPure), func(i *OpInfo) { i.Aux = AuxPath }),
	OpCopy:         opList("copy", 1, 1, ResultOperand, fPure),

	// An alloca neither reads nor writes, but each execution makes a
	// distinct object, so it is not pure (never merged).
	OpAlloca: {Name: "alloca", Result: ResultDerived, Syntax: SyntaxAlloca},
	OpLoad:   opList("load", 1, 1, ResultPointee, FlagReadsMemory),
	OpStore:  opList("store", 2, 2, ResultNone, FlagWritesMemory|FlagSideEffects),
	OpAccess: opList("access", 1, Variadic, ResultDerived, fPure),
	OpMemcpy: opList("memcpy", 2, 2, ResultNone, FlagReadsMemory|FlagWritesMemory|FlagSideEffects),
	OpMemset: opList("memset", 2, 2, ResultNone, FlagWritesMemory|FlagSideEffects),
	OpAtomic: withAux(opList("atomic", 2, 3, ResultPointee, FlagReadsMemory|FlagWritesMemory|FlagSideEffects),
		func(i *OpInfo) { i.Aux = AuxAtomic }),

	OpCall: {Name: "call", MinArgs: 0, MaxArgs: Variadic, Result: ResultWritten, Syntax: SyntaxCall, Aux: AuxCallee,
		Flags: FlagReadsMemory | FlagWritesMemory | FlagSideEffects},
	OpIntrinsic: {Name: "intr", MinArgs: 0, MaxArgs: Variadic, Result: ResultWritten, Syntax: SyntaxCall, Aux: AuxIntrinsic},
	// A phi is not pure: its value depends on the edge control came in by.
	OpPhi: {Name: "phi", MinArgs: 0, MaxArgs: Variadic, Result: ResultWritten, Syntax: SyntaxPhi, Aux: AuxPhiBlocks},

	OpBr:          withAux(opTerm("br", 0, 0, AuxSuccs), func(i *OpInfo) { i.NumSuccs = 1 }),
	OpCondBr:      withAux(opTerm("condbr", 1, 1, AuxSuccs), func(i *OpInfo) { i.NumSuccs = 2 }),
	OpSwitch:      opTerm("switch", 1, 1, AuxCases),
	OpRet:         opTerm("ret", 0, 1, AuxNone),
	OpDiscard:     opTerm("discard", 0, 0, AuxNone),
	OpUnreachable: opTerm("unreachable", 0, 0, AuxNone),
}

// IsTerminator reports block-ending ops.
func (o Op) IsTerminator() bool { return o < numOps && opTable[o].Flags&FlagTerminator != 0 }

// IsBinary reports two-operand arithmetic/bitwise ops.
func (o Op) IsBinary() bool { return o < numOps && opTable[o].Class == ClassBinary }

// IsUnary reports one-operand arithmetic ops.
func (o Op) IsUnary() bool { return o < numOps && opTable[o].Class == ClassUnary }

// IsCast reports conversion ops.
func (o Op) IsCast() bool { return o < numOps && opTable[o].Class == ClassCast }

// IsCmp reports icmp and fcmp.
func (o Op) IsCmp() bool { return o < numOps && opTable[o].Class == ClassCmp }

// IsFloatArith reports the float binary and unary ops (fadd ... fneg).
func (o Op) IsFloatArith() bool {
	return (o.IsBinary() || o.IsUnary()) && opTable[o].Operands == OperandsFloat
}

// IsElementwise reports ops that act on each vector component
// independently (arithmetic, comparisons, select, conversions).
func (o Op) IsElementwise() bool { return o < numOps && opTable[o].Flags&FlagElementwise != 0 }

// IsCommutative reports binary ops whose operands may be swapped.
func (o Op) IsCommutative() bool { return o < numOps && opTable[o].Flags&FlagCommutative != 0 }

// flags returns the instruction's properties: the op's, or for an
// intrinsic those its attributes imply.
func (in *Instr) flags() OpFlags {
	if in.Op >= numOps {
		return 0
	}
	f := opTable[in.Op].Flags
	if opTable[in.Op].Aux != AuxIntrinsic {
		return f
	}
	if in.Intr == nil {
		// Unknown: assume the worst.
		return f | FlagReadsMemory | FlagWritesMemory | FlagSideEffects
	}
	a := in.Intr.Attrs
	switch {
	case !a.Has(AttrPure) && a.Has(AttrWave):
		// Wave ops without AttrPure (reductions, lane reads): kept in
		// place, but they do not touch memory.
		f |= FlagSideEffects
	case !a.Has(AttrPure):
		// Barriers, markers, unknown LLVM intrinsics: ordered with
		// respect to memory.
		f |= FlagReadsMemory | FlagWritesMemory | FlagSideEffects
	case !a.Has(AttrConvergent):
		f |= FlagPure
	}
	if a.Has(AttrConvergent) {
		f |= FlagConvergent
	}
	return f
}

// HasSideEffects reports instructions that must not be removed when unused.
func (in *Instr) HasSideEffects() bool { return in.flags()&FlagSideEffects != 0 }

// IsConvergent reports operations whose result depends on the set of lanes
// executing them together (wave ops, barriers): they must not be moved
// across control flow or merged.
func (in *Instr) IsConvergent() bool { return in.flags()&FlagConvergent != 0 }

// IsPure reports instructions whose result depends only on their operands
// (FlagPure; for intrinsics: pure and not convergent). They may be merged,
// hoisted or removed when unused.
func (in *Instr) IsPure() bool { return in.flags()&FlagPure != 0 }

// ReadsMemory reports instructions that may read memory.
func (in *Instr) ReadsMemory() bool { return in.flags()&FlagReadsMemory != 0 }

// WritesMemory reports instructions that may write memory.
func (in *Instr) WritesMemory() bool { return in.flags()&FlagWritesMemory != 0 }

// ResultTypeOf is the result type op has with operands args under its
// table's result rule, or nil when the rule needs more than the operand
// types (ResultWritten, ResultDerived) or the operands do not fit it (too
// few, not a vector or pointer where one is needed).
func ResultTypeOf(op Op, args []Value) *Type {
	if op >= numOps {
		return nil
	}
	info := &opTable[op]
	arg := func(i int) *Type {
		if i < len(args) && args[i] != nil {
			return args[i].Type()
		}
		return nil
	}
	switch info.Result {
	case ResultNone:
		return Void
	case ResultOperand:
		return arg(info.ResultArg)
	case ResultBoolShape:
		if t := arg(0); t != nil {
			return BoolOf(t)
		}
	case ResultElem:
		if t := arg(0); t != nil && t.Kind == KVector {
			return t.Elem
		}
	case ResultPointee:
		if t := arg(0); t != nil && t.Kind == KPointer {
			return t.Elem
		}
	}
	return nil
}
