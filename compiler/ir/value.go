package ir

import (
	"math"
	"strconv"
	"strings"
)

// Value is anything an instruction can use: an instruction result, a
// function parameter, a global variable (a pointer) or a constant.
type Value interface {
	Type() *Type
	// Name is the value's stable name without sigil ("" for constants).
	Name() string
	// Ref is how the value is spelled as an operand: %name, @name or a literal.
	Ref() string
}

// Param is a function parameter. Uniform marks a parameter known to be the
// same in every lane (LLVM's `inreg` on AMDGPU calling conventions).
type Param struct {
	name    string
	typ     *Type
	Uniform bool
	Func    *Function
	Index   int
}

func (p *Param) Type() *Type      { return p.typ }
func (p *Param) Name() string     { return p.name }
func (p *Param) Ref() string      { return "%" + quoteName(p.name) }
func (p *Param) SetName(n string) { p.name = n }

// Global is a module-level variable. As a value it is a pointer
// (ptr<Space, ValType>).
type Global struct {
	name     string
	typ      *Type // ptr<Space, ValType>
	ValType  *Type
	Space    AddrSpace
	Init     *Const // optional initializer (private/groupshared)
	Semantic string // stage input/output semantic, e.g. SV_DispatchThreadID, TEXCOORD0, SV_Target0
	Set      int    // descriptor set; -1 when unbound
	Binding  int    // binding / register index; -1 when unbound
	// VkSet and VkBinding are [[vk::binding(b, s)]]: the SPIR-V back end
	// uses them instead of Set/Binding (VkBinding -1 when absent).
	VkSet, VkBinding int
	// PushConstant: a uniform global in Vulkan push constants
	// ([[vk::push_constant]]), not in a descriptor.
	PushConstant bool
	// SpecID is the SpecId of a specialization constant
	// ([[vk::constant_id(n)]]): a private scalar global whose initializer
	// is the default value, overridable when the shader runs; -1 for
	// none.
	SpecID int
	// Location is a stage input's or output's explicit location
	// ([[vk::location(n)]]), which the SPIR-V back end uses instead of
	// assigning one; -1 for none.
	Location int
	// Array, ArrayIndex and ArrayLen mark the global as element
	// ArrayIndex of the resource array Array of ArrayLen elements
	// (RWStructuredBuffer<int> Out[4] is four globals, each with Array
	// "Out"): the interpreter binds each element on its own, the SPIR-V
	// back end declares one arrayed descriptor for all of them and the
	// DXIL back end one register range. ArrayLen 0: not an element;
	// UnboundedArray: the global is a whole unbounded array (Buf[]) and
	// element 0 of it, its elements reached with res.index (resarray.go).
	Array                string
	ArrayIndex, ArrayLen int
	ReadOnly             bool   // StructuredBuffer/Buffer (vs RW)
	Flat                 bool   // nointerpolation
	Kind                 string // source resource kind, e.g. "cbuffer", "RWStructuredBuffer" ("" for plain)
	Loc                  Loc
}

func (g *Global) Type() *Type  { return g.typ }
func (g *Global) Name() string { return g.name }
func (g *Global) Ref() string  { return "@" + quoteName(g.name) }

// NewGlobal makes a global of value type t in the given space (not yet added
// to a module).
func NewGlobal(name string, space AddrSpace, t *Type) *Global {
	return &Global{name: name, typ: Ptr(space, t), ValType: t, Space: space, Set: -1, Binding: -1, VkBinding: -1, SpecID: -1, Location: -1}
}

// Const is a constant: a scalar (Bits holds the value: ints sign- or
// zero-extended to 64 bits, floats as their IEEE bit pattern, bool 0/1), an
// aggregate (Elems), zero-initialized (Zero) or undefined (Undef).
type Const struct {
	typ   *Type
	Bits  uint64
	Elems []*Const
	Zero  bool
	Undef bool
}

func (c *Const) Type() *Type  { return c.typ }
func (c *Const) Name() string { return "" }
func (c *Const) Ref() string  { return c.Literal() }

// ConstInt returns an i32/u32 (or vector-splat) constant.
func ConstInt(t *Type, v int64) *Const {
	if t.Kind == KVector {
		e := ConstInt(t.Elem, v)
		return splatConst(t, e)
	}
	if t.Bits != 0 && t.Bits != 32 {
		return &Const{typ: t, Bits: extendBits(t, uint64(v))} // other widths: widths.go
	}
	if t.Kind == KUint {
		return &Const{typ: t, Bits: uint64(uint32(v))}
	}
	return &Const{typ: t, Bits: uint64(int64(int32(v)))}
}

// ConstFloat returns a float (or vector-splat) constant rounded to t's
// precision: f32, f16 (nearest even) or f64.
func ConstFloat(t *Type, v float64) *Const {
	if t.Kind == KVector {
		return splatConst(t, ConstFloat(t.Elem, v))
	}
	switch {
	case t.Bits == 16 && t.Name == "":
		return &Const{typ: t, Bits: uint64(FloatToHalf(v))}
	case t.Bits == 64:
		return &Const{typ: t, Bits: math.Float64bits(v)}
	}
	return &Const{typ: t, Bits: uint64(math.Float32bits(float32(v)))}
}

