package hlsl

// The AST is produced by the parser and annotated in place by the checker:
// after Check every Expr has a resolved Type, identifiers point at their
// declarations, calls at their callee, and every implicit conversion is an
// explicit *ImplicitCast node. Every node has a source range.

// Node is implemented by all AST nodes.
type Node interface {
	Pos() Pos // first character
	End() Pos // just past the last character (when on the same line)
}

// span is embedded by nodes to carry their source range.
type span struct{ P, E Pos }

// Pos returns the node's start.
func (s *span) Pos() Pos { return s.P }

// End returns the node's end.
func (s *span) End() Pos { return s.E }

// ---------------------------------------------------------------------------
// Expressions

// Expr is an expression. Type returns its type after checking (TypeError
// if checking failed, nil before checking).
type Expr interface {
	Node
	Type() *Type
	setType(*Type)
}

type exprBase struct {
	span
	T *Type
}

// Type returns the resolved type of the expression.
func (e *exprBase) Type() *Type     { return e.T }
func (e *exprBase) setType(t *Type) { e.T = t }

// IntLit is an integer literal. Untyped is set for literals without a u/l
// suffix, which adapt to the other operand's type as HLSL literals do.
type IntLit struct {
	exprBase
	Text    string
	Value   uint64 // the 32-bit value the literal takes (literal_int.go)
	Untyped bool
	// Wide is an untyped literal's value as DXC's 64-bit "literal int"
	// (the literal, or the literal expression folded into it).
	Wide int64
	// folded is set when the literal was folded into a larger literal
	// expression (which is warned about instead when it is too wide).
	folded bool
}

// FloatLit is a floating-point literal. Untyped is set without an f/h/l
// suffix.
type FloatLit struct {
	exprBase
	Text    string
	Value   float64
	Untyped bool
}

// BoolLit is true or false.
type BoolLit struct {
	exprBase
	Value bool
}

// Ident is a name used as an expression; Var is its declaration after
// checking (a global, local, parameter or cbuffer member).
type Ident struct {
	exprBase
	Name string
	Var  *VarDecl
}

// UnaryOp is a prefix or postfix operator.
type UnaryOp uint8

// Unary operators.
const (
	OpNeg     UnaryOp = iota // -x
	OpPlus                   // +x
	OpNot                    // !x (componentwise, result bool)
	OpBitNot                 // ~x
	OpPreInc                 // ++x
	OpPreDec                 // --x
	OpPostInc                // x++
	OpPostDec                // x--
)

var unaryNames = [...]string{"-", "+", "!", "~", "++", "--", "++", "--"}

func (o UnaryOp) String() string { return unaryNames[o] }

// Unary is a unary operation. After checking, X has the operation's type
// (for ! it is converted to bool of the same shape).
type Unary struct {
	exprBase
	Op UnaryOp
	X  Expr
}

// BinaryOp is a binary operator.
type BinaryOp uint8

// Binary operators.
const (
	OpAdd BinaryOp = iota
	OpSub
	OpMul
	OpDiv
	OpRem
	OpShl
	OpShr
	OpAnd // &
	OpOr  // |
	OpXor // ^
	OpLogAnd
	OpLogOr
	OpLt
	OpGt
	OpLe
	OpGe
	OpEq
	OpNe
)

