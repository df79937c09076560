package spirv

import (
	"encoding/binary"
	"fmt"
)

// Header is the five-word header of a SPIR-V module.
type Header struct {
	Version   uint32
	Generator uint32
	Bound     uint32
	Schema    uint32
}

// Instruction is one decoded instruction: its opcode and its operand words
// (the words after the opcode/word-count word).
type Instruction struct {
	Opcode   uint16
	Operands []uint32
	Offset   int // word offset of the instruction in the module
}

// Decoded is a module split into its header and instructions.
type Decoded struct {
	Header Header
	Insts  []Instruction
}

// Decode splits a little-endian SPIR-V word stream into instructions. It
// checks the magic number and that every instruction's word count fits;
// it does not validate the module.
func Decode(words []uint32) (*Decoded, error) {
	if len(words) < 5 {
		return nil, fmt.Errorf("spirv: module has %d words, fewer than the 5-word header", len(words))
	}
	if words[0] != Magic {
		return nil, fmt.Errorf("spirv: bad magic number 0x%08x", words[0])
	}
	d := &Decoded{Header: Header{Version: words[1], Generator: words[2], Bound: words[3], Schema: words[4]}}
	for i := 5; i < len(words); {
		n := int(words[i] >> 16)
		op := uint16(words[i])
		if n == 0 || i+n > len(words) {
			return nil, fmt.Errorf("spirv: instruction at word %d has word count %d (module has %d words)", i, n, len(words))
		}
		d.Insts = append(d.Insts, Instruction{Opcode: op, Operands: words[i+1 : i+n], Offset: i})
		i += n
	}
	return d, nil
}

// Words converts little-endian bytes (a .spv file) to words.
func Words(b []byte) ([]uint32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("spirv: %d bytes is not a whole number of words", len(b))
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w, nil
}

// Bytes converts words to little-endian bytes (the .spv file format).
func Bytes(words []uint32) []byte {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// decodeString reads a nul-terminated literal string starting at ws[0] and
// returns it and the number of words it occupies.
func decodeString(ws []uint32) (string, int, error) {
	var buf []byte
	for i, w := range ws {
		for k := 0; k < 4; k++ {
			c := byte(w >> (8 * uint(k)))
			if c == 0 {
				return string(buf), i + 1, nil
			}
			buf = append(buf, c)
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}

// encodeString packs s as a nul-terminated literal string.
func encodeString(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}
