package spirv

import (
	"fmt"
	"strings"
)

// This file is the instruction grammar the decoder and the disassembler
// use: for each opcode passlens emits, its name and the kinds of its
// operands, written as a short pattern (see parseOperandPattern).

// operandKind is how one operand word (or group of words) is read.
type operandKind uint8

const (
	kResultType operandKind = iota + 1
	kResult
	kID         // an <id>
	kLitInt     // a 32-bit literal integer
	kLitString  // a nul-terminated UTF-8 string
	kTypedLit   // a literal whose width and meaning come from the result type (OpConstant)
	kSwitchLit  // OpSwitch (literal, label) pairs, literal typed by the selector
	kExtInstNum // an extended instruction number (GLSL.std.450)
	kCapability
	kAddressing
	kMemoryModel
	kExecModel
	kExecMode // followed by the mode's literals
	kStorageClass
	kDecoration // followed by the decoration's operands
	kFuncControl
	kSelControl
	kLoopControl
	kMemAccess
	kGroupOp
)

// operand is one slot of an instruction pattern.
type operand struct {
	kind     operandKind
	optional bool // may be absent ('?')
	repeat   bool // zero or more until the end ('*'); a pair pattern repeats as a pair
	pair     bool // repeats as (id, id) pairs (OpPhi)
}

// opInfo is one opcode's grammar.
type opInfo struct {
	name     string
	operands []operand
}

var opTable = map[uint16]*opInfo{}

// kindNames maps pattern tokens to kinds.
var kindNames = map[string]operandKind{
	"T": kResultType, "R": kResult, "i": kID, "n": kLitInt, "s": kLitString, "v": kTypedLit,
	"sw": kSwitchLit, "ext": kExtInstNum, "cap": kCapability, "am": kAddressing, "mm": kMemoryModel,
	"em": kExecModel, "mode": kExecMode, "sc": kStorageClass, "dec": kDecoration, "fc": kFuncControl,
	"sel": kSelControl, "loop": kLoopControl, "ma": kMemAccess, "gop": kGroupOp,
}

// parseOperandPattern reads "T R i i*" style patterns: a token, optionally
// followed by ? (optional) or * (repeated); "ii*" is a repeated id pair.
func parseOperandPattern(p string) []operand {
	var out []operand
	for _, tok := range strings.Fields(p) {
		o := operand{}
		switch {
		case tok == "ii*":
			o.kind, o.repeat, o.pair = kID, true, true
			out = append(out, o)
			continue
		case strings.HasSuffix(tok, "?"):
			o.optional = true
			tok = tok[:len(tok)-1]
		case strings.HasSuffix(tok, "*"):
			o.repeat = true
			tok = tok[:len(tok)-1]
		}
		k, ok := kindNames[tok]
		if !ok {
			panic("spirv: bad operand pattern token " + tok)
		}
		o.kind = k
		out = append(out, o)
	}
	return out
}

func defOp(code uint16, name, pattern string) {
	opTable[code] = &opInfo{name: name, operands: parseOperandPattern(pattern)}
}

