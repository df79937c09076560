package hlsl

import (
	"fmt"
	"strings"
)

// Kind is the kind of a Type.
type Kind uint8

// Type kinds. KindError is the type of an expression whose checking already
// failed: it converts silently to anything so one mistake produces one error.
const (
	KindError Kind = iota
	KindVoid
	KindBool
	KindInt   // 32-bit signed
	KindUint  // 32-bit unsigned
	KindFloat // 32-bit IEEE
	KindVector
	KindMatrix
	KindArray
	KindStruct
	KindResource
)

// ResourceKind identifies a buffer object type.
type ResourceKind uint8

// Supported resource (buffer) kinds.
const (
	ResNone ResourceKind = iota
	ResBuffer
	ResRWBuffer
	ResStructuredBuffer
	ResRWStructuredBuffer
	ResByteAddressBuffer
	ResRWByteAddressBuffer
	// Textures (SRVs) and samplers: see texture.go.
	ResTexture1D
	ResTexture1DArray
	ResTexture2D
	ResTexture2DArray
	ResTexture3D
	ResTextureCube
	ResTextureCubeArray
	ResSamplerState
	ResSamplerComparisonState
	// Read-write textures (UAVs): see rwtexture.go.
	ResRWTexture1D
	ResRWTexture1DArray
	ResRWTexture2D
	ResRWTexture2DArray
	ResRWTexture3D
	// Multisampled textures: see mstexture.go.
	ResTexture2DMS
	ResTexture2DMSArray
	// Append and consume buffers: structured buffers with a hidden
	// counter (appendbuf.go).
	ResAppendStructuredBuffer
	ResConsumeStructuredBuffer
)

var resourceNames = map[ResourceKind]string{
	ResBuffer:                 "Buffer",
	ResRWBuffer:               "RWBuffer",
	ResStructuredBuffer:       "StructuredBuffer",
	ResRWStructuredBuffer:     "RWStructuredBuffer",
	ResByteAddressBuffer:      "ByteAddressBuffer",
	ResRWByteAddressBuffer:    "RWByteAddressBuffer",
	ResTexture1D:              "Texture1D",
	ResTexture1DArray:         "Texture1DArray",
	ResTexture2D:              "Texture2D",
	ResTexture2DArray:         "Texture2DArray",
	ResTexture3D:              "Texture3D",
	ResTextureCube:            "TextureCube",
	ResTextureCubeArray:       "TextureCubeArray",
	ResSamplerState:           "SamplerState",
	ResSamplerComparisonState: "SamplerComparisonState",
	ResRWTexture1D:            "RWTexture1D",
	ResRWTexture1DArray:       "RWTexture1DArray",
	ResRWTexture2D:            "RWTexture2D",
	ResRWTexture2DArray:       "RWTexture2DArray",
	ResRWTexture3D:            "RWTexture3D",
	ResTexture2DMS:            "Texture2DMS",
	ResTexture2DMSArray:       "Texture2DMSArray",
}

func (r ResourceKind) String() string { return resourceNames[r] }

// Writable reports whether the resource is a UAV (RW*).
func (r ResourceKind) Writable() bool {
	return r == ResRWBuffer || r == ResRWStructuredBuffer || r == ResRWByteAddressBuffer || r.IsRWTexture() ||
		r == ResAppendStructuredBuffer || r == ResConsumeStructuredBuffer
}

// Templated reports whether the resource takes an element type.
func (r ResourceKind) Templated() bool {
	return r != ResByteAddressBuffer && r != ResRWByteAddressBuffer && !r.IsSampler()
}

