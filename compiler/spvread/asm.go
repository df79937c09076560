package spvread

import (
	"fmt"
	"strconv"
	"strings"
)

// This file is the reader's one instruction form, shared by the two
// inputs: SPIR-V assembly (spirv-dis format, as spirv-opt --print-all
// prints it) and binary modules (binary.go decodes words into the same
// form). The module builder (module.go, func.go) only sees this form.

// Pos locates an instruction or operand: a line and column of assembly
// text, or the word offset of a binary module (Word >= 0, Line == 0).
type Pos struct {
	Line, Col int
	Word      int
}

// operand kinds.
const (
	kID  = 'i' // an <id>: %name in text, a number in binary
	kLit = 'n' // a literal number or an enumerant (text: its spelling)
	kStr = 's' // a literal string
)

// operand is one operand of an instruction.
type operand struct {
	kind byte
	s    string   // the id (without %), the literal's or enumerant's spelling, or the string
	w    []uint32 // binary literals: the words (nil for text)
	pos  Pos
}

// inst is one instruction: its opcode name ("OpIAdd"), result and result
// type ids ("" when absent) and the other operands.
type inst struct {
	op       string
	res, typ string
	args     []operand
	pos      Pos
}

// noType lists the opcodes whose result has no result type.
func noType(op string) bool {
	if strings.HasPrefix(op, "OpType") {
		return true
	}
	switch op {
	case "OpLabel", "OpExtInstImport", "OpString", "OpDecorationGroup":
		return true
	}
	return false
}

// parseText reads SPIR-V assembly: one instruction per line, "%r = OpX
// operands" or "OpX operands", ';' comments. Errors are
// "file:line:col: message" with the line and a caret.
func parseText(file string, src []byte) ([]inst, error) {
	var out []inst
	lines := strings.Split(string(src), "\n")
	for ln, line := range lines {
		toks, err := lexLine(line, ln+1)
		if err != nil {
			return nil, located(file, lines, err.(*locErr))
		}
		if len(toks) == 0 {
			continue
		}
		in := inst{pos: toks[0].pos}
		i := 0
		if toks[0].kind == kID {
			if len(toks) < 3 || toks[1].s != "=" || toks[1].kind != kLit {
				return nil, located(file, lines, &locErr{toks[0].pos, "expected '= Op…' after the result id %" + toks[0].s})
			}
			in.res = toks[0].s
			i = 2
		}
		if toks[i].kind != kLit || !strings.HasPrefix(toks[i].s, "Op") {
			return nil, located(file, lines, &locErr{toks[i].pos, fmt.Sprintf("expected an opcode (Op…), found %q", toks[i].s)})
		}
		in.op = toks[i].s
		i++
		if in.res != "" && !noType(in.op) {
			if i >= len(toks) || toks[i].kind != kID {
				p := toks[len(toks)-1].pos
				if i < len(toks) {
					p = toks[i].pos
				}
				return nil, located(file, lines, &locErr{p, in.op + " needs a result type id"})
			}
			in.typ = toks[i].s
			i++
		}
		in.args = toks[i:]
		out = append(out, in)
	}
	return out, nil
}

// locErr is an error at a position of the text, rendered by located.
type locErr struct {
	pos Pos
	msg string
}

func (e *locErr) Error() string { return fmt.Sprintf("%d:%d: %s", e.pos.Line, e.pos.Col, e.msg) }

// located renders e as "file:line:col: error: msg", the line and a caret.
func located(file string, lines []string, e *locErr) error {
	l := ""
	if e.pos.Line >= 1 && e.pos.Line <= len(lines) {
		l = strings.TrimRight(lines[e.pos.Line-1], "\r")
	}
	caret := strings.Repeat(" ", max(0, e.pos.Col-1)) + "^"
	for i := 0; i < e.pos.Col-1 && i < len(l); i++ {
		if l[i] == '\t' {
			caret = caret[:i] + "\t" + caret[i+1:]
		}
	}
	return &Error{File: file, Pos: e.pos, Msg: e.msg, Line: l, Caret: caret}
}

// Error is a located read error: file:line:col for text, a word offset
// for binary modules.
type Error struct {
	File  string
	Pos   Pos
	Msg   string
	Line  string // the text line (text input)
	Caret string
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: word %d: error: %s", e.File, e.Pos.Word, e.Msg)
	}
	s := fmt.Sprintf("%s:%d:%d: error: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	if e.Line != "" {
		s += "\n" + e.Line + "\n" + e.Caret
	}
	return s
}

// lexLine splits one line of assembly into operands; "=" is a kLit
// token.
func lexLine(line string, ln int) ([]operand, error) {
	var out []operand
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == ';':
			return out, nil
		}
		p := Pos{Line: ln, Col: i + 1, Word: -1}
		switch {
		case c == '"':
			var sb strings.Builder
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) {
					j++
				}
				sb.WriteByte(line[j])
			}
			if j >= len(line) {
				return nil, &locErr{p, "unterminated string"}
			}
			out = append(out, operand{kind: kStr, s: sb.String(), pos: p})
			i = j + 1
		case c == '%':
			j := i + 1
			for j < len(line) && !strings.ContainsRune(" \t\r;\"", rune(line[j])) {
				j++
			}
			if j == i+1 {
				return nil, &locErr{p, "'%' without an id name"}
			}
			out = append(out, operand{kind: kID, s: line[i+1 : j], pos: p})
			i = j
		default:
			j := i
			for j < len(line) && !strings.ContainsRune(" \t\r;\"%", rune(line[j])) {
				j++
			}
			out = append(out, operand{kind: kLit, s: line[i:j], pos: p})
			i = j
		}
	}
	return out, nil
}

// uint reads a literal operand as an unsigned number (text: decimal or
// 0x hex, possibly negative, as two's complement).
func (o operand) uint() (uint64, bool) {
	if o.w != nil {
		v := uint64(o.w[0])
		if len(o.w) > 1 {
			v |= uint64(o.w[1]) << 32
		}
		return v, true
	}
	if o.kind != kLit {
		return 0, false
	}
	if v, err := strconv.ParseUint(o.s, 0, 64); err == nil {
		return v, true
	}
	if v, err := strconv.ParseInt(o.s, 0, 64); err == nil {
		return uint64(v), true
	}
	return 0, false
}
