package spvread

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// This file decodes a binary SPIR-V module (a .spv file) into the
// reader's instruction form, with the ids spelled as decimal numbers (as
// spirv-dis --raw-id prints them) and the enumerants the builder reads
// spelled as spirv-dis spells them (enums.go). Opcodes the table does not
// know are decoded by shape: a first operand that is a type id followed
// by an id not defined yet is taken as result type and result; every
// other operand word is taken as an id, so the builder keeps whatever
// def-use edges those words name (an opaque operation, like text input's
// unknown opcodes).

// magic is the first word of a SPIR-V module.
const magic = 0x07230203

// IsBinary reports whether data starts with the SPIR-V magic number (in
// either byte order).
func IsBinary(data []byte) bool {
	if len(data) < 4 {
		return false
	}
	return binary.LittleEndian.Uint32(data) == magic || binary.BigEndian.Uint32(data) == magic
}

// decodeBinary splits a module into instructions. Errors give the word
// offset.
func decodeBinary(file string, data []byte) ([]inst, error) {
	bad := func(word int, format string, args ...any) error {
		return &Error{File: file, Pos: Pos{Word: word}, Msg: fmt.Sprintf(format, args...)}
	}
	if len(data)%4 != 0 {
		return nil, bad(len(data)/4, "%d bytes is not a whole number of 32-bit words", len(data))
	}
	if len(data) < 20 {
		return nil, bad(0, "%d bytes is shorter than the 5-word SPIR-V header", len(data))
	}
	var order binary.ByteOrder = binary.LittleEndian
	if order.Uint32(data) != magic {
		order = binary.BigEndian
		if order.Uint32(data) != magic {
			return nil, bad(0, "bad magic number 0x%08x (not a SPIR-V module)", binary.LittleEndian.Uint32(data))
		}
	}
	words := make([]uint32, len(data)/4)
	for i := range words {
		words[i] = order.Uint32(data[4*i:])
	}
	d := &decoder{file: file, widths: map[uint32]int{}, typeOf: map[uint32]uint32{}, defined: map[uint32]bool{},
		isType: map[uint32]bool{}, glsl: map[uint32]bool{}}
	var out []inst
	for i := 5; i < len(words); {
		n := int(words[i] >> 16)
		op := uint16(words[i])
		if n == 0 || i+n > len(words) {
			return nil, bad(i, "instruction has word count %d, but the module has %d words left", n, len(words)-i)
		}
		in, err := d.inst(op, words[i+1:i+n], i)
		if err != nil {
			return nil, err
		}
		if in != nil {
			out = append(out, *in)
		}
		i += n
	}
	return out, nil
}

type decoder struct {
	file    string
	widths  map[uint32]int    // scalar type id -> bit width (int and float)
	typeOf  map[uint32]uint32 // value id -> its type id
	defined map[uint32]bool
	isType  map[uint32]bool
	glsl    map[uint32]bool // GLSL.std.450 import ids
}

func idOp(w uint32, word int) operand {
	return operand{kind: kID, s: strconv.FormatUint(uint64(w), 10), pos: Pos{Word: word}}
}

