package hlsl

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Declaration parsing: types, structs, typedefs, constant buffers,
// registers and semantics, declarators, initializers and functions.

// parseModifiers parses a run of modifier keywords.
func (p *parser) parseModifiers() Modifiers {
	var m Modifiers
	for p.isModifierAt(0) {
		t := p.advance()
		bit := modifierNames[t.text]
		if m&bit != 0 && bit != ModConst {
			p.rep.warnf(t.pos, t.end(), "duplicate '%s' modifier", t.text)
		}
		m |= bit
	}
	return m
}

// parseAttributes parses one "[...]" attribute group, or one C++11-style
// "[[ns::name(args)]]" (the form of Vulkan's [[vk::binding(0, 1)]]). A
// string literal is allowed as the only argument ([RootSignature("…")]).
func (p *parser) parseAttributes() []*Attribute {
	open := p.advance() // '['
	double := p.at("[")
	if double {
		p.advance()
	}
	name, ok := p.expectIdent("attribute name")
	if !ok {
		p.skipTo("]")
		p.accept("]")
		if double {
			p.accept("]")
		}
		return nil
	}
	a := &Attribute{span: span{open.pos, name.end()}, Name: name.text, NamePos: name.pos}
	if double {
		a.P = name.pos // diagnostics point at "vk::binding", inside the brackets
	}
	if double && p.at("::") {
		p.advance()
		if n, ok := p.expectIdent("attribute name after '::'"); ok {
			a.Namespace, a.Name = name.text, n.text
		}
	}
	if p.at("(") {
		lp := p.advance()
		if p.tok().kind == tString {
			// Adjacent literals concatenate ("a" "b", as a macro spread
			// over lines writes a root signature).
			st := p.tok()
			a.Str = &StringArg{span: span{st.pos, st.end()}}
			for p.tok().kind == tString {
				t := p.advance()
				a.Str.Pieces = append(a.Str.Pieces, StringPiece{Text: t.text, Pos: t.pos})
				a.Str.E = t.end()
			}
		} else if !p.at(")") {
			for {
				a.Args = append(a.Args, p.parseAssign())
				if !p.accept(",") {
					break
				}
			}
		}
		p.expectClose(")", lp)
	}
	a.E = p.prevEnd()
	attrs := []*Attribute{a}
	if p.at(",") && !double {
		// HLSL takes one attribute per bracket pair (unlike C++11's [[a, b]]).
		t := p.tok()
		p.errorf(t.pos, t.end(), "expected ']': write each attribute in its own brackets")
		p.skipTo("]")
		p.accept("]")
		return attrs
	}
	if double {
		for p.accept(",") {
			if more := p.parseDoubleRest(open); more != nil {
				attrs = append(attrs, more)
			}
		}
		if !p.expectClose("]", open) {
			p.skipTo("]")
			p.accept("]")
			return attrs
		}
	}
	p.expectClose("]", open)
	return attrs
}

// parseDoubleRest parses one more "ns::name(args)" of a [[a, b]] list.
func (p *parser) parseDoubleRest(open token) *Attribute {
	name, ok := p.expectIdent("attribute name")
	if !ok {
		return nil
	}
	a := &Attribute{span: span{name.pos, name.end()}, Name: name.text, NamePos: name.pos}
	if p.accept("::") {
		if n, ok := p.expectIdent("attribute name after '::'"); ok {
			a.Namespace, a.Name = name.text, n.text
		}
	}
	if p.at("(") {
		lp := p.advance()
		if !p.at(")") {
			for {
				a.Args = append(a.Args, p.parseAssign())
				if !p.accept(",") {
					break
				}
			}
		}
		p.expectClose(")", lp)
	}
	a.E = p.prevEnd()
	return a
}

