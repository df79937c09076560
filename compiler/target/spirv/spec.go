package spirv

// This file holds the numbers of the SPIR-V specification (unified1
// headers) that the encoder writes and the disassembler reads: opcodes,
// enumerants and the GLSL.std.450 extended instruction numbers. Only the
// subset passlens emits is listed; the disassembler rejects anything else.

// Magic is the first word of every SPIR-V module.
const Magic = 0x07230203

// Version13 is SPIR-V 1.3, the version Vulkan 1.1 consumes.
const Version13 = 0x00010300

// Opcodes.
const (
	OpNop                      = 0
	OpUndef                    = 1
	OpName                     = 5
	OpMemberName               = 6
	OpExtension                = 10
	OpExtInstImport            = 11
	OpExtInst                  = 12
	OpMemoryModel              = 14
	OpEntryPoint               = 15
	OpExecutionMode            = 16
	OpCapability               = 17
	OpTypeVoid                 = 19
	OpTypeBool                 = 20
	OpTypeInt                  = 21
	OpTypeFloat                = 22
	OpTypeVector               = 23
	OpTypeMatrix               = 24
	OpTypeArray                = 28
	OpTypeRuntimeArray         = 29
	OpTypeStruct               = 30
	OpTypePointer              = 32
	OpTypeFunction             = 33
	OpConstantTrue             = 41
	OpConstantFalse            = 42
	OpConstant                 = 43
	OpConstantComposite        = 44
	OpConstantNull             = 46
	OpSpecConstantTrue         = 48
	OpSpecConstantFalse        = 49
	OpSpecConstant             = 50
	OpFunction                 = 54
	OpFunctionParameter        = 55
	OpFunctionEnd              = 56
	OpFunctionCall             = 57
	OpVariable                 = 59
	OpLoad                     = 61
	OpStore                    = 62
	OpCopyMemory               = 63
	OpAccessChain              = 65
	OpArrayLength              = 68
	OpDecorate                 = 71
	OpMemberDecorate           = 72
	OpVectorExtractDynamic     = 77
	OpVectorInsertDynamic      = 78
	OpVectorShuffle            = 79
	OpCompositeConstruct       = 80
	OpCompositeExtract         = 81
	OpCompositeInsert          = 82
	OpCopyObject               = 83
	OpTranspose                = 84
	OpConvertFToU              = 109
	OpConvertFToS              = 110
	OpConvertSToF              = 111
	OpConvertUToF              = 112
	OpUConvert                 = 113
	OpSConvert                 = 114
	OpFConvert                 = 115
	OpBitcast                  = 124
	OpSNegate                  = 126
	OpFNegate                  = 127
	OpIAdd                     = 128
	OpFAdd                     = 129
	OpISub                     = 130
	OpFSub                     = 131
	OpIMul                     = 132
	OpFMul                     = 133
	OpUDiv                     = 134
	OpSDiv                     = 135
	OpFDiv                     = 136
	OpUMod                     = 137
	OpSRem                     = 138
	OpSMod                     = 139
	OpFRem                     = 140
	OpFMod                     = 141
	OpVectorTimesScalar        = 142
	OpMatrixTimesScalar        = 143
	OpVectorTimesMatrix        = 144
	OpMatrixTimesVector        = 145
	OpMatrixTimesMatrix        = 146
	OpDot                      = 148
	OpAny                      = 154
	OpAll                      = 155
	OpIsNan                    = 156
	OpIsInf                    = 157
	OpLogicalEqual             = 164
	OpLogicalNotEqual          = 165
	OpLogicalOr                = 166
	OpLogicalAnd               = 167
	OpLogicalNot               = 168
	OpSelect                   = 169
	OpIEqual                   = 170
	OpINotEqual                = 171
	OpUGreaterThan             = 172
	OpSGreaterThan             = 173
	OpUGreaterThanEqual        = 174
	OpSGreaterThanEqual        = 175
	OpULessThan                = 176
	OpSLessThan                = 177
	OpULessThanEqual           = 178
	OpSLessThanEqual           = 179
	OpFOrdEqual                = 180
	OpFUnordEqual              = 181
	OpFOrdNotEqual             = 182
	OpFUnordNotEqual           = 183
	OpFOrdLessThan             = 184
	OpFUnordLessThan           = 185
	OpFOrdGreaterThan          = 186
	OpFUnordGreaterThan        = 187
	OpFOrdLessThanEqual        = 188
	OpFUnordLessThanEqual      = 189
	OpFOrdGreaterThanEqual     = 190
	OpFUnordGreaterThanEqual   = 191
	OpShiftRightLogical        = 194
	OpShiftRightArithmetic     = 195
	OpShiftLeftLogical         = 196
	OpBitwiseOr                = 197
	OpBitwiseXor               = 198
	OpBitwiseAnd               = 199
	OpNot                      = 200
	OpBitReverse               = 204
	OpBitCount                 = 205
	OpControlBarrier           = 224
	OpMemoryBarrier            = 225
	OpAtomicExchange           = 229
	OpAtomicCompareExchange    = 230
	OpAtomicIAdd               = 234
	OpAtomicSMin               = 236
	OpAtomicUMin               = 237
	OpAtomicSMax               = 238
	OpAtomicUMax               = 239
	OpAtomicAnd                = 240
	OpAtomicOr                 = 241
	OpAtomicXor                = 242
	OpPhi                      = 245
	OpLoopMerge                = 246
	OpSelectionMerge           = 247
	OpLabel                    = 248
	OpBranch                   = 249
	OpBranchConditional        = 250
	OpSwitch                   = 251
	OpKill                     = 252
	OpReturn                   = 253
	OpReturnValue              = 254
	OpUnreachable              = 255
	OpGroupNonUniformElect     = 333
	OpGroupNonUniformAll       = 334
	OpGroupNonUniformAny       = 335
	OpGroupNonUniformAllEqual  = 336
	OpGroupNonUniformBroadcast = 337
	OpGroupNonUniformBcFirst   = 338 // OpGroupNonUniformBroadcastFirst
	OpGroupNonUniformBallot    = 339
	OpGroupNonUniformBitCount  = 342 // OpGroupNonUniformBallotBitCount
	OpGroupNonUniformShuffle   = 345
	OpGroupNonUniformIAdd      = 349
	OpGroupNonUniformFAdd      = 350
	OpGroupNonUniformIMul      = 351
	OpGroupNonUniformFMul      = 352
	OpGroupNonUniformSMin      = 353
	OpGroupNonUniformUMin      = 354
	OpGroupNonUniformFMin      = 355
	OpGroupNonUniformSMax      = 356
	OpGroupNonUniformUMax      = 357
	OpGroupNonUniformFMax      = 358
	OpGroupNonUniformAnd       = 359 // OpGroupNonUniformBitwiseAnd
	OpGroupNonUniformOr        = 360 // OpGroupNonUniformBitwiseOr
	OpGroupNonUniformXor       = 361 // OpGroupNonUniformBitwiseXor
	OpGroupNonUniformLAnd      = 362 // OpGroupNonUniformLogicalAnd
	OpGroupNonUniformLOr       = 363 // OpGroupNonUniformLogicalOr
	OpGroupNonUniformLXor      = 364 // OpGroupNonUniformLogicalXor
)

