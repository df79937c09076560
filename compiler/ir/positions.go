package ir

import (
	"sort"
	"strings"
)

// Positions records where the functions, blocks, instructions and globals
// of a parsed module are in its text (ParseModuleWithPositions). Entities
// are keyed by pointer, so the positions stay right for whatever survives
// later passes; entities created by passes have none.
type Positions struct {
	file    string
	src     string
	lines   []int32 // byte offset of each line start
	funcs   map[*Function]int32
	blocks  map[*Block]int32
	instrs  map[*Instr]int32
	globals map[*Global]int32
}

func newPositions(file, src string) *Positions {
	ps := &Positions{file: file, src: src, lines: []int32{0},
		funcs: map[*Function]int32{}, blocks: map[*Block]int32{}, instrs: map[*Instr]int32{}, globals: map[*Global]int32{}}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			ps.lines = append(ps.lines, int32(i+1))
		}
	}
	return ps
}

// File is the file name the positions refer to.
func (ps *Positions) File() string { return ps.file }

// at renders msg at byte offset off as a *ParseError (file:line:col, the
// source line and a caret).
func (ps *Positions) at(off int32, msg string) *ParseError {
	i := sort.Search(len(ps.lines), func(i int) bool { return ps.lines[i] > off }) - 1
	start := int(ps.lines[i])
	end := strings.IndexByte(ps.src[start:], '\n')
	if end < 0 {
		end = len(ps.src)
	} else {
		end += start
	}
	return &ParseError{File: ps.file, Line: i + 1, Col: int(off) - start + 1, Msg: msg,
		Source: strings.TrimRight(ps.src[start:end], "\r")}
}

// Problem locates a verifier problem at the instruction, global, block or
// function it concerns, as a *ParseError whose Error() is clang-style text
// with a caret. It returns nil when the text has no position for it.
func (ps *Positions) Problem(m *Module, p Problem) *ParseError {
	if ps == nil {
		return nil
	}
	if p.Instr != nil {
		if off, ok := ps.instrs[p.Instr]; ok {
			return ps.at(off, p.String())
		}
	}
	if p.Global != nil {
		if off, ok := ps.globals[p.Global]; ok {
			return ps.at(off, p.String())
		}
	}
	if m == nil || p.Func == "" {
		return nil
	}
	f := m.Func(p.Func)
	if f == nil {
		return nil
	}
	if p.Block != "" {
		for _, b := range f.Blocks {
			if b != nil && b.name == p.Block {
				if off, ok := ps.blocks[b]; ok {
					return ps.at(off, p.String())
				}
			}
		}
	}
	if off, ok := ps.funcs[f]; ok {
		return ps.at(off, p.String())
	}
	return nil
}
