package llvm

import (
	"fmt"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// Error is an import error at a source position. Msg starts with
// "unsupported" when the input is valid LLVM IR outside the subset.
type Error struct {
	File      string
	Line, Col int
	Msg       string
	fatal     bool // an error in the input itself: no opaque fallback
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg) }

// The parser builds a small syntax tree (this file) that lower.go turns
// into passlens IR; two phases because LLVM allows forward references to
// functions, blocks and (in phis and unstructured code) values.

type modAST struct {
	structs    map[string]*llType // %T = type { ... }
	structTok  map[string]token
	structList []string
	globals    []*globalAST
	funcs      []*funcAST
	attrGroups map[string]map[string]bool
}

// mdInts reads metadata node !id as a tuple of integers (`!{i32 64, i32 1,
// i32 1}`), lexing the source again where the definition starts (defs);
// ok is false when there is no such definition or it holds anything else.
func mdInts(src []byte, s string, defs map[string]lexState, id string) (vals []int64, ok bool) {
	st, found := defs[id]
	if !found {
		return nil, false
	}
	ts := newTokStream(src, s, st)
	at := ts.at
	i := 0
	// !id = !{ ... } (possibly "distinct !{").
	i++
	if t := at(i); t.kind != tPunct || t.text != "=" {
		return nil, false
	}
	i++
	if t := at(i); t.kind == tIdent && t.text == "distinct" {
		i++
	}
	if t := at(i); t.kind != tMeta || t.text != "" {
		return nil, false
	}
	i++
	if t := at(i); t.kind != tPunct || t.text != "{" {
		return nil, false
	}
	i++
	for {
		t := at(i)
		if t.kind == tPunct && t.text == "}" {
			return vals, true
		}
		if t.kind != tIdent || !strings.HasPrefix(t.text, "i") {
			return nil, false
		}
		n := at(i + 1)
		if n.kind != tInt {
			return nil, false
		}
		v, err := strconv.ParseInt(n.text, 10, 64)
		if err != nil {
			return nil, false
		}
		vals = append(vals, v)
		i += 2
		if t := at(i); t.kind == tPunct && t.text == "," {
			i++
		}
	}
}

type globalAST struct {
	tok      token
	name     string
	as       int
	constant bool
	ty       *llType
	init     *valRef // nil: external
	alias    bool    // alias or ifunc: ty is the pointer type
}

type funcAST struct {
	tok    token
	name   string
	cc     string
	ret    *llType
	params []*paramAST
	attrs  map[string]bool // inline function attributes
	refs   []token         // #N attribute group references
	isDecl bool
	blocks []*blockAST
	// insts are the body's instructions in layout order (stubs.go); each
	// block ends at its end index. ptrDefs, ptrUses and ptrFlows are the
	// facts pointee inference reads (dropped once it ran).
	insts                      stubList
	ptrDefs, ptrUses, ptrFlows []ptrFact
	varargs                    bool
	// workGroupSize is the function's !reqd_work_group_size (x, y, z),
	// or zero when it has none.
	workGroupSize [3]int
	reqdWG        string // the node id of !reqd_work_group_size, until resolved
}

type paramAST struct {
	tok     token // the name, or the type when unnamed
	typeTok token
	ty      *llType
	name    string
	numeric bool
	attrs   map[string]bool
}

// blockAST is a block of a body: its label (name, position; none for the
// implicit entry block, whose position is its first instruction's) and
// where its instructions end in funcAST.insts (they start where the
// previous block's end).
type blockAST struct {
	name      string
	line, col int32
	end       int32
	numeric   bool
}

// tok is the block's label position, for messages.
func (b *blockAST) tok() token { return token{text: b.name, kind: tLabel, line: b.line, col: b.col} }

type valKind uint8

const (
	vLocal valKind = iota
	vGlobal
	vInt
	vFloat
	vTrue
	vFalse
	vNull
	vUndef
	vPoison
	vZero
	vAgg // <...>, [...], {...}
	vSplat
	vExpr   // constant expression: text is the opcode, elems its operands
	vString // c"..." (text holds the bytes)
	vNone   // token none
	vMeta   // a metadata operand (dropped by the lowering)
)

type valRef struct {
	tok     token
	text    string // name or literal text
	elems   []typedVal
	kind    valKind
	numeric bool
}

type typedVal struct {
	ty *llType
	v  valRef
}

type phiIn struct {
	v     valRef
	block token
}

type caseAST struct {
	val    valRef
	target token
}

type instAST struct {
	tok      token // opcode
	name     string
	nameTok  token
	numeric  bool
	named    bool // written as "%x = ..."
	op       string
	ty       *llType // result / element / destination type, by opcode
	pred     string
	args     []typedVal
	phis     []phiIn
	targets  []token // br: [dst] or [then, else]; switch: [default]
	cases    []caseAST
	idx      []int
	call     *callAST // call, invoke, callbr (nil otherwise; read through c())
	volatile bool
	atomicOp string
	atomic   bool      // load atomic / store atomic
	count    *typedVal // alloca element count
	// span is where the instruction is in the source: its first token
	// (the %name of "%x = ...") and the line of its last token (listing.go).
	span srcSpan
	// pre is the IR instruction created for a value-producing instruction
	// before the body is lowered (uses may precede definitions). A field,
	// not a map of every instruction of the function: on a 450k-instruction
	// function that map cost tens of MB at the import's peak; the field
	// fits in the struct's allocation size class (312 → 320 bytes).
	pre *ir.Instr
}

// callAST holds what only calls have, out of instAST so that the syntax
// tree of the other instructions stays small (large modules).
type callAST struct {
	callee    valRef
	calleeTok token
	asm       *asmAST    // call/callbr of inline asm
	bundles   []typedVal // operand bundle operands ("convergencectrl"(token %t), ...)
	explicitT bool       // call with an explicit function type (varargs)
}

// noCall is what c() returns for instructions that are not calls.
var noCall callAST

// c returns the call part of in (the zero callAST when in is no call).
func (in *instAST) c() *callAST {
	if in.call == nil {
		return &noCall
	}
	return in.call
}

// asmAST is the callee of an inline-asm call.
type asmAST struct {
	tok         token
	text        string
	constraints string
	sideEffect  bool
}

type parser struct {
	file  string
	ts    *tokStream // tokens on demand (pos is an index into it)
	pos   int
	depth int // nesting of types and constants (nesting.go)
	// scratch is the node parseInstr fills (one instruction at a time).
	scratch instAST
}

func (p *parser) tok() token { return p.ts.at(p.pos) }