// parseTypeSpec parses a type: a (possibly templated) type name or a
// struct definition/reference. Modifiers written before it are handled by
// the caller.
func (p *parser) parseTypeSpec() *TypeSpec {
	t := p.tok()
	ts := &TypeSpec{span: span{t.pos, t.end()}}
	if t.kind == tIdent && isStructKeyword(t.text) {
		p.advance()
		if p.at("{") || p.tok().kind == tIdent && p.peekN(1).is("{") {
			sd := p.parseStructBody(t.text)
			ts.Struct = sd
			ts.Name = sd.Name
		} else if p.tok().kind == tIdent && p.peekN(1).is(":") && !p.peekN(2).is(":") {
			// struct Derived : Base { ... } (struct_decl.go)
			sd := p.parseStructBody(t.text)
			ts.Struct = sd
			ts.Name = sd.Name
		} else if n, ok := p.expectIdent("struct name"); ok {
			ts.Name = n.text
			ts.StructRef = true
		}
		ts.E = p.prevEnd()
		return ts
	}
	if t.text == "signed" {
		// Reserved in HLSL (DXC's ParseDecl.cpp: err_hlsl_reserved_keyword).
		p.errorf(t.pos, t.end(), "'signed' is a reserved keyword in HLSL")
	}
	if t.text == "unsigned" || t.text == "signed" {
		p.advance()
		ts.Name = "int"
		if t.text == "unsigned" {
			ts.Name = "uint"
		}
		// unsigned applies to the integer scalar, vector and matrix
		// shorthands: unsigned int2 is uint2 (DXC's
		// ApplyTypeSpecSignToParsedType); alone it is uint.
		if n := p.tok(); n.kind == tIdent {
			for _, base := range []string{"int", "uint", "dword"} {
				if suffix, ok := strings.CutPrefix(n.text, base); ok && isDimSuffix(suffix) {
					p.advance()
					if t.text == "unsigned" && base != "dword" {
						ts.Name = "uint" + suffix
					}
					break
				}
			}
		}
		ts.E = p.prevEnd()
		return ts
	}
	if !p.isTypeName(t) {
		p.errorf(t.pos, t.end(), "expected a type")
		ts.Name = "<error>"
		return ts
	}
	p.advance()
	ts.Name = t.text
	if p.at("<") && templateTypes(t.text) {
		lt := p.advance()
		saved := p.noGreater
		p.noGreater = true
		for !p.closeAngle() {
			if p.isTypeStart() {
				m := p.parseModifiers()
				a := p.parseTypeSpec()
				a.Mods |= m
				ts.Args = append(ts.Args, a)
			} else {
				ts.Args = append(ts.Args, p.parseConditional())
			}
			if p.accept(",") {
				continue
			}
			if !p.closeAngle() {
				p.errorNotes(p.tok().pos, p.tok().end(), []Diagnostic{note(lt.pos, "to match this '<'")}, "expected '>'")
				break
			}
		}
		p.noGreater = saved
		p.consumeCloseAngle()
	}
	ts.E = p.prevEnd()
	return ts
}

// isDimSuffix reports whether s is "", "N" or "NxM" with N, M in 1..4
// (the suffix of a vector or matrix shorthand such as int3 or int2x4).
func isDimSuffix(s string) bool {
	dim := func(b byte) bool { return b >= '1' && b <= '4' }
	switch len(s) {
	case 0:
		return true
	case 1:
		return dim(s[0])
	case 3:
		return dim(s[0]) && s[1] == 'x' && dim(s[2])
	}
	return false
}

// templateTypes reports whether a type name takes template arguments.
func templateTypes(name string) bool {
	if name == "vector" || name == "matrix" {
		return true
	}
	if _, ok := resourceByName[name]; ok {
		return true
	}
	_, ok := unsupportedObjects[name]
	return ok
}

// closeAngle reports whether the current token closes a template argument
// list ('>' or the first half of '>>').
func (p *parser) closeAngle() bool {
	return p.at(">") || p.at(">>") || p.at(">=") || p.at(">>=") || p.tok().kind == tEOF
}

// consumeCloseAngle consumes one '>' splitting '>>' and '>=' as needed.
func (p *parser) consumeCloseAngle() {
	t := p.tok()
	if t.kind != tPunct || !strings.HasPrefix(t.text, ">") {
		return
	}
	if t.text == ">" {
		p.advance()
		return
	}
	rest := t
	rest.text = t.text[1:]
	rest.pos = t.pos.advance(1)
	p.setTok(rest)
}