// Type is an HLSL type. Scalars, vectors and matrices of the same shape are
// interned (compare with Identical anyway: row_major matrices are distinct
// values but identical types).
type Type struct {
	Kind Kind
	// Elem is the scalar component type of a vector or matrix, the element
	// type of an array, and the element type of a templated resource.
	Elem *Type
	// Len is the component count of a vector (1..4), the element count
	// of an array and the sample count of a Texture2DMS<T, N> (0 when
	// the type gives none).
	Len int
	// Rows and Cols are a matrix's dimensions (1..4 each).
	Rows, Cols int
	// RowMajor is the storage order of a matrix (default column-major).
	RowMajor bool
	// Struct is the declaration of a struct type.
	Struct *StructDecl
	// Resource is the kind of a resource type.
	Resource ResourceKind
	// Prec is the spelling of a scalar that is a distinct type of the
	// same kind as a 32-bit scalar ("half", "min16float", "min10float",
	// "min16int", "min12int", "min16uint"); "" for int, uint, float and
	// bool. In DXC's default mode these compute at 32 bits but stay
	// distinct for overloading, promotion (a lower rank than the 32-bit
	// type) and the minimum-precision division rule.
	Prec string
	// Bits is the width of a 16- or 64-bit scalar (half, int16_t and
	// uint16_t with -enable-16bit-types; double, int64_t, uint64_t); 0
	// for the 32-bit scalars and bool.
	Bits int
}

// Width returns the bit width of a numeric scalar type (32 unless Bits
// says otherwise; minimum-precision types compute at 32 bits).
func (t *Type) Width() int {
	if t.Bits != 0 {
		return t.Bits
	}
	return 32
}

// Predefined scalar and special types.
var (
	TypeError = &Type{Kind: KindError}
	TypeVoid  = &Type{Kind: KindVoid}
	TypeBool  = &Type{Kind: KindBool}
	TypeInt   = &Type{Kind: KindInt}
	TypeUint  = &Type{Kind: KindUint}
	TypeFloat = &Type{Kind: KindFloat}

	// DXC's default-mode half and minimum-precision types (see Type.Prec).
	TypeHalf       = &Type{Kind: KindFloat, Prec: "half"}
	TypeMin16Float = &Type{Kind: KindFloat, Prec: "min16float"}
	TypeMin10Float = &Type{Kind: KindFloat, Prec: "min10float"}
	TypeMin16Int   = &Type{Kind: KindInt, Prec: "min16int"}
	TypeMin12Int   = &Type{Kind: KindInt, Prec: "min12int"}
	TypeMin16Uint  = &Type{Kind: KindUint, Prec: "min16uint"}

	// True 16-bit types (-enable-16bit-types) and the 64-bit types.
	TypeHalf16       = &Type{Kind: KindFloat, Bits: 16}
	TypeInt16        = &Type{Kind: KindInt, Bits: 16}
	TypeUint16       = &Type{Kind: KindUint, Bits: 16}
	TypeDouble       = &Type{Kind: KindFloat, Bits: 64}
	TypeInt64        = &Type{Kind: KindInt, Bits: 64}
	TypeUint64       = &Type{Kind: KindUint, Bits: 64}
	sizedScalarNames = map[*Type]string{TypeHalf16: "half", TypeInt16: "int16_t", TypeUint16: "uint16_t",
		TypeDouble: "double", TypeInt64: "int64_t", TypeUint64: "uint64_t"}
)

type shapeKey struct {
	elem       *Type
	rows, cols int
	rowMajor   bool
}

var (
	vectorCache = map[shapeKey]*Type{}
	matrixCache = map[shapeKey]*Type{}
)

func init() {
	// Fill the caches up front so that lookups never write: the frontend
	// may run concurrently in several goroutines.
	for _, s := range []*Type{TypeBool, TypeInt, TypeUint, TypeFloat, TypeHalf, TypeMin16Float, TypeMin10Float, TypeMin16Int, TypeMin12Int, TypeMin16Uint,
		TypeHalf16, TypeInt16, TypeUint16, TypeDouble, TypeInt64, TypeUint64} {
		for n := 1; n <= 4; n++ {
			vectorCache[shapeKey{elem: s, cols: n}] = &Type{Kind: KindVector, Elem: s, Len: n}
			for m := 1; m <= 4; m++ {
				for _, rm := range []bool{false, true} {
					matrixCache[shapeKey{s, n, m, rm}] = &Type{Kind: KindMatrix, Elem: s, Rows: n, Cols: m, RowMajor: rm}
				}
			}
		}
	}
}