// Capabilities.
const (
	CapMatrix                        = 0
	CapShader                        = 1
	CapGeometry                      = 2
	CapFloat16                       = 9
	CapFloat64                       = 10
	CapInt64                         = 11
	CapInt64Atomics                  = 12
	CapInt16                         = 22
	CapClipDistance                  = 32
	CapCullDistance                  = 33
	CapSampleRateShading             = 35
	CapInt8                          = 39
	CapMultiViewport                 = 57
	CapGroupNonUniform               = 61
	CapGroupNonUniformVote           = 62
	CapGroupNonUniformArithmetic     = 63
	CapGroupNonUniformBallot         = 64
	CapGroupNonUniformShuffle        = 65
	CapDenormFlushToZero             = 4465 // SPV_KHR_float_controls (core in SPIR-V 1.4)
	CapRoundingModeRTE               = 4467 // SPV_KHR_float_controls
	CapShaderViewportIndexLayer      = 5254 // SPV_EXT_shader_viewport_index_layer
	CapVariablePointersStorageBuffer = 4441 // core in SPIR-V 1.3
	CapShaderNonUniform              = 5301 // SPV_EXT_descriptor_indexing
	CapStorageBuffer16BitAccess      = 4433 // SPV_KHR_16bit_storage, core in SPIR-V 1.3
	CapUniformAndStorageBuffer16     = 4434
)

// Execution models.
const (
	ExecVertex    = 0
	ExecFragment  = 4
	ExecGLCompute = 5
)

// Execution modes.
const (
	ModeOriginUpperLeft = 7
	ModeDepthReplacing  = 12
	ModeDepthGreater    = 14
	ModeDepthLess       = 15
	ModeLocalSize       = 17
	// ModeDenormFlushToZero takes the float width it applies to
	// (SPV_KHR_float_controls).
	ModeDenormFlushToZero = 4460
	// ModeRoundingModeRTE takes the float width it applies to.
	ModeRoundingModeRTE = 4462
)