// parseStructBody parses "[name] { fields }" after 'struct'.
func (p *parser) parseStructBody(kw string) *StructDecl {
	sd := &StructDecl{span: span{p.tok().pos, p.tok().pos}}
	if p.tok().kind == tIdent {
		n := p.advance()
		sd.Name = n.text
		sd.P = n.pos
		p.declareType(n.text)
	}
	sd.IsClass = kw == "class"
	if p.at(":") {
		p.parseStructBase(sd)
	}
	open := p.advance() // '{'
	p.depth++
	defer func() { p.depth-- }()
	for !p.at("}") && p.tok().kind != tEOF && !p.rep.stopped() {
		start := p.i
		p.parseFields(sd)
		if p.panicking {
			p.skipTo(";", "}")
			p.accept(";")
		}
		if p.i == start {
			p.advance()
		}
	}
	p.expectClose("}", open)
	sd.E = p.prevEnd()
	return sd
}

// parseFields parses one member declaration line of a struct.
func (p *parser) parseFields(sd *StructDecl) {
	if p.accept(";") {
		return
	}
	for p.at("[") {
		// Member attributes ([[vk::location(n)]], [[vk::offset(n)]]) are
		// outside the subset: struct members keep the default layout and
		// locations.
		for _, a := range p.parseAttributes() {
			p.rep.warnf(a.P, a.E, "attribute '%s' ignored on a struct member", a.FullName())
		}
	}
	mods := p.parseModifiers()
	if !p.isTypeStart() {
		t := p.tok()
		p.errorf(t.pos, t.end(), "expected a type for struct member")
		return
	}
	spec := p.parseTypeSpec()
	spec.Mods |= mods & (ModRowMajor | ModColumnMajor | ModConst | ModUnorm | ModSnorm)
	mods |= p.parseModifiers()
	if spec.Struct != nil && spec.Struct.Name != "" && p.at(";") {
		p.rep.warnf(spec.P, spec.E, "declaration does not declare anything")
	}
	for {
		n, ok := p.expectIdent("member name")
		if !ok {
			return
		}
		if p.at("(") {
			p.parseMethod(sd, mods, spec, n)
			return
		}
		f := &Field{span: span{n.pos, n.end()}, Name: n.text, Spec: spec, Mods: mods, Index: len(sd.Fields)}
		f.Dims = p.parseDims()
		for p.at(":") {
			p.advance()
			if sem := p.parseSemanticName(); sem != nil {
				f.Semantic = sem
			}
		}
		if p.at("=") {
			t := p.advance()
			p.parseInitializer()
			p.rep.warnf(t.pos, t.end(), "struct member initializers are ignored")
		}
		f.E = p.prevEnd()
		sd.Fields = append(sd.Fields, f)
		if !p.accept(",") {
			break
		}
	}
	p.expect(";", " at end of declaration list")
}

// parseDims parses array dimensions "[N][M]"; an empty "[]" gives nil.
func (p *parser) parseDims() []Expr {
	var dims []Expr
	for p.at("[") {
		open := p.advance()
		if p.at("]") {
			p.advance()
			dims = append(dims, nil)
			continue
		}
		dims = append(dims, p.parseExpr())
		p.expectClose("]", open)
	}
	return dims
}

// parseSemanticName parses a semantic name after ':'.
func (p *parser) parseSemanticName() *Semantic {
	t, ok := p.expectIdent("semantic")
	if !ok {
		return nil
	}
	return makeSemantic(t)
}

func makeSemantic(t token) *Semantic {
	s := &Semantic{span: span{t.pos, t.end()}, Name: t.text}
	name := t.text
	j := len(name)
	for j > 0 && isDigit(int(name[j-1])) {
		j--
	}
	s.Base = strings.ToUpper(name[:j])
	if j < len(name) && len(name)-j <= 6 {
		fmt.Sscanf(name[j:], "%d", &s.Index)
	}
	return s
}

// parseTypedef parses "typedef [mods] type name[dims] {, name[dims]};".
func (p *parser) parseTypedef() []*TypedefDecl {
	kw := p.advance()
	mods := p.parseModifiers()
	if !p.isTypeStart() {
		p.errorf(p.tok().pos, p.tok().end(), "expected a type")
		return nil
	}
	spec := p.parseTypeSpec()
	spec.Mods |= mods | p.parseModifiers()
	var tds []*TypedefDecl
	for {
		n, ok := p.expectIdent("typedef name")
		if !ok {
			return tds
		}
		td := &TypedefDecl{span: span{kw.pos, n.end()}, Name: n.text, Spec: spec}
		td.Dims = p.parseDims()
		p.declareType(n.text)
		tds = append(tds, td)
		if !p.accept(",") {
			break
		}
	}
	p.expect(";", " after typedef")
	return tds
}