// ConstF32Bits returns an f32 constant with an exact bit pattern.
func ConstF32Bits(bits uint32) *Const { return &Const{typ: F32, Bits: uint64(bits)} }

// ConstBool returns a bool (or vector-splat) constant.
func ConstBool(t *Type, v bool) *Const {
	if t.Kind == KVector {
		return splatConst(t, ConstBool(t.Elem, v))
	}
	c := &Const{typ: t}
	if v {
		c.Bits = 1
	}
	return c
}

// ConstAggregate returns a constant of aggregate type t with the given elements.
func ConstAggregate(t *Type, elems []*Const) *Const { return &Const{typ: t, Elems: elems} }

// ConstZero returns the all-zero value of t.
func ConstZero(t *Type) *Const { return &Const{typ: t, Zero: true} }

// ConstUndef returns an undefined value of t.
func ConstUndef(t *Type) *Const { return &Const{typ: t, Undef: true} }

func splatConst(t *Type, e *Const) *Const {
	el := make([]*Const, t.Len)
	for i := range el {
		el[i] = e
	}
	return &Const{typ: t, Elems: el}
}

// Int returns a scalar integer constant's value (sign-extended for i32).
func (c *Const) Int() int64 {
	if b := c.typ.Bits; b != 0 && b != 32 {
		return int64(extendBits(c.typ, c.Bits)) // other widths: widths.go
	}
	if c.typ.Kind == KUint {
		return int64(uint32(c.Bits))
	}
	return int64(int32(uint32(c.Bits)))
}

// Float returns a scalar float constant's value.
func (c *Const) Float() float32 { return math.Float32frombits(uint32(c.Bits)) }

// Bool returns a bool constant's value.
func (c *Const) Bool() bool { return c.Bits != 0 }

// Elem returns component i of an aggregate constant (expanding Zero/Undef).
func (c *Const) Elem(i int) *Const {
	et := c.typ.ElemType(i)
	switch {
	case c.Zero:
		return ConstZero(et)
	case c.Undef:
		return ConstUndef(et)
	case i < len(c.Elems):
		return c.Elems[i]
	}
	return nil
}

// IsZeroValue reports whether c is zero (scalar zero, or all-zero aggregate).
func (c *Const) IsZeroValue() bool {
	if c.Zero {
		return true
	}
	if c.Undef {
		return false
	}
	if c.typ.IsScalar() {
		return c.Bits == 0
	}
	for _, e := range c.Elems {
		if !e.IsZeroValue() {
			return false
		}
	}
	return true
}

// Literal spells the constant without its type: 1, -3, 1.5, 0x7FC00000,
// true, <1.0, 2.0>, {…}, [...], zero, undef.
func (c *Const) Literal() string {
	if c.Zero {
		return "zero"
	}
	if c.Undef {
		return "undef"
	}
	switch c.typ.Kind {
	case KBool:
		if c.Bits != 0 {
			return "true"
		}
		return "false"
	case KInt:
		return strconv.FormatInt(c.Int(), 10)
	case KUint:
		if c.typ.Bits == 64 {
			return strconv.FormatUint(c.Bits, 10)
		}
		return strconv.FormatUint(uint64(uint32(c.Bits)), 10)
	case KFloat:
		if c.typ.Bits != 32 {
			return formatFloatBits(c.typ, c.Bits) // other widths: widths.go
		}
		return FormatF32(uint32(c.Bits))
	}
	open, close := "{", "}"
	switch c.typ.Kind {
	case KVector, KMatrix:
		open, close = "<", ">"
	case KArray:
		open, close = "[", "]"
	}
	var sb strings.Builder
	sb.WriteString(open)
	for i, e := range c.Elems {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(e.Literal())
	}
	sb.WriteString(close)
	return sb.String()
}

// FormatF32 prints a float32 so that parsing it gives the same bits: the
// shortest decimal that round-trips, always with a '.' or exponent, and a hex
// bit pattern (0xXXXXXXXX) for NaNs, infinities and negative zero.
func FormatF32(bits uint32) string {
	f := math.Float32frombits(bits)
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) || bits == 0x80000000 {
		return "0x" + strings.ToUpper(strconv.FormatUint(uint64(bits)|1<<32, 16)[1:])
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// quoteName returns n as written after a sigil: bare if it is made of
// [A-Za-z0-9_.$-], else quoted.
func quoteName(n string) string {
	if n == "" {
		return `""`
	}
	for i := 0; i < len(n); i++ {
		ch := n[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '.' || ch == '$' || ch == '-') {
			return strconv.Quote(n)
		}
	}
	return n
}

// QuoteName is exported for other packages that print IR names.
func QuoteName(n string) string { return quoteName(n) }
