// Package ir is passlens's intermediate representation: typed SSA values in
// basic blocks, with SPIR-V-style structured-merge annotations, one textual
// format (see docs/ir.md), a builder, a parser and a verifier.
package ir

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Kind classifies a Type.
type Kind uint8

const (
	KVoid Kind = iota
	KBool
	KInt   // signed integer (i32)
	KUint  // unsigned integer (u32)
	KFloat // IEEE float (f32)
	KVector
	KMatrix // Rows x Cols of a scalar; a value is Rows row vectors
	KArray  // fixed length; Len < 0 means runtime-sized ([? x T])
	KStruct
	KPointer
)

// AddrSpace is where a pointer points.
type AddrSpace uint8

const (
	SpaceFunction AddrSpace = iota // allocas
	SpacePrivate                   // static globals
	SpaceUniform                   // cbuffers, $Globals
	SpaceGroupshared
	SpaceStorage // (RW)StructuredBuffer, (RW)Buffer
	SpaceInput   // stage inputs
	SpaceOutput  // stage outputs
)

var spaceNames = [...]string{"function", "private", "uniform", "groupshared", "storage", "input", "output"}

func (s AddrSpace) String() string {
	if int(s) < len(spaceNames) {
		return spaceNames[s]
	}
	return fmt.Sprintf("space%d", s)
}

// ParseAddrSpace is the inverse of AddrSpace.String.
func ParseAddrSpace(s string) (AddrSpace, bool) {
	for i, n := range spaceNames {
		if n == s {
			return AddrSpace(i), true
		}
	}
	return 0, false
}

// Field is a struct member.
type Field struct {
	Name string
	Type *Type
	// Placed says the member has an explicit byte Offset in buffer memory
	// (HLSL packoffset, or register(cN) on a global uniform): back ends
	// that lay buffers out must put it there. A struct may place some
	// members only; the others go after all placed ones, in order, each
	// where the layout's alignment rules allow (PlaceMembers).
	Placed bool
	Offset int
	// RegShift (with Placed) is k of HLSL register(cN[k]): back ends that
	// model FXC (sm3) place the member k 16-byte registers after Offset;
	// DXC ignores k, so the others keep Offset.
	RegShift int
	// Loc is where the member's placement (register(cN) or packoffset) is
	// written in the source, so a back end that rejects it can point there;
	// zero when unknown. It is part of the type's identity only when set.
	Loc Loc
}

// Type is an interned IR type: two types are equal iff their pointers are
// equal. Construct types only through the constructors below (or the
// parser), never with a composite literal.
type Type struct {
	Kind   Kind
	Bits   int   // scalar width (bool 1, i32/u32/f32 32)
	Elem   *Type // vector/matrix/array element, pointer pointee
	Len    int   // vector length, array length, matrix rows
	Cols   int   // matrix columns
	Space  AddrSpace
	Name   string  // struct name (structs are nominal)
	Fields []Field // struct members
	str    string
}

var (
	typeMu    sync.Mutex
	typeTable = map[string]*Type{}

	Void = intern(&Type{Kind: KVoid})
	Bool = intern(&Type{Kind: KBool, Bits: 1})
	I32  = intern(&Type{Kind: KInt, Bits: 32})
	U32  = intern(&Type{Kind: KUint, Bits: 32})
	F32  = intern(&Type{Kind: KFloat, Bits: 32})
)

// intern returns the canonical *Type for t. The key uses the element's
// identity, not its spelling, because distinct structs may print alike.
func intern(t *Type) *Type {
	t.str = t.computeString()
	key := t.str
	if t.Elem != nil {
		key = fmt.Sprintf("%d|%p|%d|%d|%d", t.Kind, t.Elem, t.Len, t.Cols, t.Space)
	}
	typeMu.Lock()
	defer typeMu.Unlock()
	if old, ok := typeTable[key]; ok {
		return old
	}
	typeTable[key] = t
	return t
}

// Vec returns <n x elem>. n == 1 yields elem itself.
func Vec(elem *Type, n int) *Type {
	if n == 1 {
		return elem
	}
	return intern(&Type{Kind: KVector, Elem: elem, Len: n})
}

// Mat returns a rows x cols matrix of elem.
func Mat(elem *Type, rows, cols int) *Type {
	return intern(&Type{Kind: KMatrix, Elem: elem, Len: rows, Cols: cols})
}

// Array returns [n x elem]; n < 0 is a runtime-sized array.
func Array(elem *Type, n int) *Type {
	if n < 0 {
		n = -1
	}
	return intern(&Type{Kind: KArray, Elem: elem, Len: n})
}

// Ptr returns ptr<space, elem>.
func Ptr(space AddrSpace, elem *Type) *Type {
	return intern(&Type{Kind: KPointer, Elem: elem, Space: space})
}

// Struct returns the struct type with this name and these fields. Two calls
// with the same name and identical fields return the same type; the same
// name with different fields yields distinct types that print alike, so a
// module must keep struct names unique (Module.AddStruct does).
func Struct(name string, fields []Field) *Type {
	t := &Type{Kind: KStruct, Name: name, Fields: fields}
	// The key uses the field types' identities, not their spellings: two
	// modules may define different structs %B, and %A = { %B b } built on
	// each must stay distinct.
	var kb strings.Builder
	kb.WriteString("%" + name + " = {")
	for _, f := range fields {
		fmt.Fprintf(&kb, " %p %q", f.Type, f.Name)
		if f.Placed {
			fmt.Fprintf(&kb, " @%d/%d", f.Offset, f.RegShift)
		}
		if f.Loc.Line > 0 {
			fmt.Fprintf(&kb, " !%d:%d", f.Loc.Line, f.Loc.Col)
		}
	}
	key := kb.String()
	typeMu.Lock()
	defer typeMu.Unlock()
	if old, ok := typeTable[key]; ok {
		return old
	}
	t.str = "%" + quoteName(name)
	typeTable[key] = t
	return t
}