func (d *decoder) inst(op uint16, ws []uint32, at int) (*inst, error) {
	spec, ok := opNames[op]
	if !ok {
		return d.unknown(op, ws, at), nil
	}
	if spec[1] == "-" {
		return nil, nil // debug and string decorations: nothing the builder reads
	}
	in := &inst{op: spec[0], pos: Pos{Word: at}}
	short := func() error {
		return &Error{File: d.file, Pos: Pos{Word: at}, Msg: fmt.Sprintf("%s has too few operands (%d words)", spec[0], len(ws))}
	}
	toks := strings.Fields(spec[1])
	k := 0 // next word
	for ti := 0; ti < len(toks); ti++ {
		tok := toks[ti]
		rep := strings.HasSuffix(tok, "*")
		tok = strings.TrimSuffix(tok, "*")
		if tok == "w" {
			if err := d.switchPairs(in, ws, k, at); err != nil {
				return nil, err
			}
			k = len(ws)
			continue
		}
		for first := true; first || rep && k < len(ws); first = false {
			if k >= len(ws) {
				if rep || tok == "o" {
					break
				}
				return nil, short()
			}
			wpos := at + 1 + k
			switch {
			case tok == "T":
				in.typ = strconv.FormatUint(uint64(ws[k]), 10)
				k++
			case tok == "R":
				in.res = strconv.FormatUint(uint64(ws[k]), 10)
				d.defined[ws[k]] = true
				if in.typ != "" {
					d.typeOf[ws[k]] = ws[k-1]
				}
				k++
			case tok == "i":
				in.args = append(in.args, idOp(ws[k], wpos))
				k++
			case tok == "n" || tok == "o":
				in.args = append(in.args, operand{kind: kLit, s: strconv.FormatUint(uint64(ws[k]), 10), w: ws[k : k+1], pos: Pos{Word: wpos}})
				k++
			case tok == "s":
				s, n, ok := decodeString(ws[k:])
				if !ok {
					return nil, &Error{File: d.file, Pos: Pos{Word: wpos}, Msg: "string operand without a terminating nul"}
				}
				in.args = append(in.args, operand{kind: kStr, s: s, pos: Pos{Word: wpos}})
				k += n
			case tok == "v":
				in.args = append(in.args, operand{kind: kLit, w: ws[k:], pos: Pos{Word: wpos}})
				k = len(ws)
			case tok == "x":
				name := strconv.FormatUint(uint64(ws[k]), 10)
				if imp := in.args[0].s; d.glsl[atoiU(imp)] {
					if s, ok := enumTables["glsl"][ws[k]]; ok {
						name = s
					}
				}
				in.args = append(in.args, operand{kind: kLit, s: name, w: ws[k : k+1], pos: Pos{Word: wpos}})
				k++
			case tok == "d":
				name := enumName("dec", ws[k])
				in.args = append(in.args, operand{kind: kLit, s: name, w: ws[k : k+1], pos: Pos{Word: wpos}})
				k++
				if name == "BuiltIn" && k < len(ws) {
					in.args = append(in.args, operand{kind: kLit, s: enumName("builtin", ws[k]), w: ws[k : k+1], pos: Pos{Word: at + 1 + k}})
					k++
				}
				for ; k < len(ws); k++ {
					in.args = append(in.args, operand{kind: kLit, s: strconv.FormatUint(uint64(ws[k]), 10), w: ws[k : k+1], pos: Pos{Word: at + 1 + k}})
				}
			case strings.HasPrefix(tok, "e:"):
				in.args = append(in.args, operand{kind: kLit, s: enumName(tok[2:], ws[k]), w: ws[k : k+1], pos: Pos{Word: wpos}})
				k++
			}
		}
	}
	switch in.op {
	case "OpTypeInt", "OpTypeFloat":
		d.widths[atoiU(in.res)] = int(ws[1])
	case "OpExtInstImport":
		if len(in.args) > 0 && in.args[0].s == "GLSL.std.450" {
			d.glsl[atoiU(in.res)] = true
		}
	}
	if strings.HasPrefix(in.op, "OpType") && in.res != "" {
		d.isType[atoiU(in.res)] = true
	}
	return in, nil
}

// switchPairs decodes OpSwitch's (literal, label) pairs from word k; the
// literal is one word, or two for a 64-bit selector.
func (d *decoder) switchPairs(in *inst, ws []uint32, k, at int) error {
	width := d.widths[d.typeOf[atoiU(in.args[0].s)]]
	n := 1
	if width > 32 {
		n = 2
	}
	for k < len(ws) {
		if k+n >= len(ws) {
			return &Error{File: d.file, Pos: Pos{Word: at + 1 + k}, Msg: "OpSwitch case without a label"}
		}
		in.args = append(in.args, operand{kind: kLit, w: ws[k : k+n], s: strconv.FormatUint(uint64(ws[k]), 10), pos: Pos{Word: at + 1 + k}})
		in.args = append(in.args, idOp(ws[k+n], at+1+k+n))
		k += n + 1
	}
	return nil
}

// unknown decodes an opcode the table lacks by its shape (see the file
// comment).
func (d *decoder) unknown(op uint16, ws []uint32, at int) *inst {
	in := &inst{op: fmt.Sprintf("OpUnknown%d", op), pos: Pos{Word: at}}
	k := 0
	if len(ws) >= 2 && d.isType[ws[0]] && !d.defined[ws[1]] {
		in.typ = strconv.FormatUint(uint64(ws[0]), 10)
		in.res = strconv.FormatUint(uint64(ws[1]), 10)
		d.defined[ws[1]] = true
		d.typeOf[ws[1]] = ws[0]
		k = 2
	}
	for ; k < len(ws); k++ {
		in.args = append(in.args, idOp(ws[k], at+1+k))
	}
	return in
}

func enumName(table string, v uint32) string {
	if s, ok := enumTables[table][v]; ok {
		return s
	}
	return strconv.FormatUint(uint64(v), 10)
}

func atoiU(s string) uint32 {
	v, _ := strconv.ParseUint(s, 10, 32)
	return uint32(v)
}

// decodeString reads a nul-terminated UTF-8 string packed in words; it
// returns the string and the words it used.
func decodeString(ws []uint32) (string, int, bool) {
	var b []byte
	for i, w := range ws {
		for j := 0; j < 4; j++ {
			c := byte(w >> (8 * j))
			if c == 0 {
				return string(b), i + 1, true
			}
			b = append(b, c)
		}
	}
	return "", 0, false
}
