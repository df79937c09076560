package sir

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads one function in the text format Func.String prints (see
// printer.go). Errors carry the line number. The result is not validated;
// call Validate.
func Parse(src string) (*Func, error) {
	p := &parser{regs: map[string]*Reg{}, blocks: map[string]*Block{}}
	return p.parse(src)
}

type parser struct {
	f      *Func
	regs   map[string]*Reg
	blocks map[string]*Block
	line   int
}

func (p *parser) errf(format string, args ...any) error {
	return fmt.Errorf("sir: line %d: %s", p.line, fmt.Sprintf(format, args...))
}

var opByName = func() map[string]Op {
	m := map[string]Op{}
	for i := Op(1); i < numOps; i++ {
		m[ops[i].name] = i
	}
	return m
}()

var fileByName = map[string]File{"temp": FileTemp, "input": FileInput, "const": FileConst, "output": FileOutput}

func (p *parser) parse(src string) (*Func, error) {
	lines := strings.Split(src, "\n")
	// First pass: declare blocks so branches may refer forward.
	type pending struct {
		line int
		text string
		b    *Block
	}
	var instrs []pending
	var cur *Block
	done := false
	for i, raw := range lines {
		p.line = i + 1
		l := strings.TrimSpace(raw)
		if j := strings.Index(l, "//"); j == 0 {
			continue
		}
		switch {
		case l == "":
		case done:
			return nil, p.errf("text after the closing brace")
		case p.f == nil:
			var name string
			var width int
			if _, err := fmt.Sscanf(l, "func %s simd%d {", &name, &width); err != nil {
				return nil, p.errf("want \"func NAME simdW {\", got %q", l)
			}
			p.f = NewFunc(name, width)
		case l == "}":
			done = true
		case strings.HasPrefix(l, "reg "):
			if cur != nil {
				return nil, p.errf("register declaration after the first block")
			}
			if err := p.reg(l[4:]); err != nil {
				return nil, err
			}
		case strings.HasPrefix(l, "sampler "):
			if cur != nil {
				return nil, p.errf("sampler declaration after the first block")
			}
			if err := p.sampler(l[len("sampler "):]); err != nil {
				return nil, err
			}
		case strings.HasSuffix(l, ":") && !strings.HasPrefix(l, "("):
			name, err := unquote(l[:len(l)-1])
			if err != nil {
				return nil, p.errf("block name: %v", err)
			}
			if p.blocks[name] != nil {
				return nil, p.errf("block %s defined twice", name)
			}
			cur = p.f.NewBlock(name)
			p.blocks[name] = cur
		default:
			if cur == nil {
				return nil, p.errf("instruction before the first block")
			}
			instrs = append(instrs, pending{i + 1, l, cur})
		}
	}
	if p.f == nil || !done {
		return nil, fmt.Errorf("sir: missing \"func ... {\" or closing brace")
	}
	for _, pi := range instrs {
		p.line = pi.line
		in, err := p.instr(pi.text)
		if err != nil {
			return nil, err
		}
		pi.b.Instrs = append(pi.b.Instrs, in)
	}
	return p.f, nil
}

func unquote(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		return strconv.Unquote(s)
	}
	if s == "" {
		return "", fmt.Errorf("empty name")
	}
	return s, nil
}

// name splits a possibly quoted name off the front of s.
func splitName(s string) (name, rest string, err error) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return "", "", err
		}
		n, _ := strconv.Unquote(q)
		return n, s[len(q):], nil
	}
	i := 0
	for i < len(s) && s[i] != '.' && s[i] != ' ' && s[i] != ',' {
		i++
	}
	if i == 0 {
		return "", "", fmt.Errorf("missing name in %q", s)
	}
	return s[:i], s[i:], nil
}