// Storage classes.
const (
	SCUniformConstant = 0
	SCInput           = 1
	SCUniform         = 2
	SCOutput          = 3
	SCWorkgroup       = 4
	SCCrossWorkgroup  = 5
	SCPrivate         = 6
	SCFunction        = 7
	SCGeneric         = 8
	SCPushConstant    = 9
	SCAtomicCounter   = 10
	SCImage           = 11
	SCStorageBuffer   = 12
)

// Decorations.
const (
	DecBlock         = 2
	DecBufferBlock   = 3
	DecSpecID        = 1
	DecNonUniform    = 5300 // SPV_EXT_descriptor_indexing
	DecRowMajor      = 4
	DecColMajor      = 5
	DecArrayStride   = 6
	DecMatrixStride  = 7
	DecBuiltIn       = 11
	DecNoPerspective = 13
	DecFlat          = 14
	DecNonWritable   = 24
	DecNonReadable   = 25
	DecLocation      = 30
	DecBinding       = 33
	DecDescriptorSet = 34
	DecOffset        = 35
)

// Built-ins.
const (
	BuiltInPosition                  = 0
	BuiltInClipDistance              = 3
	BuiltInCullDistance              = 4
	BuiltInLayer                     = 9
	BuiltInViewportIndex             = 10
	BuiltInFragCoord                 = 15
	BuiltInFrontFacing               = 17
	BuiltInSampleID                  = 18
	BuiltInSampleMask                = 20
	BuiltInFragDepth                 = 22
	BuiltInNumWorkgroups             = 24
	BuiltInWorkgroupID               = 26
	BuiltInLocalInvocationID         = 27
	BuiltInGlobalInvocationID        = 28
	BuiltInLocalInvocationIndex      = 29
	BuiltInSubgroupSize              = 36
	BuiltInSubgroupLocalInvocationID = 41
	BuiltInVertexIndex               = 42
	BuiltInInstanceIndex             = 43
)

// Scopes (operands of barriers, atomics and group operations; passed as
// constant ids).
const (
	ScopeDevice    = 1
	ScopeWorkgroup = 2
	ScopeSubgroup  = 3
)

// Memory semantics bits.
const (
	SemAcquireRelease  = 0x8
	SemUniformMemory   = 0x40
	SemWorkgroupMemory = 0x100
	SemImageMemory     = 0x800
)

// Group operations.
const (
	GroupReduce        = 0
	GroupInclusiveScan = 1
	GroupExclusiveScan = 2
)

// GLSL.std.450 extended instructions.
const (
	GLSLRoundEven      = 2
	GLSLTrunc          = 3
	GLSLFAbs           = 4
	GLSLSAbs           = 5
	GLSLFSign          = 6
	GLSLSSign          = 7
	GLSLFloor          = 8
	GLSLCeil           = 9
	GLSLFract          = 10
	GLSLRadians        = 11
	GLSLDegrees        = 12
	GLSLSin            = 13
	GLSLCos            = 14
	GLSLTan            = 15
	GLSLAsin           = 16
	GLSLAcos           = 17
	GLSLAtan           = 18
	GLSLSinh           = 19
	GLSLCosh           = 20
	GLSLTanh           = 21
	GLSLAtan2          = 25
	GLSLPow            = 26
	GLSLExp            = 27
	GLSLLog            = 28
	GLSLExp2           = 29
	GLSLLog2           = 30
	GLSLSqrt           = 31
	GLSLInverseSqrt    = 32
	GLSLDeterminant    = 33
	GLSLFMin           = 37
	GLSLUMin           = 38
	GLSLSMin           = 39
	GLSLFMax           = 40
	GLSLUMax           = 41
	GLSLSMax           = 42
	GLSLFClamp         = 43
	GLSLUClamp         = 44
	GLSLSClamp         = 45
	GLSLFMix           = 46
	GLSLStep           = 48
	GLSLSmoothStep     = 49
	GLSLFma            = 50
	GLSLPackHalf2x16   = 58
	GLSLUnpackHalf2x16 = 62
	GLSLLength         = 66
	GLSLDistance       = 67
	GLSLCross          = 68
	GLSLNormalize      = 69
	GLSLReflect        = 71
	GLSLRefract        = 72
	GLSLFindILsb       = 73
	GLSLFindSMsb       = 74
	GLSLFindUMsb       = 75
	GLSLNMin           = 79
	GLSLNMax           = 80
)