// parseCBuffer parses "cbuffer name [: register(bN)] { decls } [;]".
func (p *parser) parseCBuffer() Decl {
	kw := p.advance()
	cb := &CBuffer{span: span{kw.pos, kw.end()}}
	n, ok := p.expectIdent("constant buffer name")
	if !ok {
		return nil
	}
	cb.Name = n.text
	for p.accept(":") {
		p.parseRegisterLike(&cb.Register, nil, nil)
	}
	open := p.tok()
	if !p.expect("{", " to start constant buffer") {
		return nil
	}
	for !p.at("}") && p.tok().kind != tEOF && !p.rep.stopped() {
		start := p.i
		if p.accept(";") {
			continue
		}
		mods := p.parseModifiers()
		if !p.isTypeStart() {
			p.errorf(p.tok().pos, p.tok().end(), "expected a declaration in constant buffer")
		} else {
			spec := p.parseTypeSpec()
			mods |= p.parseModifiers()
			if spec.Struct != nil && p.at(";") {
				p.errorf(spec.P, spec.E, "struct definitions are not allowed in a constant buffer")
			} else if name, ok := p.expectIdent("member name"); ok {
				vars := p.parseDeclarators(mods, spec, name, VarBufferField)
				for _, v := range vars {
					v.Buffer = cb
				}
				cb.Members = append(cb.Members, vars...)
				p.expect(";", " at end of declaration")
			}
		}
		if p.panicking {
			p.skipTo(";", "}")
			p.accept(";")
		}
		if p.i == start {
			p.advance()
		}
	}
	p.expectClose("}", open)
	p.accept(";")
	cb.E = p.prevEnd()
	return cb
}

// parseRegisterLike parses what follows ':' on a global: register(...),
// packoffset(...) or a semantic.
func (p *parser) parseRegisterLike(reg **Register, po **PackOffset, sem **Semantic) {
	t := p.tok()
	switch {
	case t.kind == tIdent && t.text == "register":
		p.advance()
		open := p.tok()
		if !p.expect("(", " after 'register'") {
			return
		}
		r := &Register{span: span{t.pos, t.end()}}
		parts := [][]token{}
		var cur []token
		for !p.at(")") && p.tok().kind != tEOF && !p.at(";") {
			x := p.advance()
			if x.is(",") {
				parts = append(parts, cur)
				cur = nil
				continue
			}
			cur = append(cur, x)
		}
		parts = append(parts, cur)
		p.expectClose(")", open)
		r.E = p.prevEnd()
		if p.fillRegister(r, parts) {
			if prev := *reg; prev != nil && !p.compatibleRegisters(prev, r) {
				return
			}
			*reg = r
		}
	case t.kind == tIdent && t.text == "packoffset":
		p.advance()
		open := p.tok()
		if !p.expect("(", " after 'packoffset'") {
			return
		}
		o := &PackOffset{span: span{t.pos, t.end()}}
		x, _ := p.expectIdent("constant register")
		if n, ok := parseRegisterNumber(x.text, 'c'); ok {
			o.Register = n
		} else {
			p.errorf(x.pos, x.end(), "invalid packoffset register '%s'", x.text)
		}
		if p.accept(".") {
			c, _ := p.expectIdent("component")
			idx := -1
			if len(c.text) == 1 {
				idx = strings.IndexByte("xyzw", c.text[0])
				if idx < 0 {
					idx = strings.IndexByte("rgba", c.text[0])
				}
			}
			if idx < 0 {
				p.errorf(c.pos, c.end(), "invalid packoffset component '%s'", c.text)
			}
			o.Component = max(idx, 0)
		}
		p.expectClose(")", open)
		o.E = p.prevEnd()
		if po != nil {
			*po = o
		} else {
			p.rep.errorf(o.P, o.E, "packoffset is only allowed in a constant buffer")
		}
	default:
		s := p.parseSemanticName()
		if sem != nil && s != nil {
			*sem = s
		}
	}
}

// parseRegisterNumber parses "c12" (any case) as register 12 of class.
func parseRegisterNumber(text string, class byte) (int, bool) {
	if len(text) < 2 || text[0]|0x20 != class {
		return 0, false
	}
	n := 0
	for i := 1; i < len(text); i++ {
		if !isDigit(int(text[i])) || n > 1<<20 {
			return 0, false
		}
		n = n*10 + int(text[i]-'0')
	}
	return n, true
}

