package llvm

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// llName spells a local or global name after its sigil: bare when LLVM's
// lexer accepts it, else quoted with \XX escapes. Purely numeric names are
// quoted too (unless the caller knows they are in LLVM's numbering order),
// because bare numbers must follow that order.
func llName(n string) string {
	if n != "" && !allDigits(n) && (n[0] < '0' || n[0] > '9') {
		ok := true
		for i := 0; i < len(n); i++ {
			if !isIdentChar(n[i]) {
				ok = false
				break
			}
		}
		if ok {
			return n
		}
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(n); i++ {
		c := n[i]
		if c == '"' || c == '\\' || c < 0x20 || c >= 0x7F {
			fmt.Fprintf(&sb, "\\%02X", c)
		} else {
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// llType spells a passlens type in LLVM syntax. Pointers use the address
// space of their passlens space (LLVMAddrSpace).
func llTypeStr(t *ir.Type) (string, error) {
	switch t.Kind {
	case ir.KVoid:
		return "void", nil
	case ir.KBool:
		return "i1", nil
	case ir.KInt, ir.KUint:
		return "i" + strconv.Itoa(t.Bits), nil
	case ir.KFloat:
		switch {
		case t == ir.BF16:
			return "bfloat", nil
		case t.Bits == 16:
			return "half", nil
		case t.Bits == 32:
			return "float", nil
		case t.Bits == 64:
			return "double", nil
		}
	case ir.KVector:
		e, err := llTypeStr(t.Elem)
		return fmt.Sprintf("<%d x %s>", t.Len, e), err
	case ir.KMatrix:
		e, err := llTypeStr(t.Elem)
		if t.Cols == 1 {
			// A row of one column is the scalar itself (ir.Vec(e, 1) == e).
			return fmt.Sprintf("[%d x %s]", t.Len, e), err
		}
		return fmt.Sprintf("[%d x <%d x %s>]", t.Len, t.Cols, e), err
	case ir.KArray:
		e, err := llTypeStr(t.Elem)
		if t.Len < 0 {
			// A runtime-sized buffer: LLVM's zero-length array, indexed
			// past its end by getelementptr.
			return fmt.Sprintf("[0 x %s]", e), err
		}
		return fmt.Sprintf("[%d x %s]", t.Len, e), err
	case ir.KStruct:
		if IsOpaqueType(t) {
			return "", fmt.Errorf("unsupported: the LLVM type %s was imported as opaque and cannot be exported", strings.TrimPrefix(t.Name, opaqueTypePrefix))
		}
		if strings.HasPrefix(t.Name, literalPrefix) {
			return literalStructStr(t)
		}
		return "%" + llName(t.Name), nil
	case ir.KPointer:
		if as := LLVMAddrSpace(t.Space); as != 0 {
			return fmt.Sprintf("ptr addrspace(%d)", as), nil
		}
		return "ptr", nil
	}
	return "", fmt.Errorf("type %s has no LLVM equivalent", t)
}

func literalStructStr(t *ir.Type) (string, error) {
	var parts []string
	for _, f := range t.Fields {
		s, err := llTypeStr(f.Type)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "{}", nil
	}
	return "{ " + strings.Join(parts, ", ") + " }", nil
}

// mangle spells a type as LLVM intrinsic overload suffixes do (i32, f32,
// v4f32, p1, a4i32, sl_i32i1s).
func mangle(t *ir.Type) string {
	switch t.Kind {
	case ir.KVoid:
		return "isVoid"
	case ir.KBool:
		return "i1"
	case ir.KInt, ir.KUint:
		return "i" + strconv.Itoa(t.Bits)
	case ir.KFloat:
		if t == ir.BF16 {
			return "bf16"
		}
		return "f" + strconv.Itoa(t.Bits)
	case ir.KVector:
		return "v" + strconv.Itoa(t.Len) + mangle(t.Elem)
	case ir.KMatrix:
		return "a" + strconv.Itoa(t.Len) + "v" + strconv.Itoa(t.Cols) + mangle(t.Elem)
	case ir.KArray:
		return "a" + strconv.Itoa(t.Len) + mangle(t.Elem)
	case ir.KPointer:
		return "p" + strconv.Itoa(LLVMAddrSpace(t.Space))
	case ir.KStruct:
		var sb strings.Builder
		sb.WriteString("sl_")
		for _, f := range t.Fields {
			sb.WriteString(mangle(f.Type))
		}
		sb.WriteString("s")
		return sb.String()
	}
	return "x"
}

// constStr spells a constant of type t (without the type).
func constStr(c *ir.Const) (string, error) {
	t := c.Type()
	if c.Undef {
		return "undef", nil
	}
	if c.Zero {
		switch {
		case t.Kind == ir.KPointer:
			return "null", nil
		case t == ir.Bool:
			return "false", nil
		case t.IsIntegral():
			return "0", nil
		case t.Kind == ir.KFloat:
			return floatStr(t, 0)
		}
		return "zeroinitializer", nil
	}
	switch t.Kind {
	case ir.KBool:
		if c.Bool() {
			return "true", nil
		}
		return "false", nil
	case ir.KInt, ir.KUint:
		v := c.Int()
		if t.Kind == ir.KUint && t.Bits == 32 {
			v = int64(int32(uint32(c.Bits)))
		}
		return strconv.FormatInt(v, 10), nil
	case ir.KFloat:
		return floatStr(t, c.Bits)
	case ir.KPointer:
		return "", fmt.Errorf("unsupported pointer constant")
	}
	open, close := "{ ", " }"
	switch t.Kind {
	case ir.KVector:
		open, close = "<", ">"
	case ir.KArray, ir.KMatrix:
		open, close = "[", "]"
	}
	var parts []string
	for i := 0; i < t.NumElems(); i++ {
		e := c.Elem(i)
		if e == nil {
			return "", fmt.Errorf("constant of type %s lacks element %d", t, i)
		}
		ts, err := llTypeStr(e.Type())
		if err != nil {
			return "", err
		}
		es, err := constStr(e)
		if err != nil {
			return "", err
		}
		parts = append(parts, ts+" "+es)
	}
	return open + strings.Join(parts, ", ") + close, nil
}

// floatStr spells float bits exactly: decimals that LLVM reads back to the
// same value, hex (as a double, or 0xH/0xR for 16-bit types) otherwise.
func floatStr(t *ir.Type, bits uint64) (string, error) {
	switch {
	case t == ir.BF16:
		return fmt.Sprintf("0xR%04X", bits&0xFFFF), nil
	case t.Bits == 16:
		return fmt.Sprintf("0xH%04X", bits&0xFFFF), nil
	}
	var f float64
	if t.Bits == 32 {
		b := uint32(bits)
		f32 := math.Float32frombits(b)
		if math.IsNaN(float64(f32)) {
			// LLVM spells float NaNs as doubles with the payload on top.
			sign := uint64(b>>31) << 63
			mant := uint64(b&0x7FFFFF) << 29
			return fmt.Sprintf("0x%016X", sign|0x7FF0000000000000|mant), nil
		}
		f = float64(f32)
	} else {
		f = math.Float64frombits(bits)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Sprintf("0x%016X", math.Float64bits(f)), nil
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	return mant + "e" + exp, nil
}