func init() {
	defOp(OpNop, "Nop", "")
	defOp(OpUndef, "Undef", "T R")
	defOp(OpName, "Name", "i s")
	defOp(OpMemberName, "MemberName", "i n s")
	defOp(OpExtension, "Extension", "s")
	defOp(OpExtInstImport, "ExtInstImport", "R s")
	defOp(OpExtInst, "ExtInst", "T R i ext i*")
	defOp(OpMemoryModel, "MemoryModel", "am mm")
	defOp(OpEntryPoint, "EntryPoint", "em i s i*")
	defOp(OpExecutionMode, "ExecutionMode", "i mode")
	defOp(OpCapability, "Capability", "cap")
	defOp(OpTypeVoid, "TypeVoid", "R")
	defOp(OpTypeBool, "TypeBool", "R")
	defOp(OpTypeInt, "TypeInt", "R n n")
	defOp(OpTypeFloat, "TypeFloat", "R n")
	defOp(OpTypeVector, "TypeVector", "R i n")
	defOp(OpTypeMatrix, "TypeMatrix", "R i n")
	defOp(OpTypeArray, "TypeArray", "R i i")
	defOp(OpTypeRuntimeArray, "TypeRuntimeArray", "R i")
	defOp(OpTypeStruct, "TypeStruct", "R i*")
	defOp(OpTypePointer, "TypePointer", "R sc i")
	defOp(OpTypeFunction, "TypeFunction", "R i i*")
	defOp(OpConstantTrue, "ConstantTrue", "T R")
	defOp(OpConstantFalse, "ConstantFalse", "T R")
	defOp(OpConstant, "Constant", "T R v")
	defOp(OpConstantComposite, "ConstantComposite", "T R i*")
	defOp(OpConstantNull, "ConstantNull", "T R")
	defOp(OpSpecConstantTrue, "SpecConstantTrue", "T R")
	defOp(OpSpecConstantFalse, "SpecConstantFalse", "T R")
	defOp(OpSpecConstant, "SpecConstant", "T R v")
	defOp(OpFunction, "Function", "T R fc i")
	defOp(OpFunctionParameter, "FunctionParameter", "T R")
	defOp(OpFunctionEnd, "FunctionEnd", "")
	defOp(OpFunctionCall, "FunctionCall", "T R i i*")
	defOp(OpVariable, "Variable", "T R sc i?")
	defOp(OpLoad, "Load", "T R i ma?")
	defOp(OpStore, "Store", "i i ma?")
	defOp(OpCopyMemory, "CopyMemory", "i i ma?")
	defOp(OpAccessChain, "AccessChain", "T R i i*")
	defOp(OpArrayLength, "ArrayLength", "T R i n")
	defOp(OpDecorate, "Decorate", "i dec")
	defOp(OpMemberDecorate, "MemberDecorate", "i n dec")
	defOp(OpVectorExtractDynamic, "VectorExtractDynamic", "T R i i")
	defOp(OpVectorInsertDynamic, "VectorInsertDynamic", "T R i i i")
	defOp(OpVectorShuffle, "VectorShuffle", "T R i i n*")
	defOp(OpCompositeConstruct, "CompositeConstruct", "T R i*")
	defOp(OpCompositeExtract, "CompositeExtract", "T R i n*")
	defOp(OpCompositeInsert, "CompositeInsert", "T R i i n*")
	defOp(OpCopyObject, "CopyObject", "T R i")
	defOp(OpTranspose, "Transpose", "T R i")
	for code, name := range map[uint16]string{
		OpConvertFToU: "ConvertFToU", OpConvertFToS: "ConvertFToS", OpConvertSToF: "ConvertSToF",
		OpConvertUToF: "ConvertUToF", OpUConvert: "UConvert", OpSConvert: "SConvert", OpFConvert: "FConvert",
		OpBitcast: "Bitcast", OpSNegate: "SNegate", OpFNegate: "FNegate", OpAny: "Any", OpAll: "All",
		OpIsNan: "IsNan", OpIsInf: "IsInf", OpLogicalNot: "LogicalNot", OpNot: "Not",
		OpBitReverse: "BitReverse", OpBitCount: "BitCount",
	} {
		defOp(code, name, "T R i")
	}
	for code, name := range map[uint16]string{
		OpIAdd: "IAdd", OpFAdd: "FAdd", OpISub: "ISub", OpFSub: "FSub", OpIMul: "IMul", OpFMul: "FMul",
		OpUDiv: "UDiv", OpSDiv: "SDiv", OpFDiv: "FDiv", OpUMod: "UMod", OpSRem: "SRem", OpSMod: "SMod",
		OpFRem: "FRem", OpFMod: "FMod", OpVectorTimesScalar: "VectorTimesScalar",
		OpMatrixTimesScalar: "MatrixTimesScalar", OpVectorTimesMatrix: "VectorTimesMatrix",
		OpMatrixTimesVector: "MatrixTimesVector", OpMatrixTimesMatrix: "MatrixTimesMatrix", OpDot: "Dot",
		OpLogicalEqual: "LogicalEqual", OpLogicalNotEqual: "LogicalNotEqual", OpLogicalOr: "LogicalOr",
		OpLogicalAnd: "LogicalAnd", OpIEqual: "IEqual", OpINotEqual: "INotEqual",
		OpUGreaterThan: "UGreaterThan", OpSGreaterThan: "SGreaterThan",
		OpUGreaterThanEqual: "UGreaterThanEqual", OpSGreaterThanEqual: "SGreaterThanEqual",
		OpULessThan: "ULessThan", OpSLessThan: "SLessThan", OpULessThanEqual: "ULessThanEqual",
		OpSLessThanEqual: "SLessThanEqual", OpFOrdEqual: "FOrdEqual", OpFUnordEqual: "FUnordEqual",
		OpFOrdNotEqual: "FOrdNotEqual", OpFUnordNotEqual: "FUnordNotEqual", OpFOrdLessThan: "FOrdLessThan",
		OpFUnordLessThan: "FUnordLessThan", OpFOrdGreaterThan: "FOrdGreaterThan",
		OpFUnordGreaterThan: "FUnordGreaterThan", OpFOrdLessThanEqual: "FOrdLessThanEqual",
		OpFUnordLessThanEqual: "FUnordLessThanEqual", OpFOrdGreaterThanEqual: "FOrdGreaterThanEqual",
		OpFUnordGreaterThanEqual: "FUnordGreaterThanEqual", OpShiftRightLogical: "ShiftRightLogical",
		OpShiftRightArithmetic: "ShiftRightArithmetic", OpShiftLeftLogical: "ShiftLeftLogical",
		OpBitwiseOr: "BitwiseOr", OpBitwiseXor: "BitwiseXor", OpBitwiseAnd: "BitwiseAnd",
	} {
		defOp(code, name, "T R i i")
	}
	defOp(OpSelect, "Select", "T R i i i")
	defOp(OpControlBarrier, "ControlBarrier", "i i i")
	defOp(OpMemoryBarrier, "MemoryBarrier", "i i")
	defOp(OpAtomicExchange, "AtomicExchange", "T R i i i i")
	defOp(OpAtomicCompareExchange, "AtomicCompareExchange", "T R i i i i i i")
	for code, name := range map[uint16]string{
		OpAtomicIAdd: "AtomicIAdd", OpAtomicSMin: "AtomicSMin", OpAtomicUMin: "AtomicUMin",
		OpAtomicSMax: "AtomicSMax", OpAtomicUMax: "AtomicUMax", OpAtomicAnd: "AtomicAnd",
		OpAtomicOr: "AtomicOr", OpAtomicXor: "AtomicXor",
	} {
		defOp(code, name, "T R i i i i")
	}
	defOp(OpPhi, "Phi", "T R ii*")
	defOp(OpLoopMerge, "LoopMerge", "i i loop")
	defOp(OpSelectionMerge, "SelectionMerge", "i sel")
	defOp(OpLabel, "Label", "R")
	defOp(OpBranch, "Branch", "i")
	defOp(OpBranchConditional, "BranchConditional", "i i i n*")
	defOp(OpSwitch, "Switch", "i i sw*")
	defOp(OpKill, "Kill", "")
	defOp(OpReturn, "Return", "")
	defOp(OpReturnValue, "ReturnValue", "i")
	defOp(OpUnreachable, "Unreachable", "")
	defOp(OpGroupNonUniformElect, "GroupNonUniformElect", "T R i")
	defOp(OpGroupNonUniformAll, "GroupNonUniformAll", "T R i i")
	defOp(OpGroupNonUniformAny, "GroupNonUniformAny", "T R i i")
	defOp(OpGroupNonUniformAllEqual, "GroupNonUniformAllEqual", "T R i i")
	defOp(OpGroupNonUniformBroadcast, "GroupNonUniformBroadcast", "T R i i i")
	defOp(OpGroupNonUniformBcFirst, "GroupNonUniformBroadcastFirst", "T R i i")
	defOp(OpGroupNonUniformBallot, "GroupNonUniformBallot", "T R i i")
	defOp(OpGroupNonUniformBitCount, "GroupNonUniformBallotBitCount", "T R i gop i")
	defOp(OpGroupNonUniformShuffle, "GroupNonUniformShuffle", "T R i i i")
	for code, name := range map[uint16]string{
		OpGroupNonUniformIAdd: "GroupNonUniformIAdd", OpGroupNonUniformFAdd: "GroupNonUniformFAdd",
		OpGroupNonUniformIMul: "GroupNonUniformIMul", OpGroupNonUniformFMul: "GroupNonUniformFMul",
		OpGroupNonUniformSMin: "GroupNonUniformSMin", OpGroupNonUniformUMin: "GroupNonUniformUMin",
		OpGroupNonUniformFMin: "GroupNonUniformFMin", OpGroupNonUniformSMax: "GroupNonUniformSMax",
		OpGroupNonUniformUMax: "GroupNonUniformUMax", OpGroupNonUniformFMax: "GroupNonUniformFMax",
		OpGroupNonUniformAnd: "GroupNonUniformBitwiseAnd", OpGroupNonUniformOr: "GroupNonUniformBitwiseOr",
		OpGroupNonUniformXor: "GroupNonUniformBitwiseXor", OpGroupNonUniformLAnd: "GroupNonUniformLogicalAnd",
		OpGroupNonUniformLOr: "GroupNonUniformLogicalOr", OpGroupNonUniformLXor: "GroupNonUniformLogicalXor",
	} {
		defOp(code, name, "T R i gop i i?")
	}
}