// fillRegister interprets register([profile,] bN [, spaceM]) operands and
// reports whether they are valid. Register and space numbers are decimal
// and must fit in 32 bits (SPIR-V bindings and DXIL ranges are 32-bit):
// "u-1", "space", "space-5" or "u99999999999" are errors, not numbers
// taken modulo 2^32. The errors do not stop parsing: the declaration is
// well formed, only its operands are wrong.
func (p *parser) fillRegister(r *Register, parts [][]token) bool {
	spell := func(ts []token) string {
		text := ""
		for _, x := range ts {
			text += x.text
		}
		return text
	}
	var regs [][]token
	spaced := false
	for _, part := range parts {
		if len(part) == 0 {
			p.rep.errorf(r.P, r.E, "expected register")
			return false
		}
		if part[0].kind == tIdent && strings.HasPrefix(part[0].text, "space") {
			text := spell(part)
			n, ok := registerNumber(text[len("space"):])
			if !ok {
				p.rep.errorf(part[0].pos, part[len(part)-1].end(), "invalid register space '%s': expected 'space' and a number from 0 to %d", text, uint32(math.MaxUint32))
				return false
			}
			r.Space, spaced = n, true
			continue
		}
		if spaced {
			// register(space0, t1): DXC wants the space last.
			p.rep.errorf(part[0].pos, part[len(part)-1].end(), "the register space must follow the register in register()")
			return false
		}
		regs = append(regs, part)
	}
	if spaced && (len(regs) == 0 || len(regs) == 1 && len(regs[0]) == 1 && registerProfile.MatchString(regs[0][0].text)) {
		// register(space0) and register(ps, space0): a space without a
		// register, which SM6 accepts; the register is then allocated.
		return false
	}
	if len(regs) == 2 && len(regs[0]) == 1 && regs[0][0].kind == tIdent && !registerProfile.MatchString(regs[0][0].text) {
		p.rep.errorf(regs[0][0].pos, regs[0][0].end(), "invalid shader profile '%s' in register(): expected a profile name such as 'ps' or 'ps_5_0'", regs[0][0].text)
		return false
	}
	if len(regs) == 2 {
		r.Profile = regs[0][0].text
		if len(regs[0]) != 1 || regs[0][0].kind != tIdent {
			// FXC ignores "ps[5]"; DXC rejects it
			// (register-reservations-profile.shader_test).
			p.rep.errorf(regs[0][0].pos, regs[0][len(regs[0])-1].end(), "invalid shader profile '%s' in register(): expected a profile name such as 'ps' or 'ps_5_0'", spell(regs[0]))
			return false
		}
		regs = regs[1:]
	}
	if len(regs) != 1 {
		p.rep.errorf(r.P, r.E, "invalid register specification")
		return false
	}
	reg := regs[0]
	text := spell(reg)
	at, end := reg[0].pos, reg[len(reg)-1].end()
	// DXC's ParseRegisterNumberForHLSL: the class is one of b, c, i, s, t,
	// u, and "it's valid to omit the register number" (register 0).
	if strings.IndexByte("bcistuBCISTU", text[0]) < 0 {
		p.rep.errorf(at, end, "invalid register '%s': expected b, t, u, s, c or i and a number", text)
		return false
	}
	r.Class = text[0] | 0x20
	num := text[1:]
	if i := strings.IndexByte(num, '['); i >= 0 && strings.Trim(num[:i], "0123456789") == "" {
		// A number (or none) and a bracket: an offset; registerShift
		// reports a bracket that is not closed.
		num = num[:i]
		if !p.registerShift(r, reg) {
			return false
		}
		if num == "" {
			num = "0" // register(t[1]): register 0, shifted
		}
	}
	n, ok := registerNumber(num)
	if num == "" {
		n, ok = 0, true
	}
	if !ok {
		p.rep.errorf(at, end, "invalid register '%s': expected '%c' and a number from 0 to %d", text, text[0], uint32(math.MaxUint32))
		return false
	}
	r.Index = n
	return true
}

// registerProfile is the shader profile of register(profile, ...): a
// stage (lower case, as DXC requires) and an optional version.
var registerProfile = regexp.MustCompile(`^(vs|ps|cs|gs|hs|ds|lib|as|ms)(_[0-9]+(_[0-9x]+)?)?$`)