// VectorOf returns the vector type of n (1..4) components of scalar s.
func VectorOf(s *Type, n int) *Type {
	if t, ok := vectorCache[shapeKey{elem: s, cols: n}]; ok {
		return t
	}
	return &Type{Kind: KindVector, Elem: s, Len: n}
}

// MatrixOf returns the column-major matrix type rows x cols of scalar s.
func MatrixOf(s *Type, rows, cols int) *Type { return matrixOf(s, rows, cols, false) }

func matrixOf(s *Type, rows, cols int, rowMajor bool) *Type {
	if t, ok := matrixCache[shapeKey{s, rows, cols, rowMajor}]; ok {
		return t
	}
	return &Type{Kind: KindMatrix, Elem: s, Rows: rows, Cols: cols, RowMajor: rowMajor}
}

// ArrayOf returns the array type of n elements of t.
func ArrayOf(t *Type, n int) *Type { return &Type{Kind: KindArray, Elem: t, Len: n} }

// IsError reports whether t is the poisoned error type (or nil).
func (t *Type) IsError() bool { return t == nil || t.Kind == KindError }

// IsScalar reports whether t is bool, int, uint or float.
func (t *Type) IsScalar() bool {
	return t != nil && (t.Kind == KindBool || t.Kind == KindInt || t.Kind == KindUint || t.Kind == KindFloat)
}

// IsVector reports whether t is a vector type.
func (t *Type) IsVector() bool { return t != nil && t.Kind == KindVector }

// IsMatrix reports whether t is a matrix type.
func (t *Type) IsMatrix() bool { return t != nil && t.Kind == KindMatrix }

// IsNumeric reports whether t is a scalar, vector or matrix.
func (t *Type) IsNumeric() bool { return t.IsScalar() || t.IsVector() || t.IsMatrix() }

// IsAggregate reports whether t is an array or struct.
func (t *Type) IsAggregate() bool { return t != nil && (t.Kind == KindArray || t.Kind == KindStruct) }

// Scalar returns the scalar component type of a numeric type (t itself for
// scalars), or nil.
func (t *Type) Scalar() *Type {
	switch {
	case t.IsScalar():
		return t
	case t.IsVector() || t.IsMatrix():
		return t.Elem
	}
	return nil
}

// IsIntegral reports whether the component type of t is int or uint.
func (t *Type) IsIntegral() bool {
	s := t.Scalar()
	return s != nil && (s.Kind == KindInt || s.Kind == KindUint)
}

// IsFloat reports whether the component type of t is float.
func (t *Type) IsFloat() bool {
	s := t.Scalar()
	return s != nil && s.Kind == KindFloat
}

// IsBool reports whether the component type of t is bool.
func (t *Type) IsBool() bool {
	s := t.Scalar()
	return s != nil && s.Kind == KindBool
}

// Dim returns the number of components of a numeric type: 1 for scalars,
// Len for vectors, Rows*Cols for matrices; 0 otherwise.
func (t *Type) Dim() int {
	switch {
	case t.IsScalar():
		return 1
	case t.IsVector():
		return t.Len
	case t.IsMatrix():
		return t.Rows * t.Cols
	}
	return 0
}

// ComponentCount returns the number of scalar components of t after HLSL
// flattening (arrays and structs included); resources and void count 0.
func (t *Type) ComponentCount() int {
	if t == nil {
		return 0
	}
	switch t.Kind {
	case KindArray:
		return t.Len * t.Elem.ComponentCount()
	case KindStruct:
		n := 0
		for _, f := range t.Struct.Fields {
			n += f.Type.ComponentCount()
		}
		return n
	}
	return t.Dim()
}