func (p *parser) reg(s string) error {
	if !strings.HasPrefix(s, "%") {
		return p.errf("register name must start with %%")
	}
	name, rest, err := splitName(s[1:])
	if err != nil {
		return p.errf("%v", err)
	}
	var bits, comps, elems, width, start int
	var file string
	rest = strings.TrimSpace(rest)
	format := "%dx%d simd%d@%d %s"
	args := []any{&bits, &comps, &width, &start, &file}
	if i := strings.IndexByte(rest, '['); i >= 0 && i < strings.IndexByte(rest+" ", ' ') {
		format = "%dx%d[%d] simd%d@%d %s"
		args = []any{&bits, &comps, &elems, &width, &start, &file}
	}
	if _, err := fmt.Sscanf(rest, format, args...); err != nil {
		return p.errf("register %s: want \"<bits>x<comps>[<slots>] simd<width>@<start> <file>\"", name)
	}
	fl, ok := fileByName[file]
	if !ok {
		return p.errf("register %s: unknown file %q", name, file)
	}
	if p.regs[name] != nil {
		return p.errf("register %s declared twice", name)
	}
	r := p.f.NewReg(name, bits, comps, Group{start, width}, fl)
	r.Elems = elems
	p.regs[name] = r
	return nil
}

func (p *parser) instr(l string) (*Instr, error) {
	var width, start int
	close := strings.IndexByte(l, ')')
	if !strings.HasPrefix(l, "(") || close < 0 {
		return nil, p.errf("instruction must start with its exec range \"(width@start)\"")
	}
	if _, err := fmt.Sscanf(l[1:close], "%d@%d", &width, &start); err != nil {
		return nil, p.errf("bad exec range %q", l[:close+1])
	}
	rest := strings.TrimSpace(l[close+1:])
	mnem, args, _ := strings.Cut(rest, " ")
	opName, condName, _ := strings.Cut(mnem, ".")
	op, ok := opByName[opName]
	if !ok {
		return nil, p.errf("unknown opcode %q", opName)
	}
	in := &Instr{Op: op, Exec: Group{start, width}}
	if condName != "" {
		c := CondNone
		for i, n := range condNames {
			if n == condName && i > 0 {
				c = Cond(i)
			}
		}
		if c == CondNone {
			return nil, p.errf("unknown condition %q", condName)
		}
		in.Cond = c
	}
	var toks []string
	for s := strings.TrimSpace(args); s != ""; {
		// Split on commas outside quotes.
		i, inQ := 0, false
		for ; i < len(s); i++ {
			if s[i] == '"' && (i == 0 || s[i-1] != '\\') {
				inQ = !inQ
			}
			if s[i] == ',' && !inQ {
				break
			}
		}
		toks = append(toks, strings.TrimSpace(s[:i]))
		if i < len(s) {
			i++
		}
		s = strings.TrimSpace(s[i:])
	}
	info := ops[op]
	if info.dst {
		if len(toks) == 0 {
			return nil, p.errf("%s needs a destination", op)
		}
		r, comps, err := p.regRef(toks[0])
		if err != nil {
			return nil, err
		}
		d := &Dst{Reg: r, Mask: r.FullMask()}
		if comps != nil {
			d.Mask = 0
			for _, c := range comps {
				d.Mask |= 1 << c
			}
		}
		in.Dst = d
		toks = toks[1:]
	}
	nsucc := op.numSuccs()
	if len(toks) != info.srcs+nsucc {
		return nil, p.errf("%s takes %d operands and %d targets, has %d", op, info.srcs, nsucc, len(toks))
	}
	for _, t := range toks[:info.srcs] {
		s, err := p.src(t)
		if err != nil {
			return nil, err
		}
		in.Srcs = append(in.Srcs, s)
	}
	for _, t := range toks[info.srcs:] {
		name, err := unquote(t)
		if err != nil {
			return nil, p.errf("branch target: %v", err)
		}
		b := p.blocks[name]
		if b == nil {
			return nil, p.errf("unknown block %s", name)
		}
		in.Succs = append(in.Succs, b)
	}
	return in, nil
}