// compatibleRegisters checks a second register() of one declaration: the
// same profile (or none twice) must name the same register, and a
// register() without a profile cannot be combined with profile-specific
// ones (DXC at SM6; register-reservations-profile.shader_test).
func (p *parser) compatibleRegisters(prev, r *Register) bool {
	switch {
	case (prev.Profile == "") != (r.Profile == ""):
		p.rep.errorf(r.P, r.E, "register() without a shader profile cannot be combined with profile-specific register() reservations")
		return false
	case prev.Profile == "" && r.Profile == "" && prev.Class != r.Class && prev.class(r.Class) == nil:
		// One register per class: a struct holding resources of several
		// classes (checkStorage rejects it on anything else).
		prev.Also = append(prev.Also, r)
		return false
	case prev.Profile == r.Profile && (prev.Class != r.Class || prev.Index != r.Index || prev.Space != r.Space):
		what := "the same declaration"
		if r.Profile != "" {
			what = "profile '" + r.Profile + "'"
		}
		p.rep.errorf(r.P, r.E, "conflicting register reservations for %s", what)
		return false
	}
	return true
}

// registerNumber parses a register or space number: decimal digits only,
// at most 2^32-1.
func registerNumber(s string) (int, bool) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 32)
	return int(n), err == nil
}

// registerShift evaluates the bracketed constant of register(cN[k])
// (an integer expression, possibly negative) into r.Shift.
func (p *parser) registerShift(r *Register, reg []token) bool {
	open := -1
	for i, x := range reg {
		if x.is("[") {
			open = i
			break
		}
	}
	last := reg[len(reg)-1]
	if open < 0 || !last.is("]") || open+1 >= len(reg)-1 {
		p.errorf(reg[0].pos, last.end(), "invalid register offset: expected register(cN[constant])")
		return false
	}
	e := &ppExpr{p: &preprocessor{rep: p.rep}, ts: reg[open+1 : len(reg)-1], at: reg[open]}
	v := e.ternary()
	if e.fail {
		return false
	}
	if e.i < len(e.ts) {
		x := e.ts[e.i]
		p.errorf(x.pos, x.end(), "invalid register offset: expected a constant integer expression")
		return false
	}
	r.Shift = int(v.v)
	return true
}

// parseDeclarators parses "name [dims] [: ...] [= init] {, name ...}" for
// variables; the first name is already consumed.
func (p *parser) parseDeclarators(mods Modifiers, spec *TypeSpec, name token, kind VarKind) []*VarDecl {
	var vars []*VarDecl
	for {
		v := &VarDecl{span: span{spec.P, name.end()}, Name: name.text, NamePos: name.pos, Spec: spec, Mods: mods, Kind: kind}
		if spec.Struct != nil && spec.Struct.Name == "" {
			v.P = name.pos
		}
		v.Dims = p.parseDims()
		for done := false; !done && !p.panicking; {
			switch {
			case p.accept(":"):
				var po **PackOffset
				if kind == VarBufferField {
					po = &v.PackOffset
				}
				p.parseRegisterLike(&v.Register, po, &v.Semantic)
			case p.at("<"): // effect annotations: skipped
				p.skipAnnotations()
			case p.accept("="):
				if p.atIdent("sampler_state") && p.peekN(1).is("{") {
					// An SM1 "sampler s = sampler_state { ... };": an
					// effect state block, which DXC parses and ignores.
					p.advance()
					p.skipStateBlock()
					done = true
					break
				}
				v.Init = p.parseInitializer()
				done = true
			case p.at("{"):
				// A legacy effect state block: "float f { state = value; };".
				// DXC parses and ignores it.
				p.skipStateBlock()
				done = true
			default:
				done = true
			}
		}
		v.E = p.prevEnd()
		p.declareValue(name.text)
		vars = append(vars, v)
		if !p.accept(",") {
			break
		}
		n, ok := p.expectIdent("identifier")
		if !ok {
			break
		}
		name = n
	}
	return vars
}

// skipStateBlock skips a balanced "{ ... }" state block.
func (p *parser) skipStateBlock() {
	depth := 0
	for p.tok().kind != tEOF {
		t := p.advance()
		if t.is("{") {
			depth++
		} else if t.is("}") {
			depth--
			if depth == 0 {
				return
			}
		}
	}
}

