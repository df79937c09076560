package interp

// This file prints values the way IR constants are written (42, -1, 1.5,
// true, <1.0, 2.0>, [..], {..}); floats print as the shortest decimal that
// reads back to the same bits, and NaNs, infinities and negative zero as
// their "0x..." bit pattern.

import (
	"math"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// FormatValue prints the cells of a value of type t.
func FormatValue(t *ir.Type, cells []uint64) string {
	var sb strings.Builder
	formatValue(&sb, t, cells)
	return sb.String()
}

func formatValue(sb *strings.Builder, t *ir.Type, cells []uint64) {
	if len(cells) < slots(t) {
		sb.WriteString("?")
		return
	}
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat, ir.KPointer:
		sb.WriteString(scalarText(t, cells[0], false))
		return
	}
	open, close := "{", "}"
	switch t.Kind {
	case ir.KVector, ir.KMatrix:
		open, close = "<", ">"
	case ir.KArray:
		open, close = "[", "]"
	}
	sb.WriteString(open)
	for i := 0; i < numParts(t, len(cells)); i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		et, c, ok := part(t, cells, i)
		if !ok {
			sb.WriteString("?")
			break
		}
		formatValue(sb, et, c)
	}
	sb.WriteString(close)
}

// scalarText prints one scalar cell; for JSON, special floats are quoted.
func scalarText(t *ir.Type, c uint64, jsonMode bool) string {
	b := fbits(t)
	switch t.Kind {
	case ir.KBool:
		if c&1 != 0 {
			return "true"
		}
		return "false"
	case ir.KInt:
		return strconv.FormatInt(sext(c, b), 10)
	case ir.KUint:
		return strconv.FormatUint(c&widthMask(b), 10)
	case ir.KPointer:
		if jsonMode {
			return strconv.Quote("ptr:" + strconv.FormatUint(c, 16))
		}
		return "ptr:" + strconv.FormatUint(c, 16)
	case ir.KFloat:
		f := toF64(c, b)
		if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 && math.Signbit(f) {
			w := bitsOf(t)
			s := "0x" + strings.ToUpper(strconv.FormatUint(c&widthMask(w)|1<<uint(w), 16)[1:])
			if jsonMode {
				return strconv.Quote(s)
			}
			return s
		}
		prec := 32
		if b == 64 {
			prec = 64
		}
		s := strconv.FormatFloat(f, 'g', -1, prec)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	}
	return "?"
}