// regRef parses "%name" or "%name.xyzw" into the register and its
// components (nil when absent).
func (p *parser) regRef(t string) (*Reg, []uint8, error) {
	if !strings.HasPrefix(t, "%") {
		return nil, nil, p.errf("want a register, got %q", t)
	}
	name, rest, err := splitName(t[1:])
	if err != nil {
		return nil, nil, p.errf("%v", err)
	}
	r := p.regs[name]
	if r == nil {
		return nil, nil, p.errf("unknown register %%%s", name)
	}
	if rest == "" {
		return r, nil, nil
	}
	if rest[0] != '.' || len(rest) < 2 || len(rest) > 5 {
		return nil, nil, p.errf("bad component suffix %q", rest)
	}
	var comps []uint8
	for _, c := range rest[1:] {
		k := strings.IndexRune(compLetters, c)
		if k < 0 {
			return nil, nil, p.errf("bad component %q in %q", c, t)
		}
		comps = append(comps, uint8(k))
	}
	return r, comps, nil
}

func (p *parser) src(t string) (Src, error) {
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	switch {
	case t == "true" || t == "false":
		s := Src{ImmBits: 1, Neg: neg}
		if t == "true" {
			s.Imm = 1
		}
		return s, nil
	case strings.HasPrefix(t, "0x"):
		num, bitsText, hasBits := strings.Cut(t[2:], ":")
		v, err := strconv.ParseUint(num, 16, 64)
		if err != nil {
			return Src{}, p.errf("bad immediate %q", t)
		}
		bits := 32
		if hasBits {
			if bits, err = strconv.Atoi(bitsText); err != nil {
				return Src{}, p.errf("bad immediate size in %q", t)
			}
		}
		return Src{Imm: v, ImmBits: bits, Neg: neg}, nil
	}
	elem := 0
	if i := strings.IndexByte(t, '['); i >= 0 && !strings.HasPrefix(t, "%\"") {
		j := strings.IndexByte(t, ']')
		if j < i {
			return Src{}, p.errf("bad slot index in %q", t)
		}
		n, err := strconv.Atoi(t[i+1 : j])
		if err != nil {
			return Src{}, p.errf("bad slot index in %q", t)
		}
		elem, t = n, t[:i]+t[j+1:]
	} else if strings.HasPrefix(t, "%\"") {
		// A quoted name: the slot index follows the closing quote.
		if q := strings.LastIndexByte(t, '"'); q > 0 && q+1 < len(t) && t[q+1] == '[' {
			j := strings.IndexByte(t[q:], ']')
			if j < 0 {
				return Src{}, p.errf("bad slot index in %q", t)
			}
			n, err := strconv.Atoi(t[q+2 : q+j])
			if err != nil {
				return Src{}, p.errf("bad slot index in %q", t)
			}
			elem, t = n, t[:q+1]+t[q+j+1:]
		}
	}
	r, comps, err := p.regRef(t)
	if err != nil {
		return Src{}, err
	}
	return Src{Reg: r, Swizzle: comps, Neg: neg, Elem: elem}, nil
}

// sampler parses "N @texture @state DIM binding B" (printer.go).
func (p *parser) sampler(s string) error {
	var n int
	if _, err := fmt.Sscanf(s, "%d ", &n); err != nil || n != len(p.f.Samplers) {
		return p.errf("sampler %q: want the next pair number %d", s, len(p.f.Samplers))
	}
	_, rest, _ := strings.Cut(s, " ")
	names := make([]string, 2)
	for i := range names {
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, "@") {
			return p.errf("sampler %q: want @texture @state", s)
		}
		name, r, err := splitName(rest[1:])
		if err != nil {
			return p.errf("sampler %q: %v", s, err)
		}
		names[i], rest = name, r
	}
	f := strings.Fields(rest)
	if len(f) != 3 || f[1] != "binding" {
		return p.errf("sampler %q: want DIM binding B after the names", s)
	}
	dims := map[string]SamplerDim{"2d": Sampler2D, "cube": SamplerCube, "volume": SamplerVolume}
	dim, ok := dims[f[0]]
	if !ok {
		return p.errf("sampler %q: dimension %q (2d, cube, volume)", s, f[0])
	}
	b, err := strconv.Atoi(f[2])
	if err != nil {
		return p.errf("sampler %q: binding %q", s, f[2])
	}
	p.f.Samplers = append(p.f.Samplers, &Sampler{Reg: -1, Binding: b, Texture: names[0], State: names[1], Dim: dim})
	return nil
}