func (p *parser) skipAnnotations() {
	open := p.advance()
	for !p.at(">") && p.tok().kind != tEOF && !p.at(";") {
		p.advance()
	}
	p.expectClose(">", open)
}

// parseInitializer parses an expression or a brace initializer list.
func (p *parser) parseInitializer() Expr {
	if !p.at("{") {
		return p.parseAssign()
	}
	open := p.advance()
	il := &InitList{}
	il.P = open.pos
	if p.depth++; p.depth > maxNesting {
		p.errorf(open.pos, open.end(), "initializer nested too deeply")
		p.depth--
		p.skipTo("}")
		p.accept("}")
		return il
	}
	defer func() { p.depth-- }()
	for !p.at("}") && p.tok().kind != tEOF {
		il.Elems = append(il.Elems, p.parseInitializer())
		if p.panicking {
			break
		}
		if !p.accept(",") {
			break
		}
	}
	p.expectClose("}", open)
	il.E = p.prevEnd()
	return il
}

// parseFunction parses a function after its name, up to its body or ';'.
func (p *parser) parseFunction(attrs []*Attribute, mods Modifiers, ret *TypeSpec, name token, start Pos) Decl {
	f := &FuncDecl{span: span{start, name.end()}, Name: name.text, NamePos: name.pos, RetSpec: ret, Attrs: attrs, Mods: mods}
	open := p.advance() // '('
	p.pushScope()
	defer p.popScope()
	if p.atIdent("void") && p.peekN(1).is(")") {
		p.advance()
	}
	for !p.at(")") && p.tok().kind != tEOF {
		prm := p.parseParam()
		if prm == nil {
			break
		}
		f.Params = append(f.Params, prm)
		if !p.accept(",") {
			break
		}
	}
	p.expectClose(")", open)
	for p.accept(":") {
		var reg *Register
		p.parseRegisterLike(&reg, nil, &f.RetSemantic)
	}
	f.E = p.prevEnd()
	if p.accept(";") {
		return f
	}
	if !p.at("{") {
		p.errorf(p.prevEnd(), p.prevEnd(), "expected function body after function declarator")
		return f
	}
	f.Body = p.parseBlock()
	return f
}

// parseParam parses one parameter declaration.
func (p *parser) parseParam() *VarDecl {
	var attrs []*Attribute
	for p.at("[") {
		attrs = append(attrs, p.parseAttributes()...)
	}
	start := p.tok().pos
	mods := p.parseModifiers()
	if t := p.tok(); t.kind == tIdent && geometryParamKeywords[t.text] {
		p.errorf(t.pos, t.end(), "geometry shader primitive type '%s' is not supported", t.text)
		p.advance()
	}
	if !p.isTypeStart() {
		t := p.tok()
		if t.kind == tIdent && !isKeyword(t.text) {
			p.errorf(t.pos, t.end(), "unknown type name '%s'", t.text)
		} else {
			p.errorf(t.pos, t.end(), "expected parameter declarator")
		}
		p.skipTo(",", ")")
		return nil
	}
	spec := p.parseTypeSpec()
	mods |= p.parseModifiers()
	v := &VarDecl{span: span{start, p.prevEnd()}, Spec: spec, Mods: mods, Kind: VarParam, Attrs: attrs}
	switch {
	case mods&ModInOut != 0 || mods&ModIn != 0 && mods&ModOut != 0:
		v.Dir = DirInOut
	case mods&ModOut != 0:
		v.Dir = DirOut
	}
	if t := p.tok(); t.kind == tIdent && !isKeyword(t.text) {
		p.advance()
		v.Name, v.NamePos = t.text, t.pos
		p.declareValue(t.text)
	} else {
		v.NamePos = p.tok().pos
	}
	v.Dims = p.parseDims()
	for p.accept(":") {
		p.parseRegisterLike(&v.Register, nil, &v.Semantic)
	}
	if p.accept("=") {
		v.Init = p.parseAssign()
	}
	v.E = p.prevEnd()
	return v
}

var geometryParamKeywords = map[string]bool{
	"point": true, "line": true, "triangle": true, "lineadj": true, "triangleadj": true,
	"vertices": true, "indices": true, "primitives": true, "payload": true,
}