// FlatScalars appends the scalar types of t's flattened components in order.
func (t *Type) FlatScalars(out []*Type) []*Type {
	switch t.Kind {
	case KindArray:
		for i := 0; i < t.Len; i++ {
			out = t.Elem.FlatScalars(out)
		}
	case KindStruct:
		for _, f := range t.Struct.Fields {
			out = f.Type.FlatScalars(out)
		}
	default:
		for i := 0; i < t.Dim(); i++ {
			out = append(out, t.Scalar())
		}
	}
	return out
}

// ContainsResource reports whether t is or contains a resource.
func (t *Type) ContainsResource() bool {
	switch {
	case t == nil:
		return false
	case t.Kind == KindResource:
		return true
	case t.Kind == KindArray:
		return t.Elem.ContainsResource()
	case t.Kind == KindStruct:
		for _, f := range t.Struct.Fields {
			if f.Type.ContainsResource() {
				return true
			}
		}
	}
	return false
}

// WithScalar returns the type of t's shape with component type s.
func (t *Type) WithScalar(s *Type) *Type {
	switch {
	case t.IsScalar():
		return s
	case t.IsVector():
		return VectorOf(s, t.Len)
	case t.IsMatrix():
		return matrixOf(s, t.Rows, t.Cols, t.RowMajor)
	}
	return t
}

// Identical reports whether a and b are the same type (matrix storage
// order is ignored, struct types are identical only to themselves).
func Identical(a, b *Type) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind || a.Prec != b.Prec || a.Bits != b.Bits {
		return false
	}
	switch a.Kind {
	case KindVector:
		return a.Len == b.Len && Identical(a.Elem, b.Elem)
	case KindMatrix:
		return a.Rows == b.Rows && a.Cols == b.Cols && Identical(a.Elem, b.Elem)
	case KindArray:
		return a.Len == b.Len && Identical(a.Elem, b.Elem)
	case KindStruct:
		return a.Struct == b.Struct
	case KindResource:
		// Len is a multisampled texture's sample count (mstexture.go).
		return a.Resource == b.Resource && a.Len == b.Len && Identical(a.Elem, b.Elem)
	}
	return true
}

// String returns the type as HLSL spells it (as DXC prints it).
func (t *Type) String() string {
	if t == nil {
		return "<nil>"
	}
	switch t.Kind {
	case KindError:
		return "<error type>"
	case KindVoid:
		return "void"
	case KindBool:
		return "bool"
	case KindInt, KindUint, KindFloat:
		if t.Prec != "" {
			return t.Prec
		}
		if n, ok := sizedScalarNames[t]; ok {
			return n
		}
		return [...]string{KindInt: "int", KindUint: "uint", KindFloat: "float"}[t.Kind]
	case KindVector:
		return fmt.Sprintf("%s%d", t.Elem, t.Len)
	case KindMatrix:
		s := fmt.Sprintf("%s%dx%d", t.Elem, t.Rows, t.Cols)
		if t.RowMajor {
			s = "row_major " + s
		}
		return s
	case KindArray:
		base, dims := t, ""
		for base.Kind == KindArray {
			dims += fmt.Sprintf("[%d]", base.Len)
			base = base.Elem
		}
		return base.String() + " " + dims
	case KindStruct:
		if t.Struct.Name == "" {
			return "(anonymous struct)"
		}
		return t.Struct.Name
	case KindResource:
		if t.Resource.IsMSTexture() && t.Elem != nil && t.Len > 0 {
			return fmt.Sprintf("%s<%s, %d>", t.Resource, strings.TrimSpace(t.Elem.String()), t.Len)
		}
		if t.Resource.Templated() && t.Elem != nil {
			return fmt.Sprintf("%s<%s>", t.Resource, strings.TrimSpace(t.Elem.String()))
		}
		return t.Resource.String()
	}
	return "?"
}

