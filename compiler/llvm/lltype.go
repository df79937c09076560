package llvm

import (
	"fmt"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// llKind classifies a parsed LLVM type.
type llKind uint8

const (
	lkVoid llKind = iota
	lkInt         // iN
	lkHalf
	lkBFloat
	lkFloat
	lkDouble
	lkPtr // ptr, ptr addrspace(N), or a typed pointer T* (elem set)
	lkVector
	lkArray
	lkStruct // literal { ... } or a named %T (name set)
	lkLabel
	lkToken
	lkMetadata
	lkOther // a type the bridge does not support (kept for the message)
)

// llType is an LLVM type as written in the source.
type llType struct {
	kind   llKind
	bits   int     // lkInt
	as     int     // lkPtr address space
	n      int     // lkVector / lkArray length
	elem   *llType // vector/array element; typed-pointer pointee (may be nil)
	fields []*llType
	packed bool
	name   string // named struct (%T) or the spelling of lkOther
}

func (t *llType) String() string {
	switch t.kind {
	case lkVoid:
		return "void"
	case lkInt:
		return "i" + strconv.Itoa(t.bits)
	case lkHalf:
		return "half"
	case lkBFloat:
		return "bfloat"
	case lkFloat:
		return "float"
	case lkDouble:
		return "double"
	case lkPtr:
		if t.as != 0 {
			return fmt.Sprintf("ptr addrspace(%d)", t.as)
		}
		return "ptr"
	case lkVector:
		return fmt.Sprintf("<%d x %s>", t.n, t.elem)
	case lkArray:
		return fmt.Sprintf("[%d x %s]", t.n, t.elem)
	case lkStruct:
		if t.name != "" {
			return "%" + t.name
		}
		var parts []string
		for _, f := range t.fields {
			parts = append(parts, f.String())
		}
		if t.packed {
			return "<{ " + strings.Join(parts, ", ") + " }>"
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case lkLabel:
		return "label"
	case lkToken:
		return "token"
	case lkMetadata:
		return "metadata"
	}
	return t.name
}

// scalar returns the element type of a vector, t itself otherwise.
func (t *llType) scalar() *llType {
	if t.kind == lkVector && t.elem != nil {
		return t.elem
	}
	return t
}

// parseType parses an LLVM type at the cursor.
func (p *parser) parseType() (*llType, error) {
	if err := p.nest("type"); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	t, err := p.parseBaseType()
	if err != nil {
		return nil, err
	}
	// Typed pointers (pre-opaque-pointer syntax): T*, T addrspace(N)*.
	for {
		if p.isIdent("addrspace") && p.peekAt(1).text == "(" {
			save := p.pos
			as, err := p.parseAddrSpace()
			if err != nil {
				return nil, err
			}
			if !p.isPunct("*") {
				p.pos = save
				return t, nil
			}
			p.pos++
			t = &llType{kind: lkPtr, as: as, elem: t}
			continue
		}
		if p.isPunct("*") {
			p.pos++
			t = &llType{kind: lkPtr, elem: t}
			continue
		}
		return t, nil
	}
}

// parseAddrSpace parses "addrspace(N)".
func (p *parser) parseAddrSpace() (int, error) {
	p.pos++ // addrspace
	if err := p.expectPunct("("); err != nil {
		return 0, err
	}
	t := p.tok()
	if t.kind != tInt {
		return 0, p.errAt(t, "expected an address space number, found %s", t)
	}
	n, err := strconv.Atoi(t.text)
	if err != nil || n < 0 || n > 1<<24 {
		return 0, p.errAt(t, "invalid address space %s", t.text)
	}
	p.pos++
	return n, p.expectPunct(")")
}

// Scalar types are shared, not allocated per occurrence (a large module
// names i32 and ptr millions of times); llTypes are never modified after
// parsing.
var (
	scalarLLTypes = map[llKind]*llType{}
	intLLTypes    = map[int]*llType{}
	flatPtrLLType = &llType{kind: lkPtr}
)

func init() {
	for _, k := range []llKind{lkVoid, lkHalf, lkBFloat, lkFloat, lkDouble, lkLabel, lkToken, lkMetadata} {
		scalarLLTypes[k] = &llType{kind: k}
	}
	for _, n := range []int{1, 8, 16, 32, 64} {
		intLLTypes[n] = &llType{kind: lkInt, bits: n}
	}
}

func (p *parser) parseBaseType() (*llType, error) {
	t := p.tok()
	switch t.kind {
	case tIdent:
		switch w := t.text; {
		case w == "void":
			p.pos++
			return scalarLLTypes[lkVoid], nil
		case w == "half":
			p.pos++
			return scalarLLTypes[lkHalf], nil
		case w == "bfloat":
			p.pos++
			return scalarLLTypes[lkBFloat], nil
		case w == "float":
			p.pos++
			return scalarLLTypes[lkFloat], nil
		case w == "double":
			p.pos++
			return scalarLLTypes[lkDouble], nil
		case w == "label":
			p.pos++
			return scalarLLTypes[lkLabel], nil
		case w == "token":
			p.pos++
			return scalarLLTypes[lkToken], nil
		case w == "metadata":
			p.pos++
			return scalarLLTypes[lkMetadata], nil
		case w == "ptr":
			p.pos++
			if !p.isIdent("addrspace") {
				return flatPtrLLType, nil
			}
			pt := &llType{kind: lkPtr}
			if p.isIdent("addrspace") {
				as, err := p.parseAddrSpace()
				if err != nil {
					return nil, err
				}
				pt.as = as
			}
			return pt, nil
		case len(w) > 1 && w[0] == 'i' && allDigits(w[1:]):
			n, err := strconv.Atoi(w[1:])
			if err != nil || n < 1 || n > 1<<23 {
				return nil, p.errAt(t, "invalid integer type %s", w)
			}
			p.pos++
			if t, ok := intLLTypes[n]; ok {
				return t, nil
			}
			return &llType{kind: lkInt, bits: n}, nil
		case w == "x86_fp80" || w == "fp128" || w == "ppc_fp128" || w == "x86_amx" || w == "x86_mmx":
			p.pos++
			return &llType{kind: lkOther, name: w}, nil
		case w == "target":
			// target("name", T..., N...): keep the spelling.
			p.pos++
			start := p.pos
			if p.isPunct("(") {
				if err := p.skipBalanced(); err != nil {
					return nil, err
				}
			}
			var sb strings.Builder
			sb.WriteString("target")
			for _, x := range p.ts.span(start, p.pos) {
				if x.kind == tString {
					sb.WriteString(strconv.Quote(x.text))
				} else {
					sb.WriteString(x.text)
				}
			}
			return &llType{kind: lkOther, name: sb.String()}, nil
		}
		return nil, p.errAt(t, "expected a type, found %s", t)
	case tLocal:
		p.pos++
		return &llType{kind: lkStruct, name: t.text}, nil
	case tPunct:
		switch t.text {
		case "<":
			p.pos++
			if p.isPunct("{") {
				st, err := p.parseStructBody()
				if err != nil {
					return nil, err
				}
				st.packed = true
				return st, p.expectPunct(">")
			}
			n, elem, err := p.parseSized()
			if err != nil {
				return nil, err
			}
			return &llType{kind: lkVector, n: n, elem: elem}, p.expectPunct(">")
		case "[":
			p.pos++
			n, elem, err := p.parseSized()
			if err != nil {
				return nil, err
			}
			return &llType{kind: lkArray, n: n, elem: elem}, p.expectPunct("]")
		case "{":
			return p.parseStructBody()
		}
	}
	return nil, p.errAt(t, "expected a type, found %s", t)
}

// parseSized parses "N x T" inside <...> or [...]; "vscale x" is rejected.
func (p *parser) parseSized() (int, *llType, error) {
	t := p.tok()
	if t.kind == tIdent && t.text == "vscale" {
		return 0, nil, p.errAt(t, "unsupported scalable vector type")
	}
	if t.kind != tInt {
		return 0, nil, p.errAt(t, "expected an element count, found %s", t)
	}
	n, err := strconv.Atoi(t.text)
	if err != nil || n < 0 || n > 1<<20 {
		return 0, nil, p.errAt(t, "invalid element count %s", t.text)
	}
	p.pos++
	if !p.isIdent("x") {
		return 0, nil, p.errAt(p.tok(), "expected 'x' after the element count, found %s", p.tok())
	}
	p.pos++
	elem, err := p.parseType()
	return n, elem, err
}

func (p *parser) parseStructBody() (*llType, error) {
	p.pos++ // {
	st := &llType{kind: lkStruct}
	if p.isPunct("}") {
		p.pos++
		return st, nil
	}
	for {
		f, err := p.parseType()
		if err != nil {
			return nil, err
		}
		st.fields = append(st.fields, f)
		if p.isPunct(",") {
			p.pos++
			continue
		}
		return st, p.expectPunct("}")
	}
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// irTypeOf maps an LLVM type to a passlens type. Pointers get the pointee
// chosen by the caller (pointee may be nil for "unknown", giving i8: LLVM's
// opaque pointers carry no pointee). named resolves %T struct names.
func irTypeOf(t *llType, pointee *ir.Type, named func(string) (*ir.Type, error)) (*ir.Type, error) {
	switch t.kind {
	case lkVoid:
		return ir.Void, nil
	case lkInt:
		if it := ir.IntType(t.bits); it != nil {
			return it, nil
		}
		return opaqueType(t), nil
	case lkHalf:
		return ir.F16, nil
	case lkBFloat:
		return ir.BF16, nil
	case lkFloat:
		return ir.F32, nil
	case lkDouble:
		return ir.F64, nil
	case lkPtr:
		sp, ok := SpaceForLLVM(t.as)
		if !ok {
			return opaqueType(&llType{kind: lkPtr, as: t.as}), nil
		}
		if pointee == nil {
			if t.elem != nil {
				pt, err := irTypeOf(t.elem, nil, named)
				if err != nil {
					return nil, err
				}
				if pt == ir.Void || pt.Kind == ir.KArray && pt.Len < 0 {
					pt = ir.I8 // void* (invalid LLVM) and the like
				}
				pointee = pt
			} else {
				pointee = ir.I8
			}
		}
		return ir.Ptr(sp, pointee), nil
	case lkVector:
		// passlens vectors have 2 to 4 scalar lanes (the IR verifier's
		// rule); others stay LLVM types, so imported modules verify.
		if t.n < 2 || t.n > 4 || t.elem.kind == lkPtr {
			return opaqueType(t), nil
		}
		e, err := irTypeOf(t.elem, nil, named)
		if err != nil {
			return nil, err
		}
		if !e.IsScalar() {
			return opaqueType(t), nil
		}
		return ir.Vec(e, t.n), nil
	case lkArray:
		e, err := irTypeOf(t.elem, nil, named)
		if err != nil {
			return nil, err
		}
		if t.n == 0 {
			// [0 x T]: a buffer indexed past its end, passlens's
			// runtime-sized array (the exporter writes [? x T] back so).
			return ir.Array(e, -1), nil
		}
		return ir.Array(e, t.n), nil
	case lkStruct:
		if t.name != "" {
			return named(t.name)
		}
		if t.packed {
			return opaqueType(t), nil
		}
		fields := make([]ir.Field, len(t.fields))
		for i, f := range t.fields {
			ft, err := irTypeOf(f, nil, named)
			if err != nil {
				return nil, err
			}
			if ft == ir.Void {
				return nil, fmt.Errorf("invalid struct field type %s", f)
			}
			fields[i] = ir.Field{Name: "f" + strconv.Itoa(i), Type: ft}
		}
		return ir.Struct(literalStructName(fields), fields), nil
	case lkToken, lkOther:
		return opaqueType(t), nil
	}
	return nil, fmt.Errorf("invalid use of type %s", t)
}

// literalStructName names the passlens struct standing for an LLVM literal
// struct: "s" followed by its field types, so that equal literal structs map
// to one passlens type and the exporter can recognise and re-inline them.
func literalStructName(fields []ir.Field) string {
	var sb strings.Builder
	sb.WriteString(literalPrefix)
	for i, f := range fields {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(f.Type.String())
	}
	sb.WriteByte('}')
	return sb.String()
}

// literalPrefix starts the names of structs that stand for LLVM literal
// structs ({ i32, i1 } becomes %"{i32,bool}").
const literalPrefix = "{"
