// Package hlsl is the front half of passlens's HLSL-subset compiler: a
// preprocessor, parser and semantic checker that turn shader source into a
// checked AST with clang-style diagnostics.
//
// # Entry points
//
//	Frontend(file, src, opts) (*Program, Diagnostics)  // preprocess + parse + check
//	Parse(file, src, opts) (*Program, Diagnostics)     // preprocess + parse only
//	Check(prog, opts) Diagnostics                      // check a parsed program
//	Preprocess(file, src, opts) (string, Diagnostics)  // expanded text, for tools
//
// Diagnostics.HasErrors tells whether the program may be lowered, and
// Diagnostics.Render(w, prog.Sources) prints them like clang does.
//
// # The checked AST (what compiler/hlsl/lower consumes)
//
// Program.Decls keeps the declarations in source order; the checker also
// fills Program.Globals (every global variable), Program.Buffers (constant
// buffers; the implicit $Globals first, holding the global uniforms and
// then the entry point's 'uniform' parameters), Program.Funcs (function
// definitions in order) and Program.Entry (stage, numthreads, flattened
// inputs/outputs with semantics and field paths).
//
// Every Expr has Type() set. Types are *Type values: scalars (TypeBool,
// TypeInt, TypeUint, TypeFloat; DXC's default-mode half and minimum-
// precision types TypeHalf, TypeMin16Float, ... — distinct types with
// Type.Prec set that compute at 32 bits; the sized TypeHalf16, TypeInt16,
// TypeUint16 of -enable-16bit-types and TypeDouble, TypeInt64,
// TypeUint64 — Type.Bits, Type.Width), VectorOf, MatrixOf (Rows x Cols, with a
// RowMajor storage flag), ArrayOf, structs (Type.Struct) and resources
// (Type.Resource with element type Elem). Compare types with Identical.
//
// Conversions are explicit: wherever HLSL converts implicitly the checker
// inserts *ImplicitCast nodes, each doing one step (CastConvert,
// CastSplat, CastTruncate, CastFlatten, ...). Binary operands both have the
// operation type (Binary.OpType), so scalar broadcast and promotion are
// already applied; comparisons yield bool of that shape. Compound
// assignments carry Assign.OpType. Member accesses that are swizzles
// become *Swizzle nodes; T(x) with scalar T becomes a *Cast. Identifiers
// point at their *VarDecl, calls at the chosen *FuncDecl (with Def the
// definition) or a resolved *Intrinsic (name, parameter types, out flags,
// result type); method calls on buffers at a resolved Method. Brace
// initializers are flattened *InitList nodes whose components fill the
// target type in order. Switch statements are grouped into CaseClauses with
// constant values. Every node has Pos/End source positions.
//
// Calls follow DXC: a user function named like an intrinsic is chosen only
// when it matches strictly better (the intrinsic wins a tie). Unsized
// array parameters (float a[]) are accepted as DXC does and sized from
// the calls, which must agree on one size.
//
// Types follow DXC's two modes (Options.Enable16BitTypes, dxc's
// -enable-16bit-types): without it half and min16float/min10float/
// min16int/min12int/min16uint are 32-bit (minimum precision may be 32
// bits) and float16_t/int16_t/uint16_t are refused; with it half,
// float16_t and the min* types are IEEE binary16 / 16-bit integers.
// double, int64_t and uint64_t exist in both. Literals with l/ll or too
// large for 32 bits are 64-bit; untyped literals converted to a 64-bit
// type keep 64-bit values (float literals in vector constructors stay
// float, as DXC converts them).
//
// A profile (Options.Profile, dxc's -T cs_6_6; profile.go) fixes the
// stage and the shader model; features newer than the model are errors at
// their use in what the entry point reaches (profile_check.go). Without a
// profile nothing is gated by shader model.
//
// Recursion, unsupported types (textures, samplers) and stage-specific
// misuse are rejected with clear errors. A
// program with errors still has an AST, but lowering should not be
// attempted; erroneous expressions have TypeError.
//
// # Files
//
// token.go, lexer.go: tokens and the lexer; preprocess.go, ppexpr.go:
// directives, macro expansion (Prosser hide sets) and #if expressions;
// parser.go, parse_expr.go, parse_stmt.go: recursive-descent parser;
// ast.go, types.go: the AST and type representation; sema.go (declarations
// and scopes), sema_expr.go, sema_stmt.go, calls.go (overloads),
// intrinsics.go, methods.go (buffer methods), conv.go (conversion rules),
// initlist.go, constfold.go, layout.go (cbuffer packing), entry.go (entry
// points and semantics), vkattr.go ([[vk::…]] and [WaveSize] attributes),
// rootsig.go ([RootSignature] grammar), cbuffer_t.go (ConstantBuffer<T>);
// diag.go: diagnostics and rendering.
package hlsl