// scalarByName maps HLSL scalar spellings to supported scalar types.
var scalarByName = map[string]*Type{
	"bool": TypeBool, "int": TypeInt, "uint": TypeUint, "dword": TypeUint, "float": TypeFloat,
	"int32_t": TypeInt, "uint32_t": TypeUint, "float32_t": TypeFloat,
}

// minPrecisionScalars are the spellings that DXC's default mode (no
// -enable-16bit-types) computes at 32 bits: half is float (clang's
// NativeHalfType off), and the min-precision types are "at least" 16 or
// 10 bits, which a 32-bit implementation satisfies (DXC marks them
// RelaxedPrecision in SPIR-V and lets the driver choose). passlens
// computes all of them exactly as their 32-bit type.
var minPrecisionScalars = map[string]*Type{
	"half": TypeHalf, "min16float": TypeMin16Float, "min10float": TypeMin10Float,
	"min16int": TypeMin16Int, "min12int": TypeMin12Int, "min16uint": TypeMin16Uint,
}

// only16BitScalars are the explicitly sized 16-bit spellings, which DXC
// accepts only with -enable-16bit-types.
var only16BitScalars = map[string]bool{"int16_t": true, "uint16_t": true, "float16_t": true}

// sixteenBitScalars are the scalars of DXC's -enable-16bit-types mode:
// half and float16_t are IEEE binary16, and the minimum-precision types
// become the 16-bit type of their kind (min precision is disabled).
var sixteenBitScalars = map[string]*Type{
	"half": TypeHalf16, "float16_t": TypeHalf16, "min16float": TypeHalf16, "min10float": TypeHalf16,
	"int16_t": TypeInt16, "min16int": TypeInt16, "min12int": TypeInt16,
	"uint16_t": TypeUint16, "min16uint": TypeUint16,
}

// sixtyFourBitScalars are the 64-bit scalars, in both modes.
var sixtyFourBitScalars = map[string]*Type{
	"double": TypeDouble, "float64_t": TypeDouble, "int64_t": TypeInt64, "uint64_t": TypeUint64,
}

// unsupportedScalars are the scalar spellings other than scalarByName's
// (the minimum-precision, 16-bit and 64-bit ones), which the checker maps
// by mode (minPrecisionScalars, sixteenBitScalars, sixtyFourBitScalars).
var unsupportedScalars = map[string]bool{
	"half": true, "double": true, "min16float": true, "min10float": true, "min16int": true,
	"min12int": true, "min16uint": true, "int64_t": true, "uint64_t": true, "int16_t": true,
	"uint16_t": true, "float16_t": true, "float64_t": true,
}

// unsupportedObjects are object type names outside the subset, with the
// category used to classify rejections.
var unsupportedObjects = map[string]string{
	"texture": "texture",
	"Texture": "texture", "texture1D": "texture", "texture2D": "texture", "texture3D": "texture", "textureCUBE": "texture",
	"RasterizerOrderedTexture1D": "texture", "RasterizerOrderedTexture2D": "texture",
	"RasterizerOrderedTexture3D": "texture", "RasterizerOrderedTexture1DArray": "texture",
	"RasterizerOrderedTexture2DArray": "texture", "FeedbackTexture2D": "texture",
	"RasterizerOrderedBuffer": "rasterizer-ordered view", "RasterizerOrderedStructuredBuffer": "rasterizer-ordered view",
	"RasterizerOrderedByteAddressBuffer": "rasterizer-ordered view",
	"PointStream":                        "geometry shader", "LineStream": "geometry shader", "TriangleStream": "geometry shader",
	"InputPatch": "tessellation", "OutputPatch": "tessellation",
	"string": "string", "ConstantBuffer": "ConstantBuffer", "TextureBuffer": "ConstantBuffer",
	"RaytracingAccelerationStructure": "raytracing", "RayDesc": "raytracing",
	"BlendState": "effect state", "DepthStencilState": "effect state", "RasterizerState": "effect state",
	"VertexShader": "effect state", "PixelShader": "effect state", "GeometryShader": "effect state",
	"ComputeShader": "effect state", "HullShader": "effect state", "DomainShader": "effect state",
	"pixelshader": "effect state", "vertexshader": "effect state",
	"RenderTargetView": "effect state", "DepthStencilView": "effect state",
}