func (p *parser) peekAt(n int) token { return p.ts.at(p.pos + n) }

func (p *parser) isIdent(s string) bool {
	t := p.tok()
	return t.kind == tIdent && t.text == s
}

func (p *parser) isPunct(s string) bool {
	t := p.tok()
	return t.kind == tPunct && t.text == s
}

func (p *parser) errAt(t token, format string, args ...any) error {
	return &Error{File: p.file, Line: int(t.line), Col: int(t.col), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) expectPunct(s string) error {
	if !p.isPunct(s) {
		return p.errAt(p.tok(), "expected '%s', found %s", s, p.tok())
	}
	p.pos++
	return nil
}

func (p *parser) expectIdent(s string) error {
	if !p.isIdent(s) {
		return p.errAt(p.tok(), "expected '%s', found %s", s, p.tok())
	}
	p.pos++
	return nil
}

// skipBalanced skips tokens up to and including the bracket closing the
// one at the cursor.
func (p *parser) skipBalanced() error {
	open := p.tok()
	depth := 0
	for {
		t := p.tok()
		if t.kind == tEOF {
			return p.errAt(open, "unbalanced '%s'", open.text)
		}
		if t.kind == tPunct {
			switch t.text {
			case "(", "[", "{", "<":
				depth++
			case ")", "]", "}", ">":
				depth--
			}
		}
		p.pos++
		if depth == 0 {
			return nil
		}
	}
}

// atTopLevelStart reports whether the cursor is at something that starts a
// module-level entity, used to skip metadata definitions.
func (p *parser) atTopLevelStart() bool {
	t := p.tok()
	switch t.kind {
	case tEOF, tGlobal:
		return true
	case tMeta:
		return t.col == 1
	case tIdent:
		switch t.text {
		case "define", "declare", "attributes", "target", "source_filename", "module", "uselistorder", "uselistorder_bb":
			return true
		}
	case tLocal:
		return t.col == 1
	case tPunct:
		return t.text == "^" && t.col == 1
	}
	if t.kind == tIdent && t.col == 1 && strings.HasPrefix(t.text, "$") {
		return true
	}
	return false
}

// skipToTopLevel skips the current token and everything up to the next
// module-level entity.
func (p *parser) skipToTopLevel() {
	p.pos++
	for !p.atTopLevelStart() {
		p.pos++
	}
}

// parseModule parses src (s is src as a string: names are its substrings).
// Tokens are lexed as the parser reaches them (tokstream.go); a lexical
// error anywhere in the file is reported in preference to a parse error,
// as when the file was lexed before parsing.
func parseModule(file string, src []byte, s string) (*modAST, error) {
	p := &parser{file: file, ts: newTokStream(src, s, startOfFile)}
	m, err := p.parseModule(src, s)
	if lerr := p.ts.finish(); lerr != nil {
		return nil, &Error{File: file, Line: int(lerr.line), Col: int(lerr.col), Msg: lerr.msg}
	}
	return m, err
}

func (p *parser) parseModule(src []byte, s string) (*modAST, error) {
	mdDefs := map[string]lexState{}
	m := &modAST{structs: map[string]*llType{}, structTok: map[string]token{}, attrGroups: map[string]map[string]bool{}}
	for p.tok().kind != tEOF {
		p.ts.release(p.pos)
		t := p.tok()
		switch {
		case t.kind == tIdent && (t.text == "target" || t.text == "source_filename"):
			// target triple = "...", target datalayout = "...", source_filename = "..."
			p.pos++
			for p.tok().kind != tEOF && !p.isPunct("=") {
				p.pos++
			}
			p.pos++
			if p.tok().kind == tString {
				p.pos++
			}
		case t.kind == tIdent && t.text == "attributes":
			if err := p.parseAttrGroup(m); err != nil {
				return nil, err
			}
		case t.kind == tIdent && (t.text == "define" || t.text == "declare"):
			f, err := p.parseFunction()
			if err != nil {
				return nil, err
			}
			m.funcs = append(m.funcs, f)
		case t.kind == tMeta:
			// Metadata definitions (!0 = !{...}, !llvm.module.flags = ...):
			// skipped, their positions kept for !reqd_work_group_size.
			mdDefs[t.text] = stateOf(t)
			p.pos++
			for !p.atTopLevelStart() {
				p.pos++
			}
		case t.kind == tLocal:
			if err := p.parseTypeDef(m); err != nil {
				return nil, err
			}
		case t.kind == tGlobal:
			g, err := p.parseGlobal()
			if err != nil {
				return nil, err
			}
			m.globals = append(m.globals, g)
		case t.kind == tIdent && (t.text == "module" || t.text == "uselistorder" || t.text == "uselistorder_bb" || strings.HasPrefix(t.text, "$")),
			t.kind == tPunct && t.text == "^":
			// module asm, use-list orders, comdats and summary entries do
			// not matter to passlens.
			p.skipToTopLevel()
		default:
			return nil, p.errAt(t, "expected a top-level entity (define, declare, a global, a type or attributes), found %s", t)
		}
	}
	for _, f := range m.funcs {
		if f.reqdWG == "" {
			continue
		}
		if v, ok := mdInts(src, s, mdDefs, f.reqdWG); ok && len(v) == 3 && v[0] > 0 && v[1] > 0 && v[2] > 0 && v[0]*v[1]*v[2] <= 1024 {
			f.workGroupSize = [3]int{int(v[0]), int(v[1]), int(v[2])}
		}
		f.reqdWG = ""
	}
	return m, nil
}

// parseAttrGroup reads "attributes #N = { ... }", keeping bare words and
// key=value strings.
func (p *parser) parseAttrGroup(m *modAST) error {
	p.pos++
	ref := p.tok()
	if ref.kind != tAttrRef {
		return p.errAt(ref, "expected '#N' after 'attributes', found %s", ref)
	}
	p.pos++
	if err := p.expectPunct("="); err != nil {
		return err
	}
	if !p.isPunct("{") {
		return p.errAt(p.tok(), "expected '{', found %s", p.tok())
	}
	open := p.tok()
	p.pos++
	set := map[string]bool{}
	for !p.isPunct("}") {
		t := p.tok()
		switch {
		case t.kind == tEOF:
			return p.errAt(open, "unterminated attribute group")
		case t.kind == tIdent:
			word := t.text
			p.pos++
			if p.isPunct("(") {
				start := p.pos
				if err := p.skipBalanced(); err != nil {
					return err
				}
				var parts []string
				for _, x := range p.ts.span(start, p.pos) {
					parts = append(parts, x.text)
				}
				word += strings.Join(parts, "")
			}
			set[word] = true
		case t.kind == tString:
			p.pos++
			if p.isPunct("=") {
				p.pos += 2
			}
			set[t.text] = true
		default:
			p.pos++
		}
	}
	p.pos++
	m.attrGroups[ref.text] = set
	return nil
}

// parseTypeDef reads "%T = type { ... }" (or "= type opaque").
func (p *parser) parseTypeDef(m *modAST) error {
	nameTok := p.tok()
	p.pos++
	if err := p.expectPunct("="); err != nil {
		return err
	}
	if err := p.expectIdent("type"); err != nil {
		return err
	}
	var t *llType
	if p.isIdent("opaque") {
		// An opaque struct: an empty passlens struct of the same name.
		p.pos++
		t = &llType{kind: lkStruct}
	} else {
		var err error
		if t, err = p.parseType(); err != nil {
			return err
		}
	}
	if t.kind != lkStruct || t.name != "" {
		return p.errAt(nameTok, "unsupported type alias %%%s (only named structs are supported)", nameTok.text)
	}
	if _, dup := m.structs[nameTok.text]; dup {
		return p.errAt(nameTok, "redefinition of type %%%s", nameTok.text)
	}
	m.structs[nameTok.text] = t
	m.structTok[nameTok.text] = nameTok
	m.structList = append(m.structList, nameTok.text)
	return nil
}

// linkage and visibility words that may precede global/function
// definitions and are irrelevant to passlens.
var ignoredPrefixWords = setOf("private", "internal", "available_externally", "linkonce", "weak",
	"common", "appending", "extern_weak", "linkonce_odr", "weak_odr", "external", "default", "hidden",
	"protected", "dllimport", "dllexport", "dso_local", "dso_preemptable", "local_unnamed_addr",
	"unnamed_addr", "thread_local", "externally_initialized")

// parseGlobal reads "@g = [linkage] [addrspace(N)] global|constant T [init] [, align N]".
func (p *parser) parseGlobal() (*globalAST, error) {
	nameTok := p.tok()
	g := &globalAST{tok: nameTok, name: nameTok.text}
	p.pos++
	if err := p.expectPunct("="); err != nil {
		return nil, err
	}
	external := false
	for {
		t := p.tok()
		if t.kind != tIdent {
			return nil, p.errAt(t, "expected 'global' or 'constant', found %s", t)
		}
		switch {
		case t.text == "external" || t.text == "extern_weak":
			external = true
			p.pos++
		case ignoredPrefixWords[t.text]:
			p.pos++
		case t.text == "addrspace":
			as, err := p.parseAddrSpace()
			if err != nil {
				return nil, err
			}
			g.as = as
		case t.text == "global" || t.text == "constant":
			g.constant = t.text == "constant"
			p.pos++
			ty, err := p.parseType()
			if err != nil {
				return nil, err
			}
			g.ty = ty
			if !external {
				v, err := p.parseValue()
				if err != nil {
					return nil, err
				}
				g.init = &v
			}
			for p.isPunct(",") || p.tok().kind == tAttrRef {
				if p.tok().kind == tAttrRef {
					p.pos++
					continue
				}
				p.pos++
				if err := p.skipTrailer(); err != nil {
					return nil, err
				}
			}
			return g, nil
		case t.text == "alias" || t.text == "ifunc":
			// @a = alias T, ptr @b: a pointer the bridge does not follow.
			p.pos++
			if _, err := p.parseType(); err != nil {
				return nil, err
			}
			if err := p.expectPunct(","); err != nil {
				return nil, err
			}
			pt, err := p.parseType()
			if err != nil {
				return nil, err
			}
			g.ty, g.alias = pt, true
			for !p.atTopLevelStart() {
				p.pos++
			}
			return g, nil
		default:
			// Other qualifiers (thread_local(localdynamic), sanitizer
			// flags, ...) do not matter to passlens.
			p.pos++
			if p.isPunct("(") {
				if err := p.skipBalanced(); err != nil {
					return nil, err
				}
			}
		}
	}
}

// skipTrailer skips one ", align N" / ", section \"..\"" / ", !md !N" item
// after its comma.
func (p *parser) skipTrailer() error {
	t := p.tok()
	switch {
	case t.kind == tIdent:
		// align N, section "s", partition "p", comdat($c), code_model "m",
		// no_sanitize_address, ...
		p.pos++
		if p.isPunct("(") {
			return p.skipBalanced()
		}
		if k := p.tok().kind; k == tInt || k == tString || k == tGlobal ||
			k == tIdent && strings.HasPrefix(p.tok().text, "$") {
			p.pos++
		}
		return nil
	case t.kind == tMeta:
		p.pos++
		if p.tok().kind == tMeta {
			p.pos++
			if p.isPunct("{") {
				return p.skipBalanced()
			}
		}
		return nil
	}
	return p.errAt(t, "unsupported trailing item %s", t)
}

// callingConvs are the calling conventions the importer accepts.
var callingConvs = setOf("ccc", "fastcc", "coldcc", "amdgpu_kernel", "spir_kernel", "spir_func",
	"tailcc", "swiftcc", "preserve_mostcc", "preserve_allcc", "ptx_kernel", "ptx_device",
	"amdgpu_vs", "amdgpu_ls", "amdgpu_hs", "amdgpu_es", "amdgpu_gs", "amdgpu_ps", "amdgpu_cs",
	"amdgpu_cs_chain", "amdgpu_cs_chain_preserve", "amdgpu_gfx", "amdgpu_gfx_whole_wave")

// returnAttrWords are attributes that may appear before a return type.
var returnAttrWords = setOf("noundef", "zeroext", "signext", "inreg", "noalias", "nonnull", "nofpclass",
	"dereferenceable", "dereferenceable_or_null", "align", "range")

func (p *parser) parseFunction() (*funcAST, error) {
	kw := p.tok()
	f := &funcAST{tok: kw, isDecl: kw.text == "declare", attrs: map[string]bool{}}
	p.pos++
	// Linkage, visibility, calling convention and return attributes.
	for p.tok().kind == tIdent {
		w := p.tok().text
		switch {
		case ignoredPrefixWords[w]:
			p.pos++
		case callingConvs[w]:
			f.cc = w
			p.pos++
		case w == "cc":
			p.pos++
			if p.tok().kind != tInt {
				return nil, p.errAt(p.tok(), "expected a calling convention number")
			}
			f.cc = "cc" + p.tok().text
			p.pos++
		case returnAttrWords[w]:
			p.pos++
			if p.isPunct("(") {
				if err := p.skipBalanced(); err != nil {
					return nil, err
				}
			} else if p.tok().kind == tInt && (w == "align" || strings.HasPrefix(w, "dereferenceable")) {
				p.pos++
			}
		default:
			goto retType
		}
	}
retType:
	ret, err := p.parseType()
	if err != nil {
		return nil, err
	}
	f.ret = ret
	nameTok := p.tok()
	if nameTok.kind != tGlobal {
		return nil, p.errAt(nameTok, "expected a function name, found %s", nameTok)
	}
	f.tok = nameTok
	f.name = nameTok.text
	p.pos++
	if err := p.expectPunct("("); err != nil {
		return nil, err
	}
	for !p.isPunct(")") {
		if p.isPunct("...") {
			f.varargs = true
			p.pos++
			continue
		}
		pt := p.tok()
		ty, err := p.parseType()
		if err != nil {
			return nil, err
		}
		pa := &paramAST{tok: pt, typeTok: pt, ty: ty, attrs: map[string]bool{}}
		if err := p.parseParamAttrs(pa.attrs); err != nil {
			return nil, err
		}
		if t := p.tok(); t.kind == tLocal {
			pa.name, pa.numeric, pa.tok = t.text, t.numeric, t
			p.pos++
		}
		f.params = append(f.params, pa)
		if p.isPunct(",") {
			p.pos++
		} else if !p.isPunct(")") {
			return nil, p.errAt(p.tok(), "expected ',' or ')' in the parameter list, found %s", p.tok())
		}
	}
	p.pos++
	// Function attributes, attribute group references, section, align, ...
	for {
		t := p.tok()
		switch {
		case t.kind == tAttrRef:
			f.refs = append(f.refs, t)
			p.pos++
			continue
		case t.kind == tIdent && (t.text == "section" || t.text == "partition" || t.text == "comdat" || t.text == "gc"):
			p.pos++
			if p.isPunct("(") {
				if err := p.skipBalanced(); err != nil {
					return nil, err
				}
			} else if p.tok().kind == tString {
				p.pos++
			}
			continue
		case t.kind == tIdent && (t.text == "prefix" || t.text == "prologue" || t.text == "personality"):
			p.pos++
			if _, err := p.parseTypedValue(); err != nil {
				return nil, err
			}
			continue
		case t.kind == tIdent && t.text == "addrspace":
			if _, err := p.parseAddrSpace(); err != nil {
				return nil, err
			}
			continue
		case t.kind == tIdent && !(t.text == "define" || t.text == "declare" || t.text == "attributes" || t.text == "target" || t.text == "source_filename") && !(f.isDecl && t.col == 1):
			p.pos++
			word := t.text
			if p.isPunct("(") {
				if err := p.skipBalanced(); err != nil {
					return nil, err
				}
			} else if p.tok().kind == tInt && (word == "align" || word == "alignstack") {
				p.pos++
			}
			f.attrs[word] = true
			continue
		case t.kind == tString && p.peekAt(1).text == "=":
			// "key"="value"
			if v := p.peekAt(2); v.kind != tString {
				return nil, p.errAt(v, "expected the string value of attribute \"%s\", found %s", t.text, v)
			}
			f.attrs[t.text] = true
			p.pos += 3
			continue
		case t.kind == tMeta && !f.isDecl:
			// !dbg !12 attachments (the work-group size is kept).
			p.pos++
			if p.tok().kind == tMeta {
				if t.text == "reqd_work_group_size" {
					f.reqdWG = p.tok().text
				}
				p.pos++
			}
			continue
		}
		break
	}
	if f.isDecl {
		return f, nil
	}
	if !p.isPunct("{") {
		return nil, p.errAt(p.tok(), "expected '{' to start the body of @%s, found %s", f.name, p.tok())
	}
	p.pos++
	if err := p.parseBody(f); err != nil {
		return nil, err
	}
	return f, nil
}

// parseParamAttrs skips parameter attributes, recording their names.
func (p *parser) parseParamAttrs(set map[string]bool) error {
	for {
		t := p.tok()
		if t.kind == tString && p.peekAt(1).text == "=" && p.peekAt(2).kind == tString {
			// "key"="value" string attributes.
			p.pos += 3
			set[t.text] = true
			continue
		}
		if t.kind != tIdent {
			return nil
		}
		switch t.text {
		case "true", "false", "null", "undef", "poison", "zeroinitializer", "splat", "none", "asm":
			return nil
		case "c":
			if p.peekAt(1).kind == tString {
				return nil
			}
		}
		if constExprWords[t.text] {
			return nil
		}
		p.pos++
		set[t.text] = true
		if p.isPunct("(") {
			if err := p.skipBalanced(); err != nil {
				return err
			}
		} else if p.tok().kind == tInt && (t.text == "align" || strings.HasPrefix(t.text, "dereferenceable")) {
			p.pos++
		}
	}
}

func (p *parser) parseBody(f *funcAST) error {
	var cur *blockAST
	for {
		p.ts.release(p.pos)
		t := p.tok()
		switch {
		case t.kind == tEOF:
			return p.errAt(f.tok, "unterminated body of @%s", f.name)
		case t.kind == tPunct && t.text == "}":
			p.pos++
			if len(f.blocks) == 0 {
				return p.errAt(t, "function @%s has no blocks", f.name)
			}
			return nil
		case t.kind == tLabel:
			cur = &blockAST{name: t.text, line: t.line, col: t.col, numeric: t.numeric, end: int32(f.insts.len())}
			f.blocks = append(f.blocks, cur)
			p.pos++
			continue
		}
		if t.kind == tIdent && strings.HasPrefix(t.text, "#dbg_") {
			// Debug records (#dbg_value(...)): read and dropped.
			p.pos++
			if p.isPunct("(") {
				if err := p.skipBalanced(); err != nil {
					return err
				}
			}
			continue
		}
		if t.kind == tIdent && t.text == "uselistorder" {
			p.pos++
			if _, err := p.parseTypedValue(); err != nil {
				return err
			}
			if err := p.expectPunct(","); err != nil {
				return err
			}
			if err := p.skipBalanced(); err != nil {
				return err
			}
			continue
		}
		if cur == nil {
			// The implicit, numbered entry block.
			cur = &blockAST{line: t.line, col: t.col, numeric: true, end: int32(f.insts.len())}
			f.blocks = append(f.blocks, cur)
		}
		in, err := p.parseInstr()
		if err != nil {
			return err
		}
		f.addInst(in, t)
		cur.end = int32(f.insts.len())
	}
}

// constExprWords start constant expressions, which the importer rejects.
var constExprWords = setOf("getelementptr", "bitcast", "addrspacecast", "ptrtoint", "ptrtoaddr", "inttoptr", "trunc",
	"zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp",
	"add", "sub", "mul", "shl", "lshr", "ashr", "and", "or", "xor", "udiv", "sdiv", "urem", "srem",
	"icmp", "fcmp", "select", "extractelement",
	"insertelement", "shufflevector", "blockaddress", "dso_local_equivalent", "no_cfi", "ptrauth")

// Opcode groups.
var (
	intBinOps   = setOf("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor")
	floatBinOps = setOf("fadd", "fsub", "fmul", "fdiv", "frem")
	castOps     = setOf("trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp",
		"bitcast", "addrspacecast", "ptrtoint", "ptrtoaddr", "inttoptr")
	instFlags = setOf("nuw", "nsw", "exact", "disjoint", "nneg", "samesign", "inbounds", "nusw", "inrange",
		"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")
)

func (p *parser) skipFlags() {
	for p.tok().kind == tIdent && instFlags[p.tok().text] {
		p.pos++
	}
}

func (p *parser) parseInstr() (*instAST, error) {
	// The node is the parser's one scratch node, its operand slices are
	// reused: an instruction's tree lives only until the next instruction
	// is parsed, and callers copy what they keep of it.
	in := &p.scratch
	*in = instAST{args: in.args[:0], phis: in.phis[:0], targets: in.targets[:0], cases: in.cases[:0]}
	if t := p.tok(); t.kind == tLocal && p.peekAt(1).text == "=" {
		in.name, in.numeric, in.nameTok, in.named = t.text, t.numeric, t, true
		p.pos += 2
	}
	// call prefixes
	for p.isIdent("tail") || p.isIdent("musttail") || p.isIdent("notail") {
		p.pos++
	}
	op := p.tok()
	if op.kind != tIdent {
		return nil, p.errAt(op, "expected an instruction, found %s", op)
	}
	in.tok, in.op = op, op.text
	p.pos++
	var err error
	switch {
	case op.text == "ret":
		if p.isIdent("void") {
			p.pos++
			break
		}
		err = p.parseTypedArgs(in, 1)
	case op.text == "br":
		if p.isIdent("label") {
			var l token
			l, err = p.parseLabelRef()
			in.targets = append(in.targets, l)
			break
		}
		if err = p.parseTypedArgs(in, 1); err != nil {
			break
		}
		for i := 0; i < 2 && err == nil; i++ {
			if err = p.expectPunct(","); err == nil {
				var l token
				l, err = p.parseLabelRef()
				in.targets = append(in.targets, l)
			}
		}
	case op.text == "switch":
		err = p.parseSwitch(in)
	case op.text == "unreachable":
	case intBinOps[op.text] || floatBinOps[op.text]:
		p.skipFlags()
		err = p.parseBinary(in)
	case op.text == "fneg" || op.text == "freeze":
		p.skipFlags()
		err = p.parseTypedArgs(in, 1)
	case op.text == "icmp" || op.text == "fcmp":
		p.skipFlags()
		pt := p.tok()
		if pt.kind != tIdent {
			return nil, p.errAt(pt, "expected a comparison predicate, found %s", pt)
		}
		in.pred = pt.text
		p.pos++
		err = p.parseBinary(in)
	case op.text == "select":
		p.skipFlags()
		err = p.parseTypedArgs(in, 3)
	case castOps[op.text]:
		p.skipFlags()
		if err = p.parseTypedArgs(in, 1); err == nil {
			if err = p.expectIdent("to"); err == nil {
				in.ty, err = p.parseType()
			}
		}
	case op.text == "phi":
		p.skipFlags()
		err = p.parsePhi(in)
	case op.text == "call":
		err = p.parseCall(in)
	case op.text == "load":
		p.parseAtomicVolatile(in)
		if in.ty, err = p.parseType(); err == nil {
			if err = p.expectPunct(","); err == nil {
				if err = p.parseTypedArgs(in, 1); err == nil {
					err = p.skipOrderings()
				}
			}
		}
	case op.text == "store":
		p.parseAtomicVolatile(in)
		if err = p.parseTypedArgs(in, 2); err == nil {
			err = p.skipOrderings()
		}
	case op.text == "fence":
		err = p.skipOrderings()
	case op.text == "invoke" || op.text == "callbr":
		if err = p.parseCall(in); err != nil {
			break
		}
		err = p.parseCallTargets(in)
	case op.text == "indirectbr":
		if err = p.parseTypedArgs(in, 1); err == nil {
			if err = p.expectPunct(","); err == nil {
				err = p.parseLabelList(in)
			}
		}
	case op.text == "resume":
		err = p.parseTypedArgs(in, 1)
	case op.text == "va_arg":
		if err = p.parseTypedArgs(in, 1); err == nil {
			if err = p.expectPunct(","); err == nil {
				in.ty, err = p.parseType()
			}
		}
	case op.text == "landingpad":
		if in.ty, err = p.parseType(); err != nil {
			break
		}
		for err == nil && (p.isIdent("cleanup") || p.isIdent("catch") || p.isIdent("filter")) {
			w := p.tok().text
			p.pos++
			if w != "cleanup" {
				var tv typedVal
				tv, err = p.parseTypedValue()
				in.args = append(in.args, tv)
			}
		}
	case op.text == "alloca":
		err = p.parseAlloca(in)
	case op.text == "getelementptr":
		p.skipFlags()
		if in.ty, err = p.parseType(); err == nil {
			for p.isPunct(",") && err == nil {
				if t := p.peekAt(1); t.kind == tIdent && t.text == "align" || t.kind == tMeta {
					break
				}
				p.pos++
				p.skipFlags()
				var tv typedVal
				tv, err = p.parseTypedValue()
				in.args = append(in.args, tv)
			}
		}
	case op.text == "extractvalue" || op.text == "insertvalue":
		n := 1
		if op.text == "insertvalue" {
			n = 2
		}
		if err = p.parseTypedArgs(in, n); err == nil {
			for p.isPunct(",") && err == nil {
				if t := p.peekAt(1); t.kind != tInt {
					break
				}
				p.pos++
				var v int
				v, err = p.parseIndex()
				in.idx = append(in.idx, v)
			}
		}
	case op.text == "extractelement":
		err = p.parseTypedArgs(in, 2)
	case op.text == "insertelement" || op.text == "shufflevector":
		err = p.parseTypedArgs(in, 3)
	case op.text == "atomicrmw":
		err = p.parseAtomicRMW(in)
	case op.text == "cmpxchg":
		err = p.parseCmpXchg(in)
	case op.text == "catchswitch" || op.text == "catchret" || op.text == "cleanupret" || op.text == "catchpad" || op.text == "cleanuppad":
		return nil, p.errAt(op, "unsupported instruction '%s' (funclet exception handling)", op.text)
	default:
		return nil, p.errAt(op, "unknown instruction '%s'", op.text)
	}
	if err != nil {
		return nil, err
	}
	// Trailing ", align N", ", !md !N".
	for p.isPunct(",") {
		p.pos++
		if err := p.skipTrailer(); err != nil {
			return nil, err
		}
	}
	// Metadata attachments without a comma (rare) are not LLVM syntax; a
	// following token must start the next instruction or label.
	return in, nil
}

func (p *parser) parseIndex() (int, error) {
	t := p.tok()
	if t.kind != tInt {
		return 0, p.errAt(t, "expected an index, found %s", t)
	}
	v, err := strconv.Atoi(t.text)
	if err != nil || v < 0 || v > 1<<30 {
		return 0, p.errAt(t, "invalid index %s", t.text)
	}
	p.pos++
	return v, nil
}

func (p *parser) parseLabelRef() (token, error) {
	if err := p.expectIdent("label"); err != nil {
		return token{}, err
	}
	t := p.tok()
	if t.kind != tLocal {
		return token{}, p.errAt(t, "expected a block label, found %s", t)
	}
	p.pos++
	return t, nil
}

// parseTypedArgs reads n comma-separated "T v" operands.
func (p *parser) parseTypedArgs(in *instAST, n int) error {
	for i := 0; i < n; i++ {
		if i > 0 {
			if err := p.expectPunct(","); err != nil {
				return err
			}
		}
		tv, err := p.parseTypedValue()
		if err != nil {
			return err
		}
		in.args = append(in.args, tv)
	}
	return nil
}

// parseBinary reads "T a, b" (the second operand has no type).
func (p *parser) parseBinary(in *instAST) error {
	ty, err := p.parseType()
	if err != nil {
		return err
	}
	a, err := p.parseValue()
	if err != nil {
		return err
	}
	if err := p.expectPunct(","); err != nil {
		return err
	}
	b, err := p.parseValue()
	if err != nil {
		return err
	}
	in.ty = ty
	in.args = append(in.args, typedVal{ty, a}, typedVal{ty, b})
	return nil
}

func (p *parser) parseTypedValue() (typedVal, error) {
	ty, err := p.parseType()
	if err != nil {
		return typedVal{}, err
	}
	if ty.kind == lkMetadata {
		v, err := p.parseMetadataValue()
		return typedVal{ty, v}, err
	}
	// Call-site parameter attributes (i32 immarg 0, ptr noundef %p).
	skip := map[string]bool{}
	if err := p.parseParamAttrs(skip); err != nil {
		return typedVal{}, err
	}
	v, err := p.parseValue()
	if err != nil {
		return typedVal{}, err
	}
	return typedVal{ty, v}, nil
}

// parseValue reads a value reference or constant.
func (p *parser) parseValue() (valRef, error) {
	if err := p.nest("constant"); err != nil {
		return valRef{}, err
	}
	defer func() { p.depth-- }()
	t := p.tok()
	v := valRef{tok: t, text: t.text}
	switch t.kind {
	case tLocal:
		v.kind, v.numeric = vLocal, t.numeric
	case tGlobal:
		v.kind, v.numeric = vGlobal, t.numeric
	case tInt:
		v.kind = vInt
	case tFloat:
		v.kind = vFloat
	case tIdent:
		switch t.text {
		case "true":
			v.kind = vTrue
		case "false":
			v.kind = vFalse
		case "null":
			v.kind = vNull
		case "undef":
			v.kind = vUndef
		case "poison":
			v.kind = vPoison
		case "zeroinitializer":
			v.kind = vZero
		case "splat":
			p.pos++
			if err := p.expectPunct("("); err != nil {
				return v, err
			}
			e, err := p.parseTypedValue()
			if err != nil {
				return v, err
			}
			v.kind, v.elems = vSplat, []typedVal{e}
			return v, p.expectPunct(")")
		case "none":
			v.kind = vNone
		case "c":
			if p.peekAt(1).kind != tString {
				return v, p.errAt(t, "expected a value, found %s", t)
			}
			p.pos++
			v.kind, v.text = vString, p.tok().text
		case "asm":
			return v, p.errAt(t, "unsupported inline asm outside a call")
		default:
			if constExprWords[t.text] {
				return p.parseConstExpr()
			}
			return v, p.errAt(t, "expected a value, found %s", t)
		}
	case tPunct:
		switch t.text {
		case "<", "[", "{":
			closeTok := map[string]string{"<": ">", "[": "]", "{": "}"}[t.text]
			p.pos++
			if t.text == "<" && p.isPunct("{") {
				return v, p.errAt(t, "unsupported packed struct constant")
			}
			v.kind = vAgg
			for !p.isPunct(closeTok) {
				e, err := p.parseTypedValue()
				if err != nil {
					return v, err
				}
				v.elems = append(v.elems, e)
				if p.isPunct(",") {
					p.pos++
				} else if !p.isPunct(closeTok) {
					return v, p.errAt(p.tok(), "expected ',' or '%s' in a constant, found %s", closeTok, p.tok())
				}
			}
			p.pos++
			return v, nil
		}
		return v, p.errAt(t, "expected a value, found %s", t)
	case tString:
		return v, p.errAt(t, "unsupported string constant")
	case tMeta:
		return v, p.errAt(t, "unsupported metadata operand")
	default:
		return v, p.errAt(t, "expected a value, found %s", t)
	}
	p.pos++
	return v, nil
}

// parseConstExpr reads a constant expression: getelementptr (T, ptr @g,
// idx...), casts (T v to U), binary operators, icmp/fcmp pred (...),
// extractelement/insertelement/shufflevector (...), blockaddress(@f, %b),
// dso_local_equivalent @f, no_cfi @f and ptrauth (...). It keeps the opcode
// and the typed operands; the type comes from the context.
func (p *parser) parseConstExpr() (valRef, error) {
	t := p.tok()
	v := valRef{tok: t, kind: vExpr, text: t.text}
	p.pos++
	switch t.text {
	case "dso_local_equivalent", "no_cfi":
		g, err := p.parseValue()
		if err != nil {
			return v, err
		}
		v.elems = []typedVal{{&llType{kind: lkPtr}, g}}
		return v, nil
	case "blockaddress":
		// Operands are a function and a block: no values.
		return v, p.skipBalanced()
	case "icmp", "fcmp":
		if p.tok().kind == tIdent {
			p.pos++
		}
	}
	for p.tok().kind == tIdent && instFlags[p.tok().text] {
		w := p.tok().text
		p.pos++
		if w == "inrange" && p.isPunct("(") {
			if err := p.skipBalanced(); err != nil {
				return v, err
			}
		}
	}
	if err := p.expectPunct("("); err != nil {
		return v, err
	}
	if t.text == "getelementptr" {
		if _, err := p.parseType(); err != nil {
			return v, err
		}
		if err := p.expectPunct(","); err != nil {
			return v, err
		}
	}
	for !p.isPunct(")") {
		tv, err := p.parseTypedValue()
		if err != nil {
			return v, err
		}
		v.elems = append(v.elems, tv)
		if p.isIdent("to") {
			p.pos++
			if _, err := p.parseType(); err != nil {
				return v, err
			}
		}
		if p.isPunct(",") {
			p.pos++
		} else if !p.isPunct(")") {
			return v, p.errAt(p.tok(), "expected ',' or ')' in a constant expression, found %s", p.tok())
		}
	}
	p.pos++
	return v, nil
}

// parseMetadataValue reads a metadata operand (!0, !{...}, !"s",
// !DIExpression(...), or a wrapped value such as "i32 0").
func (p *parser) parseMetadataValue() (valRef, error) {
	t := p.tok()
	v := valRef{tok: t, kind: vMeta}
	if t.kind != tMeta {
		_, err := p.parseTypedValue()
		return v, err
	}
	p.pos++
	switch {
	case p.isPunct("(") || p.isPunct("{"):
		return v, p.skipBalanced()
	case t.text == "" && p.tok().kind == tString:
		p.pos++
	}
	return v, nil
}

func (p *parser) parseSwitch(in *instAST) error {
	if err := p.parseTypedArgs(in, 1); err != nil {
		return err
	}
	if err := p.expectPunct(","); err != nil {
		return err
	}
	def, err := p.parseLabelRef()
	if err != nil {
		return err
	}
	in.targets = append(in.targets, def)
	if err := p.expectPunct("["); err != nil {
		return err
	}
	for !p.isPunct("]") {
		if p.tok().kind == tEOF {
			return p.errAt(in.tok, "unterminated switch case list")
		}
		tv, err := p.parseTypedValue()
		if err != nil {
			return err
		}
		if err := p.expectPunct(","); err != nil {
			return err
		}
		l, err := p.parseLabelRef()
		if err != nil {
			return err
		}
		in.cases = append(in.cases, caseAST{val: tv.v, target: l})
	}
	p.pos++
	return nil
}

func (p *parser) parsePhi(in *instAST) error {
	ty, err := p.parseType()
	if err != nil {
		return err
	}
	in.ty = ty
	for {
		if err := p.expectPunct("["); err != nil {
			return err
		}
		v, err := p.parseValue()
		if err != nil {
			return err
		}
		if err := p.expectPunct(","); err != nil {
			return err
		}
		b := p.tok()
		if b.kind != tLocal {
			return p.errAt(b, "expected an incoming block, found %s", b)
		}
		p.pos++
		if err := p.expectPunct("]"); err != nil {
			return err
		}
		in.phis = append(in.phis, phiIn{v: v, block: b})
		if !p.isPunct(",") || p.peekAt(1).text != "[" {
			return nil
		}
		p.pos++
	}
}

func (p *parser) parseCall(in *instAST) error {
	in.call = &callAST{}
	p.skipFlags()
	for p.tok().kind == tIdent {
		w := p.tok().text
		if w == "cc" && p.peekAt(1).kind == tInt {
			p.pos += 2
			continue
		}
		if w == "addrspace" && p.peekAt(1).text == "(" {
			if _, err := p.parseAddrSpace(); err != nil {
				return err
			}
			continue
		}
		if callingConvs[w] || returnAttrWords[w] {
			p.pos++
			if p.isPunct("(") {
				if err := p.skipBalanced(); err != nil {
					return err
				}
			} else if p.tok().kind == tInt && (w == "align" || strings.HasPrefix(w, "dereferenceable")) {
				p.pos++
			}
			continue
		}
		break
	}
	ty, err := p.parseType()
	if err != nil {
		return err
	}
	in.ty = ty
	if p.isPunct("(") {
		// A function type "T (args...)" before the callee (varargs calls).
		if err := p.skipBalanced(); err != nil {
			return err
		}
		in.call.explicitT = true
	}
	c := p.tok()
	in.call.calleeTok = c
	switch {
	case c.kind == tIdent && c.text == "asm":
		a := &asmAST{tok: c}
		p.pos++
		for p.isIdent("sideeffect") || p.isIdent("alignstack") || p.isIdent("inteldialect") || p.isIdent("unwind") {
			if p.isIdent("sideeffect") {
				a.sideEffect = true
			}
			p.pos++
		}
		if p.tok().kind != tString {
			return p.errAt(p.tok(), "expected the inline asm string, found %s", p.tok())
		}
		a.text = p.tok().text
		p.pos++
		if err := p.expectPunct(","); err != nil {
			return err
		}
		if p.tok().kind != tString {
			return p.errAt(p.tok(), "expected the inline asm constraints, found %s", p.tok())
		}
		a.constraints = p.tok().text
		p.pos++
		in.call.asm = a
		in.call.callee = valRef{tok: c, kind: vExpr, text: "asm"}
	case c.kind == tGlobal:
		in.call.callee = valRef{tok: c, kind: vGlobal, text: c.text, numeric: c.numeric}
		p.pos++
	case c.kind == tLocal:
		in.call.callee = valRef{tok: c, kind: vLocal, text: c.text, numeric: c.numeric}
		p.pos++
	case c.kind == tIdent && constExprWords[c.text]:
		v, err := p.parseValue()
		if err != nil {
			return err
		}
		in.call.callee = v
	default:
		return p.errAt(c, "expected a callee, found %s", c)
	}
	if err := p.expectPunct("("); err != nil {
		return err
	}
	if err := p.parseTypedValues(&in.args, "the argument list"); err != nil {
		return err
	}
	closeTok := p.tok()
	p.pos++
	// Call-site function attributes and #N references (on the call's line).
	for {
		t := p.tok()
		if t.line != closeTok.line {
			break
		}
		if t.kind == tAttrRef {
			p.pos++
			continue
		}
		if t.kind == tString {
			p.pos++
			if p.isPunct("=") && p.peekAt(1).kind == tString {
				p.pos += 2
			}
			continue
		}
		if t.kind == tIdent && t.text != "to" {
			p.pos++
			if p.isPunct("(") {
				if err := p.skipBalanced(); err != nil {
					return err
				}
			}
			continue
		}
		break
	}
	if p.isPunct("[") {
		return p.parseBundles(in)
	}
	return nil
}

// parseBundles reads operand bundles: [ "tag"(T v, ...), ... ].
func (p *parser) parseBundles(in *instAST) error {
	p.pos++ // [
	for !p.isPunct("]") {
		if p.tok().kind != tString {
			return p.errAt(p.tok(), "expected an operand bundle tag, found %s", p.tok())
		}
		p.pos++
		if err := p.expectPunct("("); err != nil {
			return err
		}
		if err := p.parseTypedValues(&in.call.bundles, "an operand bundle"); err != nil {
			return err
		}
		p.pos++
		if p.isPunct(",") {
			p.pos++
		} else if !p.isPunct("]") {
			return p.errAt(p.tok(), "expected ',' or ']' after an operand bundle, found %s", p.tok())
		}
	}
	p.pos++
	return nil
}

// parseCallTargets reads the successors of invoke ("to label %n unwind
// label %u") and callbr ("to label %d [label %a, ...]") into in.targets,
// the default or normal destination first.
func (p *parser) parseCallTargets(in *instAST) error {
	if err := p.expectIdent("to"); err != nil {
		return err
	}
	l, err := p.parseLabelRef()
	if err != nil {
		return err
	}
	in.targets = []token{l}
	if in.op == "invoke" {
		if err := p.expectIdent("unwind"); err != nil {
			return err
		}
		u, err := p.parseLabelRef()
		if err != nil {
			return err
		}
		in.targets = append(in.targets, u)
		return nil
	}
	return p.parseLabelList(in)
}

// parseLabelList reads "[label %a, label %b, ...]" into in.targets.
func (p *parser) parseLabelList(in *instAST) error {
	if err := p.expectPunct("["); err != nil {
		return err
	}
	for !p.isPunct("]") {
		l, err := p.parseLabelRef()
		if err != nil {
			return err
		}
		in.targets = append(in.targets, l)
		if p.isPunct(",") {
			p.pos++
		} else if !p.isPunct("]") {
			return p.errAt(p.tok(), "expected ',' or ']' in a label list, found %s", p.tok())
		}
	}
	p.pos++
	return nil
}

// parseAtomicVolatile reads the "atomic" and "volatile" words of load and
// store.
func (p *parser) parseAtomicVolatile(in *instAST) {
	for p.isIdent("atomic") || p.isIdent("volatile") {
		if p.isIdent("atomic") {
			in.atomic = true
		} else {
			in.volatile = true
		}
		p.pos++
	}
}

func (p *parser) parseAlloca(in *instAST) error {
	for p.isIdent("inalloca") || p.isIdent("swifterror") {
		p.pos++
	}
	ty, err := p.parseType()
	if err != nil {
		return err
	}
	in.ty = ty
	as := 0
	for p.isPunct(",") {
		p.pos++
		switch t := p.tok(); {
		case t.kind == tIdent && t.text == "align":
			p.pos += 2
		case t.kind == tIdent && t.text == "addrspace":
			if as, err = p.parseAddrSpace(); err != nil {
				return err
			}
		case t.kind == tMeta:
			p.pos--
			if err := p.skipTrailerAfterComma(); err != nil {
				return err
			}
		default:
			tv, err := p.parseTypedValue()
			if err != nil {
				return err
			}
			if tv.v.kind != vInt || tv.v.text != "1" {
				in.count = &tv
			}
		}
	}
	in.args = []typedVal{{ty: &llType{kind: lkInt, bits: 32}, v: valRef{kind: vInt, text: strconv.Itoa(as)}}}
	return nil
}

func (p *parser) skipTrailerAfterComma() error {
	p.pos++
	return p.skipTrailer()
}

// atomic orderings and scopes.
var orderings = setOf("unordered", "monotonic", "acquire", "release", "acq_rel", "seq_cst")

func (p *parser) skipOrderings() error {
	for {
		switch {
		case p.isIdent("syncscope"):
			p.pos++
			if err := p.expectPunct("("); err != nil {
				return err
			}
			if p.tok().kind == tString {
				p.pos++
			}
			if err := p.expectPunct(")"); err != nil {
				return err
			}
		case p.tok().kind == tIdent && orderings[p.tok().text]:
			p.pos++
		default:
			return nil
		}
	}
}

func (p *parser) parseAtomicRMW(in *instAST) error {
	if p.isIdent("volatile") {
		in.volatile = true
		p.pos++
	}
	opTok := p.tok()
	if opTok.kind != tIdent || !isKeyword(opTok.text) {
		return p.errAt(opTok, "expected an atomicrmw operation, found %s", opTok)
	}
	in.atomicOp = opTok.text
	p.pos++
	if err := p.parseTypedArgs(in, 2); err != nil {
		return err
	}
	in.ty = in.args[1].ty
	return p.skipOrderings()
}

func (p *parser) parseCmpXchg(in *instAST) error {
	for p.isIdent("weak") || p.isIdent("volatile") {
		if p.isIdent("volatile") {
			in.volatile = true
		}
		p.pos++
	}
	if err := p.parseTypedArgs(in, 3); err != nil {
		return err
	}
	in.ty = in.args[1].ty
	return p.skipOrderings()
}

// parseTypedValues reads "T v, T v, ..." up to (not past) the closing ')',
// appending the values to dst (metadata operands are read and dropped);
// where names the list in errors.
func (p *parser) parseTypedValues(dst *[]typedVal, where string) error {
	for !p.isPunct(")") {
		tv, err := p.parseTypedValue()
		if err != nil {
			return err
		}
		if tv.v.kind != vMeta {
			*dst = append(*dst, tv)
		}
		if p.isPunct(",") {
			p.pos++
		} else if !p.isPunct(")") {
			return p.errAt(p.tok(), "expected ',' or ')' in %s, found %s", where, p.tok())
		}
	}
	return nil
}

// isKeyword reports whether s is spelled like an LLVM keyword (a lower-case
// letter, then letters, digits and underscores): atomicrmw's operation
// names the interpreter's intrinsic, so nothing else may pass for one.
func isKeyword(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