// Enumerant names as spirv-dis prints them.
var (
	capabilityNames = map[uint32]string{
		CapMatrix: "Matrix", CapShader: "Shader", CapGeometry: "Geometry", CapMultiViewport: "MultiViewport", CapFloat16: "Float16", CapFloat64: "Float64",
		CapInt64: "Int64", CapInt64Atomics: "Int64Atomics", CapInt16: "Int16",
		CapStorageBuffer16BitAccess: "StorageBuffer16BitAccess", CapUniformAndStorageBuffer16: "UniformAndStorageBuffer16BitAccess",
		CapShaderViewportIndexLayer: "ShaderViewportIndexLayerEXT", CapVariablePointersStorageBuffer: "VariablePointersStorageBuffer", CapShaderNonUniform: "ShaderNonUniform", CapDenormFlushToZero: "DenormFlushToZero", CapRoundingModeRTE: "RoundingModeRTE", CapClipDistance: "ClipDistance", CapCullDistance: "CullDistance", CapSampleRateShading: "SampleRateShading", CapInt8: "Int8", CapGroupNonUniform: "GroupNonUniform",
		CapGroupNonUniformVote: "GroupNonUniformVote", CapGroupNonUniformArithmetic: "GroupNonUniformArithmetic",
		CapGroupNonUniformBallot: "GroupNonUniformBallot", CapGroupNonUniformShuffle: "GroupNonUniformShuffle",
	}
	addressingNames  = map[uint32]string{0: "Logical", 1: "Physical32", 2: "Physical64"}
	memoryModelNames = map[uint32]string{0: "Simple", 1: "GLSL450", 2: "OpenCL", 3: "Vulkan"}
	execModelNames   = map[uint32]string{ExecVertex: "Vertex", ExecFragment: "Fragment", ExecGLCompute: "GLCompute"}
	execModeNames    = map[uint32]string{ModeOriginUpperLeft: "OriginUpperLeft", ModeDepthReplacing: "DepthReplacing", ModeDepthGreater: "DepthGreater", ModeDepthLess: "DepthLess", ModeLocalSize: "LocalSize", ModeDenormFlushToZero: "DenormFlushToZero", ModeRoundingModeRTE: "RoundingModeRTE"}
	// execModeLits is the number of literal operands of each mode.
	execModeLits      = map[uint32]int{ModeOriginUpperLeft: 0, ModeDepthReplacing: 0, ModeDepthGreater: 0, ModeDepthLess: 0, ModeLocalSize: 3, ModeDenormFlushToZero: 1, ModeRoundingModeRTE: 1}
	storageClassNames = map[uint32]string{
		SCUniformConstant: "UniformConstant", SCInput: "Input", SCUniform: "Uniform", SCOutput: "Output",
		SCWorkgroup: "Workgroup", SCCrossWorkgroup: "CrossWorkgroup", SCPrivate: "Private", SCFunction: "Function",
		SCGeneric: "Generic", SCPushConstant: "PushConstant", SCAtomicCounter: "AtomicCounter", SCImage: "Image",
		SCStorageBuffer: "StorageBuffer",
	}
	decorationNames = map[uint32]string{
		DecBlock: "Block", DecBufferBlock: "BufferBlock", DecRowMajor: "RowMajor", DecColMajor: "ColMajor",
		DecArrayStride: "ArrayStride", DecMatrixStride: "MatrixStride", DecBuiltIn: "BuiltIn",
		DecNoPerspective: "NoPerspective", DecFlat: "Flat", DecNonWritable: "NonWritable",
		DecNonReadable: "NonReadable", DecLocation: "Location", DecBinding: "Binding",
		DecDescriptorSet: "DescriptorSet", DecOffset: "Offset", DecSpecID: "SpecId", DecNonUniform: "NonUniform",
	}
	// decorationLits is the number of literal operands of each decoration
	// (BuiltIn's single operand is an enumerant, handled separately).
	decorationLits = map[uint32]int{
		DecArrayStride: 1, DecMatrixStride: 1, DecLocation: 1, DecBinding: 1, DecDescriptorSet: 1, DecOffset: 1, DecSpecID: 1,
	}
	builtInNames = map[uint32]string{
		BuiltInPosition: "Position", BuiltInFragCoord: "FragCoord", BuiltInFrontFacing: "FrontFacing",
		BuiltInClipDistance: "ClipDistance", BuiltInCullDistance: "CullDistance", BuiltInLayer: "Layer", BuiltInViewportIndex: "ViewportIndex", BuiltInSampleID: "SampleId", BuiltInSampleMask: "SampleMask", BuiltInFragDepth: "FragDepth", BuiltInNumWorkgroups: "NumWorkgroups",
		BuiltInWorkgroupID: "WorkgroupId", BuiltInLocalInvocationID: "LocalInvocationId",
		BuiltInGlobalInvocationID: "GlobalInvocationId", BuiltInLocalInvocationIndex: "LocalInvocationIndex",
		BuiltInSubgroupSize: "SubgroupSize", BuiltInSubgroupLocalInvocationID: "SubgroupLocalInvocationId",
		BuiltInVertexIndex: "VertexIndex", BuiltInInstanceIndex: "InstanceIndex",
	}
	funcControlBits = []string{"Inline", "DontInline", "Pure", "Const"}
	selControlBits  = []string{"Flatten", "DontFlatten"}
	loopControlBits = []string{"Unroll", "DontUnroll", "DependencyInfinite", "DependencyLength"}
	memAccessBits   = []string{"Volatile", "Aligned", "Nontemporal"}
	groupOpNames    = map[uint32]string{GroupReduce: "Reduce", GroupInclusiveScan: "InclusiveScan", GroupExclusiveScan: "ExclusiveScan", 3: "ClusteredReduce"}
	glslNames       = map[uint32]string{
		1: "Round", GLSLRoundEven: "RoundEven", GLSLTrunc: "Trunc", GLSLFAbs: "FAbs", GLSLSAbs: "SAbs",
		GLSLFSign: "FSign", GLSLSSign: "SSign", GLSLFloor: "Floor", GLSLCeil: "Ceil", GLSLFract: "Fract",
		GLSLRadians: "Radians", GLSLDegrees: "Degrees", GLSLSin: "Sin", GLSLCos: "Cos", GLSLTan: "Tan",
		GLSLAsin: "Asin", GLSLAcos: "Acos", GLSLAtan: "Atan", GLSLSinh: "Sinh", GLSLCosh: "Cosh",
		GLSLTanh: "Tanh", GLSLAtan2: "Atan2", GLSLPow: "Pow", GLSLExp: "Exp", GLSLLog: "Log",
		GLSLExp2: "Exp2", GLSLLog2: "Log2", GLSLSqrt: "Sqrt", GLSLInverseSqrt: "InverseSqrt",
		GLSLDeterminant: "Determinant", GLSLFMin: "FMin", GLSLUMin: "UMin", GLSLSMin: "SMin",
		GLSLFMax: "FMax", GLSLUMax: "UMax", GLSLSMax: "SMax", GLSLFClamp: "FClamp", GLSLUClamp: "UClamp",
		GLSLSClamp: "SClamp", GLSLFMix: "FMix", GLSLStep: "Step", GLSLSmoothStep: "SmoothStep",
		GLSLFma: "Fma", GLSLPackHalf2x16: "PackHalf2x16", GLSLUnpackHalf2x16: "UnpackHalf2x16",
		GLSLLength: "Length", GLSLDistance: "Distance", GLSLCross: "Cross", GLSLNormalize: "Normalize",
		GLSLReflect: "Reflect", GLSLRefract: "Refract", GLSLFindILsb: "FindILsb", GLSLFindSMsb: "FindSMsb",
		GLSLFindUMsb: "FindUMsb", GLSLNMin: "NMin", GLSLNMax: "NMax",
	}
)

// maskName spells a bit mask as spirv-dis does: set bits' names joined by
// '|', low bit first, or "None" for zero.
func maskName(bits []string, v uint32) (string, error) {
	if v == 0 {
		return "None", nil
	}
	var parts []string
	for i := 0; i < 32; i++ {
		if v&(1<<uint(i)) == 0 {
			continue
		}
		if i >= len(bits) {
			return "", fmt.Errorf("unknown mask bit 0x%x", 1<<uint(i))
		}
		parts = append(parts, bits[i])
	}
	return strings.Join(parts, "|"), nil
}

// enumName looks v up in a name table.
func enumName(table map[uint32]string, what string, v uint32) (string, error) {
	if n, ok := table[v]; ok {
		return n, nil
	}
	return "", fmt.Errorf("unknown %s %d", what, v)
}