func (t *Type) String() string { return t.str }

func (t *Type) computeString() string {
	switch t.Kind {
	case KVoid:
		return "void"
	case KBool:
		return "bool"
	case KInt:
		return "i" + strconv.Itoa(t.Bits)
	case KUint:
		return "u" + strconv.Itoa(t.Bits)
	case KFloat:
		if t.Name != "" { // a named float format such as bf16 (see widths.go)
			return t.Name
		}
		return "f" + strconv.Itoa(t.Bits)
	case KVector:
		return fmt.Sprintf("<%d x %s>", t.Len, t.Elem)
	case KMatrix:
		return fmt.Sprintf("<%d x %d x %s>", t.Len, t.Cols, t.Elem)
	case KArray:
		if t.Len < 0 {
			return fmt.Sprintf("[? x %s]", t.Elem)
		}
		return fmt.Sprintf("[%d x %s]", t.Len, t.Elem)
	case KPointer:
		return fmt.Sprintf("ptr<%s, %s>", t.Space, t.Elem)
	case KStruct:
		return "%" + quoteName(t.Name)
	}
	return "?"
}

// StructDef prints a struct definition line body: "{ f32 a, <4 x f32> b }".
func (t *Type) StructDef() string {
	var sb strings.Builder
	sb.WriteString("{")
	for i, f := range t.Fields {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(" ")
		sb.WriteString(f.Type.String())
		sb.WriteString(" ")
		sb.WriteString(quoteName(f.Name))
	}
	sb.WriteString(" }")
	return sb.String()
}

// IsScalar reports bool, int, uint or float.
func (t *Type) IsScalar() bool {
	return t.Kind == KBool || t.Kind == KInt || t.Kind == KUint || t.Kind == KFloat
}

// IsIntegral reports int or uint (scalar).
func (t *Type) IsIntegral() bool { return t.Kind == KInt || t.Kind == KUint }

// Scalar returns the scalar type of a scalar or vector (or matrix) type.
func (t *Type) Scalar() *Type {
	if t.Kind == KVector || t.Kind == KMatrix {
		return t.Elem
	}
	return t
}

// Lanes returns the vector length of t, or 1 for a scalar.
func (t *Type) Lanes() int {
	if t.Kind == KVector {
		return t.Len
	}
	return 1
}

// WithScalar returns t with its scalar type replaced (vector shape kept).
func (t *Type) WithScalar(s *Type) *Type {
	switch t.Kind {
	case KVector:
		return Vec(s, t.Len)
	case KMatrix:
		return Mat(s, t.Len, t.Cols)
	}
	return s
}

// IsAggregate reports types whose values have components addressable by
// constant index paths: vectors, matrices, arrays and structs.
func (t *Type) IsAggregate() bool {
	return t.Kind == KVector || t.Kind == KMatrix || t.Kind == KArray || t.Kind == KStruct
}

// NumElems returns the number of direct components of an aggregate.
func (t *Type) NumElems() int {
	switch t.Kind {
	case KVector, KMatrix, KArray:
		return t.Len
	case KStruct:
		return len(t.Fields)
	}
	return 0
}

// ElemType returns the type of component i of an aggregate (nil if invalid).
func (t *Type) ElemType(i int) *Type {
	switch t.Kind {
	case KVector, KArray:
		if t.Kind == KArray && t.Len < 0 {
			if i < 0 {
				return nil
			}
			return t.Elem
		}
		if i < 0 || i >= t.Len {
			return nil
		}
		return t.Elem
	case KMatrix:
		if i < 0 || i >= t.Len {
			return nil
		}
		return Vec(t.Elem, t.Cols)
	case KStruct:
		if i < 0 || i >= len(t.Fields) {
			return nil
		}
		return t.Fields[i].Type
	}
	return nil
}

// IndexPath returns the type reached by a constant index path into t.
func (t *Type) IndexPath(idx []int) *Type {
	cur := t
	for _, i := range idx {
		cur = cur.ElemType(i)
		if cur == nil {
			return nil
		}
	}
	return cur
}

// Contains reports whether pred holds for t or for a type inside it: an
// element of an array, vector or matrix, or a struct field (a pointer's
// pointee is not inside the pointer).
func (t *Type) Contains(pred func(*Type) bool) bool {
	if pred(t) {
		return true
	}
	switch t.Kind {
	case KArray, KVector, KMatrix:
		return t.Elem.Contains(pred)
	case KStruct:
		for _, f := range t.Fields {
			if f.Type.Contains(pred) {
				return true
			}
		}
	}
	return false
}

// ScalarCount is the number of scalar leaves in t (runtime arrays count 0).
func (t *Type) ScalarCount() int {
	switch t.Kind {
	case KBool, KInt, KUint, KFloat:
		return 1
	case KVector:
		return t.Len
	case KMatrix:
		return t.Len * t.Cols
	case KArray:
		if t.Len < 0 {
			return 0
		}
		return t.Len * t.Elem.ScalarCount()
	case KStruct:
		n := 0
		for _, f := range t.Fields {
			n += f.Type.ScalarCount()
		}
		return n
	}
	return 0
}

// BoolOf returns bool with t's vector shape (the result type of a comparison).
func BoolOf(t *Type) *Type {
	if t.Kind == KVector {
		return Vec(Bool, t.Len)
	}
	return Bool
}