var resourceByName = map[string]ResourceKind{
	"Buffer": ResBuffer, "RWBuffer": ResRWBuffer,
	"StructuredBuffer": ResStructuredBuffer, "RWStructuredBuffer": ResRWStructuredBuffer,
	"ByteAddressBuffer": ResByteAddressBuffer, "RWByteAddressBuffer": ResRWByteAddressBuffer,
	"Texture1D": ResTexture1D, "Texture1DArray": ResTexture1DArray, "Texture2D": ResTexture2D,
	"Texture2DArray": ResTexture2DArray, "Texture3D": ResTexture3D, "TextureCube": ResTextureCube,
	"TextureCubeArray": ResTextureCubeArray, "SamplerState": ResSamplerState,
	"SamplerComparisonState": ResSamplerComparisonState,
	// FXC's shader model 1-3 spellings, which DXC keeps as sampler
	// states (sm1tex.go).
	"sampler": ResSamplerState, "sampler1D": ResSamplerState, "sampler2D": ResSamplerState,
	"sampler3D": ResSamplerState, "samplerCUBE": ResSamplerState,
	"RWTexture1D": ResRWTexture1D, "RWTexture1DArray": ResRWTexture1DArray, "RWTexture2D": ResRWTexture2D,
	"RWTexture2DArray": ResRWTexture2DArray, "RWTexture3D": ResRWTexture3D,
	"Texture2DMS": ResTexture2DMS, "Texture2DMSArray": ResTexture2DMSArray,
}

// builtinTypeName splits a numeric type spelling such as "float4x3" into
// its scalar part and dimensions. rows is 0 for a vector, both are 0 for
// a scalar. supported is false for known scalars outside the subset.
func builtinTypeName(name string) (base string, rows, cols int, ok bool) {
	dims := ""
	base = name
	// Strip up to "NxM" from the end.
	if n := len(name); n >= 3 && name[n-2] == 'x' && isDigit(int(name[n-1])) && isDigit(int(name[n-3])) {
		base, dims = name[:n-3], name[n-3:]
	} else if n >= 1 && isDigit(int(name[n-1])) {
		base, dims = name[:n-1], name[n-1:]
	}
	if _, known := scalarByName[base]; !known && !unsupportedScalars[base] {
		if dims != "" {
			// Names like int32_t end in digits: try the whole name.
			if _, known := scalarByName[name]; known || unsupportedScalars[name] {
				return name, 0, 0, true
			}
		}
		return "", 0, 0, false
	}
	switch len(dims) {
	case 0:
		return base, 0, 0, true
	case 1:
		c := int(dims[0] - '0')
		if c < 1 || c > 4 {
			return "", 0, 0, false
		}
		return base, 0, c, true
	default:
		r, c := int(dims[0]-'0'), int(dims[2]-'0')
		if r < 1 || r > 4 || c < 1 || c > 4 {
			return "", 0, 0, false
		}
		return base, r, c, true
	}
}

// isBuiltinTypeName reports whether name spells a built-in type (supported
// or not), which the parser needs to tell declarations from expressions.
func isBuiltinTypeName(name string) bool {
	if _, _, _, ok := builtinTypeName(name); ok {
		return true
	}
	switch name {
	case "void", "vector", "matrix":
		return true
	}
	if _, ok := resourceByName[name]; ok {
		return true
	}
	_, ok := unsupportedObjects[name]
	return ok
}