var binaryNames = [...]string{"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "<", ">", "<=", ">=", "==", "!="}

func (o BinaryOp) String() string { return binaryNames[o] }

// IsComparison reports whether o yields bool components.
func (o BinaryOp) IsComparison() bool { return o >= OpLt && o <= OpNe }

// IsLogical reports whether o is && or ||.
func (o BinaryOp) IsLogical() bool { return o == OpLogAnd || o == OpLogOr }

// Binary is a componentwise binary operation. After checking X and Y both
// have the operand type OpType (same shape, scalars broadcast); the result
// is OpType, or bool of its shape for comparisons and logical operators.
// && and || on scalars short-circuit (HLSL 2021).
type Binary struct {
	exprBase
	Op     BinaryOp
	X, Y   Expr
	OpType *Type
}

// Assign is = or a compound assignment. For '=' RHS is converted to the
// type of LHS. For "LHS op= RHS" RHS is converted to OpType; the value is
// computed as convert(convert(LHS, OpType) op RHS, LHS.Type()), where the
// conversions follow ClassifyConversion. The expression's value is LHS's.
type Assign struct {
	exprBase
	Op       BinaryOp // meaningful only when Compound
	Compound bool
	LHS, RHS Expr
	OpType   *Type
}

// Cond is c ? a : b. C is a bool scalar after checking; A and B have the
// result type. Only the selected operand is evaluated.
type Cond struct {
	exprBase
	C, A, B Expr
}

// Comma evaluates X then Y; its value is Y.
type Comma struct {
	exprBase
	X, Y Expr
}

// Call is a call of a user function or an intrinsic. After checking exactly
// one of Func (the chosen declaration; Func.Def is its definition) and
// Intrinsic is set, default arguments are appended, and each argument has its parameter's
// type (implicit casts inserted; out/inout arguments are lvalues of the
// parameter type or are wrapped in an ImplicitCast that lowering must apply
// in both directions: copy-in converted to the parameter type, copy-out
// converted back).
type Call struct {
	exprBase
	Name      string
	NamePos   Pos
	Args      []Expr
	Func      *FuncDecl
	Intrinsic *Intrinsic
	// Legacy is set for FXC's shader model 1-3 texture intrinsics
	// (tex2D, tex2Dlod, ...; sm1tex.go).
	Legacy *LegacyTex
}

// MethodCall is a method call on a resource, e.g. buf.Load(i).
type MethodCall struct {
	exprBase
	Recv   Expr
	Name   string
	Args   []Expr
	Method Method // resolved method, after checking
	// TypeArg is T of buf.Load<T>(…) / buf.Store<T>(…) (rawbuffer.go).
	TypeArg *TypeSpec
}

// Construct is a constructor T(args) of a vector or matrix type:
// float4(a.xy, 1, 2). After checking, numeric arguments have T's component
// type (casts inserted) and the flattened components of all arguments, in
// order, fill T exactly; aggregate arguments (arrays, structs) are
// flattened by lowering with a per-component conversion. T(x) with a
// scalar T is checked as the cast (T)x instead.
type Construct struct {
	exprBase
	Spec *TypeSpec
	Args []Expr
}

// CastKind classifies conversions for lowering.
type CastKind uint8

// Conversion kinds. Each cast changes one thing, so lowering can map
// kinds directly to instructions.
const (
	// CastNoop changes nothing observable (identical types, matrix storage
	// order, or a cast to void).
	CastNoop CastKind = iota
	// CastConvert converts the scalar type of each component; the source and
	// target have the same shape (scalar, vector or matrix).
	CastConvert
	// CastSplat replicates a scalar (or 1-component vector/matrix) into all
	// components of a vector or matrix of the same component type.
	CastSplat
	// CastTruncate keeps the leading components of a vector (or the upper
	// left block of a matrix) of the same component type; vector to scalar
	// keeps .x.
	CastTruncate
	// CastFlatten rebuilds the target from the source's flattened
	// components in order (arrays, structs, vector<->matrix), converting
	// each; the source has at least as many components, or exactly one,
	// which is then replicated ((S)0).
	CastFlatten
	// CastToVoid discards the value (e.g. (void)x).
	CastToVoid
)

var castNames = [...]string{"noop", "convert", "splat", "truncate", "flatten", "void"}

func (k CastKind) String() string { return castNames[k] }

// Cast is an explicit C-style cast (T)x. Kind is set by the checker; a
// cast of several steps becomes nested ImplicitCasts under a Noop Cast.
type Cast struct {
	exprBase
	Spec *TypeSpec
	X    Expr
	Kind CastKind
}

// ImplicitCast is a conversion inserted by the checker.
type ImplicitCast struct {
	exprBase
	X    Expr
	Kind CastKind
}

// Member is a struct field access x.f.
type Member struct {
	exprBase
	X     Expr
	Name  string
	Field *Field
}

// Swizzle selects vector or matrix components: v.xy, v.rgba, m._m01_m10.
// Comps holds component indices; for a matrix source index = row*Cols+col.
// A swizzle of a scalar (f.xxx) has Comps all 0.
type Swizzle struct {
	exprBase
	X     Expr
	Name  string
	Comps []int
}

// Index is x[i] on an array (element), vector (component), matrix (row
// vector) or resource (element). Index is int or uint after checking.
type Index struct {
	exprBase
	X, Index Expr
}

// InitList is a brace initializer {a, b, c}. After checking, Type is the
// initialized type and the flattened components of Elems, in order and
// converted to the target component types, fill it exactly (HLSL
// flattening: {float2(1,2), 3} initializes a float3).
type InitList struct {
	exprBase
	Elems []Expr
}

// ---------------------------------------------------------------------------
// Types in the syntax

// TypeSpec is a type as written: a name, optional template arguments
// (types or constant expressions) and optional inline struct definition.
// The checker resolves it to Resolved.
type TypeSpec struct {
	span
	Name   string
	Args   []Node // *TypeSpec or Expr
	Struct *StructDecl
	Mods   Modifiers // row_major/column_major/const/unorm/snorm written with the type
	// StructRef is set for "struct Name", which must name a struct.
	StructRef bool
	Resolved  *Type
}

// Modifiers are declaration and type modifiers as a bit set.
type Modifiers uint32

// Modifier bits.
const (
	ModStatic Modifiers = 1 << iota
	ModConst
	ModUniform
	ModExtern
	ModGroupshared
	ModVolatile
	ModPrecise
	ModShared
	ModRowMajor
	ModColumnMajor
	ModIn
	ModOut
	ModInOut
	ModNoInterpolation
	ModLinear
	ModCentroid
	ModNoPerspective
	ModSample
	ModInline
	ModUnorm
	ModSnorm
	ModGloballyCoherent
	ModExport
)

var modifierNames = map[string]Modifiers{
	"static": ModStatic, "const": ModConst, "uniform": ModUniform, "extern": ModExtern,
	"groupshared": ModGroupshared, "volatile": ModVolatile, "precise": ModPrecise, "shared": ModShared,
	"row_major": ModRowMajor, "column_major": ModColumnMajor, "in": ModIn, "out": ModOut,
	"inout": ModInOut, "nointerpolation": ModNoInterpolation, "linear": ModLinear,
	"centroid": ModCentroid, "noperspective": ModNoPerspective, "sample": ModSample,
	"inline": ModInline, "unorm": ModUnorm, "snorm": ModSnorm, "globallycoherent": ModGloballyCoherent,
	"export": ModExport,
}

// interpMods are the interpolation modifiers.
const interpMods = ModNoInterpolation | ModLinear | ModCentroid | ModNoPerspective | ModSample

// ---------------------------------------------------------------------------
// Declarations

// Decl is a top-level declaration.
type Decl interface {
	Node
	declNode()
}

// VarKind says where a variable lives.
type VarKind uint8

// Variable kinds.
const (
	VarLocal       VarKind = iota // function-local (Mods may include static)
	VarParam                      // function parameter
	VarGlobal                     // global: uniform in $Globals, static, groupshared or resource
	VarBufferField                // member of a cbuffer (Buffer is set)
)

// ParamDir is the direction of a parameter.
type ParamDir uint8

// Parameter directions.
const (
	DirIn ParamDir = iota
	DirOut
	DirInOut
)

func (d ParamDir) String() string { return [...]string{"in", "out", "inout"}[d] }

// Semantic is ": NAME" on a parameter, field or function.
type Semantic struct {
	span
	Name  string // as written
	Base  string // upper-cased without the trailing index: "SV_TARGET"
	Index int    // trailing decimal index: SV_Target1 -> 1
}

// Register is ": register(b0, space1)".
type Register struct {
	span
	Profile string // optional shader profile, e.g. "ps_5_0"
	Class   byte   // 'b', 't', 'u', 's', 'c'
	Index   int
	Space   int
	// Shift is k of register(cN[k]): FXC (shader models up to 5.1) uses
	// register N+k, DXC ignores k (vkd3d's register-reservations tests).
	Shift int
	// Also are further register() reservations of other classes on the
	// same declaration (G g : register(u5) : register(t3), for a struct
	// holding resources of both classes).
	Also []*Register
}

// class returns the reservation of class k among r and r.Also, or nil.
func (r *Register) class(k byte) *Register {
	if r == nil {
		return nil
	}
	if r.Class == k {
		return r
	}
	for _, a := range r.Also {
		if a.Class == k {
			return a
		}
	}
	return nil
}

// ClassReg is the exported form of class, for the lowering.
func (r *Register) ClassReg(k byte) *Register { return r.class(k) }

// PackOffset is ": packoffset(c1.y)".
type PackOffset struct {
	span
	Register  int
	Component int // 0..3
}

// Attribute is [name(args)] before a function, statement or declaration,
// or [[ns::name(args)]] (Namespace "vk" for Vulkan's attributes).
type Attribute struct {
	span
	Namespace string // "vk" of [[vk::binding(0)]]; "" for [name]
	Name      string
	NamePos   Pos
	Args      []Expr
	// Str is a string-literal argument, the only argument when present
	// ([RootSignature("…")]).
	Str *StringArg
	// Root is the checked root signature of [RootSignature("…")].
	Root *RootSignature
}

// FullName is the attribute's name with its namespace ("vk::binding").
func (a *Attribute) FullName() string {
	if a.Namespace != "" {
		return a.Namespace + "::" + a.Name
	}
	return a.Name
}

// StringArg is a string literal argument of an attribute: one or more
// adjacent literals.
type StringArg struct {
	span
	Pieces []StringPiece
}

// StringPiece is one literal as written (with its quotes) and where.
type StringPiece struct {
	Text string
	Pos  Pos
}

// VarDecl declares a variable, parameter or cbuffer member.
type VarDecl struct {
	span
	Name       string
	NamePos    Pos
	Spec       *TypeSpec
	Dims       []Expr // array dimensions after the name; a nil entry is []
	Mods       Modifiers
	Kind       VarKind
	Dir        ParamDir
	Semantic   *Semantic
	Register   *Register
	PackOffset *PackOffset
	Init       Expr
	Type       *Type    // after checking
	Buffer     *CBuffer // for cbuffer members and $Globals uniforms
	Const      *Const   // value of a constant-initialized static const / const local
	// Offset is the byte offset of a uniform in its constant buffer
	// (cbuffer members and $Globals uniforms), per the legacy packing rules.
	Offset int
	// Used is set when the variable is referenced by some expression.
	Used bool
	// Reassigned is set on a local or parameter holding resources that is
	// assigned after its declaration (resvalue.go).
	Reassigned bool
	// Attrs are the attributes written before a global's declaration
	// ([[vk::binding(0)]]) or a parameter's ([[vk::location(1)]]).
	Attrs []*Attribute
	// Vk holds what the checker read from the Vulkan attributes.
	Vk VkDecor
	// Elements are the per-element declarations of an array of
	// ConstantBuffer<T> (each the one member of its own constant buffer).
	Elements []*VarDecl
}

// VkDecor is what Vulkan attributes say about a declaration (checked by
// checkDeclAttrs; docs/hlsl-lowering.md). Binding, Set, SpecID and
// Location are -1 when absent... zero values are made valid by the Has
// flags.
type VkDecor struct {
	HasBinding   bool
	Binding, Set int // [[vk::binding(b, s)]]
	PushConstant bool
	HasSpecID    bool
	SpecID       int // [[vk::constant_id(n)]]
	HasLocation  bool
	Location     int // [[vk::location(n)]]
	// HasCounterBinding: [[vk::counter_binding(n)]], the Vulkan binding of
	// a buffer's hidden counter (appendbuf.go).
	HasCounterBinding bool
	CounterBinding    int
}

// IsUniform reports whether the global is a uniform constant (in a cbuffer
// or the implicit $Globals).
func (v *VarDecl) IsUniform() bool { return v.Buffer != nil }

// IsResource reports whether the variable is a resource object.
func (v *VarDecl) IsResource() bool { return v.Type != nil && v.Type.ContainsResource() }

// Field is a struct member.
type Field struct {
	span
	Name     string
	Spec     *TypeSpec
	Dims     []Expr
	Mods     Modifiers
	Semantic *Semantic
	Type     *Type // after checking
	Index    int
}

// StructDecl declares a struct type.
type StructDecl struct {
	span
	Name   string
	Fields []*Field
	Type   *Type // the struct type, after checking
	// TypedefName names an anonymous struct defined in a typedef
	// ("typedef struct {...} T;"): its name for linkage, as in C++.
	TypedefName string
	done        bool
	// IsClass marks a struct declared with 'class'; Base names its base
	// struct (single inheritance, at BasePos; the base's fields are the
	// first Fields after checking); Methods are its member functions and
	// Statics its static data members (struct_decl.go).
	IsClass  bool
	Base     string
	BasePos  Pos
	Methods  []*FuncDecl
	Statics  []*VarDecl
	baseDecl *StructDecl
}

// TypedefDecl declares a type alias.
type TypedefDecl struct {
	span
	Name string
	Spec *TypeSpec
	Dims []Expr
	Type *Type
}

// CBuffer is a cbuffer/tbuffer block, or the implicit $Globals buffer.
type CBuffer struct {
	span
	Name     string
	Register *Register
	Members  []*VarDecl
	Implicit bool // $Globals
	// Attrs are the attributes written before it ([[vk::binding(0)]]);
	// Vk is what the checker read from them.
	Attrs []*Attribute
	Vk    VkDecor
	// Of is T of a ConstantBuffer<T> declaration (nil for cbuffer).
	Of *Type
	// Array, ArrayIndex and ArrayLen: this buffer is element ArrayIndex
	// of the ArrayLen-element ConstantBuffer<T> array Array (ArrayLen 0:
	// not an element).
	Array                string
	ArrayIndex, ArrayLen int
}

// FuncDecl declares (and possibly defines) a function.
type FuncDecl struct {
	span
	Name        string
	NamePos     Pos
	RetSpec     *TypeSpec
	Ret         *Type
	Params      []*VarDecl
	RetSemantic *Semantic
	Attrs       []*Attribute
	Mods        Modifiers
	Body        *Block // nil for a prototype
	// Def is the definition of this function (itself if defined here);
	// prototypes share it once the definition is seen.
	Def *FuncDecl
	// Callees are the user functions called by the body, in order.
	Callees []*FuncDecl
	// Owner is the struct of a member function; a non-static one has the
	// implicit inout parameter 'this' first (struct_decl.go).
	Owner *StructDecl
	// static marks a static member function (no 'this').
	static bool
}

// VarGroup is a top-level declaration of one or more variables.
type VarGroup struct {
	span
	Vars []*VarDecl
}

// PragmaDecl is a #pragma pack_matrix that reached the parser.
type PragmaDecl struct {
	span
	RowMajor bool
}

func (*VarGroup) declNode()    {}
func (*StructDecl) declNode()  {}
func (*TypedefDecl) declNode() {}
func (*CBuffer) declNode()     {}
func (*FuncDecl) declNode()    {}
func (*PragmaDecl) declNode()  {}

// ---------------------------------------------------------------------------
// Statements

// Stmt is a statement.
type Stmt interface {
	Node
	stmtNode()
}

// Block is { stmts }.
type Block struct {
	span
	Stmts []Stmt
}

// DeclStmt declares local variables (or a local struct/typedef).
type DeclStmt struct {
	span
	Vars     []*VarDecl
	Struct   *StructDecl
	Typedefs []*TypedefDecl
}

// ExprStmt evaluates an expression for its effects.
type ExprStmt struct {
	span
	X Expr
}

// EmptyStmt is ';'.
type EmptyStmt struct{ span }

// IfStmt is if/else. Cond is a bool scalar after checking.
type IfStmt struct {
	span
	Attrs []*Attribute
	Cond  Expr
	Then  Stmt
	Else  Stmt // nil if absent
}

// ForStmt is for (init; cond; post) body. Cond may be nil (true).
type ForStmt struct {
	span
	Attrs []*Attribute
	Init  Stmt // *DeclStmt, *ExprStmt or nil
	Cond  Expr
	Post  Expr
	Body  Stmt
}

// WhileStmt is while (cond) body.
type WhileStmt struct {
	span
	Attrs []*Attribute
	Cond  Expr
	Body  Stmt
}

// DoWhileStmt is do body while (cond);
type DoWhileStmt struct {
	span
	Attrs []*Attribute
	Body  Stmt
	Cond  Expr
}

// SwitchStmt is switch (tag) { ... }. The parser collects the body's
// statements in Body; the checker groups them into Cases in source order.
// Control falls from one case's statements into the next case's unless it
// leaves through break/return/continue/discard, as in C.
type SwitchStmt struct {
	span
	Attrs []*Attribute
	Tag   Expr // int or uint scalar after checking
	Body  []Stmt
	Cases []*CaseClause
}

// CaseLabel is "case v:" or "default:" inside a switch body.
type CaseLabel struct {
	span
	Value     Expr // nil for default
	IsDefault bool
}

// CaseClause is a group of labels and the statements that follow them.
type CaseClause struct {
	span
	Values     []int64 // constant case values (converted to the tag type)
	HasDefault bool
	Body       []Stmt
}

// BreakStmt is break;
type BreakStmt struct{ span }

// ContinueStmt is continue;
type ContinueStmt struct{ span }

// ReturnStmt is return [x]; X has the function's return type after checking.
type ReturnStmt struct {
	span
	X Expr
}

// DiscardStmt is discard; (pixel shaders).
type DiscardStmt struct{ span }

func (*Block) stmtNode()        {}
func (*DeclStmt) stmtNode()     {}
func (*ExprStmt) stmtNode()     {}
func (*EmptyStmt) stmtNode()    {}
func (*IfStmt) stmtNode()       {}
func (*ForStmt) stmtNode()      {}
func (*WhileStmt) stmtNode()    {}
func (*DoWhileStmt) stmtNode()  {}
func (*SwitchStmt) stmtNode()   {}
func (*CaseLabel) stmtNode()    {}
func (*BreakStmt) stmtNode()    {}
func (*ContinueStmt) stmtNode() {}
func (*ReturnStmt) stmtNode()   {}
func (*DiscardStmt) stmtNode()  {}

// ---------------------------------------------------------------------------
// Program

// Program is a parsed (and, after Check, checked) translation unit.
type Program struct {
	// File is the main file's name.
	File string
	// Decls are the top-level declarations in source order.
	Decls []Decl
	// The following are filled by the checker.

	// Globals are all global variables in declaration order (uniforms,
	// cbuffer members, statics, groupshared, resources).
	Globals []*VarDecl
	// Buffers are the constant buffers; the implicit $Globals buffer, if it
	// has members, comes first.
	Buffers []*CBuffer
	// Funcs are the function definitions in source order.
	Funcs []*FuncDecl
	// Entry describes the entry point, or is nil if there is none.
	Entry *EntryPoint
	// Sources holds the text of every file read, for rendering diagnostics.
	Sources Sources
}
