package hlsl

import (
	"strconv"
	"strings"
)

// ppValue is a preprocessor arithmetic value (intmax_t or uintmax_t).
type ppValue struct {
	v        int64
	unsigned bool
}

func (v ppValue) truth() bool { return v.v != 0 }

// ppExpr evaluates the constant expression of #if/#elif.
type ppExpr struct {
	p     *preprocessor
	ts    []token
	i     int
	at    token // the directive name, for errors at end of line
	fail  bool
	depth int
}

// evalCondition evaluates the operands of #if/#elif: defined() is resolved
// first, then macros are expanded, remaining identifiers become 0.
func (p *preprocessor) evalCondition(ts []token, directive token) bool {
	var pre []token
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.kind == tIdent && t.text == "defined" {
			var name token
			switch {
			case i+1 < len(ts) && ts[i+1].kind == tIdent:
				name = ts[i+1]
				i++
			case i+3 < len(ts) && ts[i+1].is("(") && ts[i+2].kind == tIdent && ts[i+3].is(")"):
				name = ts[i+2]
				i += 3
			default:
				p.rep.errorf(t.pos, t.end(), "macro name missing after 'defined'")
				return false
			}
			val := "0"
			if _, ok := p.macros[name.text]; ok {
				val = "1"
			}
			pre = append(pre, token{kind: tNumber, text: val, pos: t.pos})
			continue
		}
		pre = append(pre, t)
	}
	ex := p.expandList(pre)
	if len(ex) == 0 {
		p.rep.errorf(directive.end(), directive.end(), "#%s with no expression", directive.text)
		return false
	}
	e := &ppExpr{p: p, ts: ex, at: directive}
	v := e.ternary()
	if e.fail {
		return false
	}
	if e.i < len(e.ts) {
		t := e.ts[e.i]
		p.rep.errorf(t.pos, t.end(), "token is not a valid binary operator in a preprocessor subexpression")
		return false
	}
	return v.truth()
}

func (e *ppExpr) peek() token {
	if e.i < len(e.ts) {
		return e.ts[e.i]
	}
	return token{kind: tEOF, pos: e.at.end()}
}

func (e *ppExpr) errorf(t token, format string, args ...any) {
	if !e.fail {
		e.p.rep.errorf(t.pos, t.end(), format, args...)
	}
	e.fail = true
}

func (e *ppExpr) ternary() ppValue {
	c := e.binary(0)
	if !e.peek().is("?") {
		return c
	}
	e.i++
	a := e.ternary()
	if !e.peek().is(":") {
		e.errorf(e.peek(), "expected ':' in preprocessor expression")
		return ppValue{}
	}
	e.i++
	b := e.ternary()
	r := b
	if c.truth() {
		r = a
	}
	r.unsigned = a.unsigned || b.unsigned
	return r
}

// ppPrec gives binary operator precedences (higher binds tighter).
var ppPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5,
	"==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
	"<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

func (e *ppExpr) binary(minPrec int) ppValue {
	l := e.unary()
	for !e.fail {
		op := e.peek()
		prec, ok := ppPrec[op.text]
		if op.kind != tPunct || !ok || prec <= minPrec {
			return l
		}
		e.i++
		r := e.binary(prec)
		if e.fail {
			return ppValue{}
		}
		l = e.apply(op, l, r)
	}
	return l
}

func (e *ppExpr) apply(op token, l, r ppValue) ppValue {
	u := l.unsigned || r.unsigned
	b := func(c bool) ppValue {
		if c {
			return ppValue{v: 1}
		}
		return ppValue{}
	}
	switch op.text {
	case "||":
		return b(l.truth() || r.truth())
	case "&&":
		return b(l.truth() && r.truth())
	case "|":
		return ppValue{l.v | r.v, u}
	case "^":
		return ppValue{l.v ^ r.v, u}
	case "&":
		return ppValue{l.v & r.v, u}
	case "==":
		return b(l.v == r.v)
	case "!=":
		return b(l.v != r.v)
	case "<", ">", "<=", ">=":
		var lt, eq bool
		if u {
			lt, eq = uint64(l.v) < uint64(r.v), l.v == r.v
		} else {
			lt, eq = l.v < r.v, l.v == r.v
		}
		switch op.text {
		case "<":
			return b(lt)
		case ">":
			return b(!lt && !eq)
		case "<=":
			return b(lt || eq)
		}
		return b(!lt)
	case "<<":
		if r.v < 0 || r.v >= 64 {
			return ppValue{0, l.unsigned}
		}
		return ppValue{int64(uint64(l.v) << uint(r.v)), l.unsigned}
	case ">>":
		if r.v < 0 || r.v >= 64 {
			if !l.unsigned && l.v < 0 {
				return ppValue{-1, false}
			}
			return ppValue{0, l.unsigned}
		}
		if l.unsigned {
			return ppValue{int64(uint64(l.v) >> uint(r.v)), true}
		}
		return ppValue{l.v >> uint(r.v), false}
	case "+":
		return ppValue{l.v + r.v, u}
	case "-":
		return ppValue{l.v - r.v, u}
	case "*":
		return ppValue{l.v * r.v, u}
	case "/", "%":
		if r.v == 0 {
			e.errorf(op, "division by zero in preprocessor expression")
			return ppValue{}
		}
		if u {
			if op.text == "/" {
				return ppValue{int64(uint64(l.v) / uint64(r.v)), true}
			}
			return ppValue{int64(uint64(l.v) % uint64(r.v)), true}
		}
		if r.v == -1 { // avoid MinInt64 / -1 overflow trap
			if op.text == "/" {
				return ppValue{-l.v, false}
			}
			return ppValue{0, false}
		}
		if op.text == "/" {
			return ppValue{l.v / r.v, false}
		}
		return ppValue{l.v % r.v, false}
	}
	return ppValue{}
}

func (e *ppExpr) unary() ppValue {
	t := e.peek()
	if e.fail {
		return ppValue{}
	}
	if e.depth++; e.depth > maxNesting {
		e.errorf(t, "preprocessor expression nested too deeply")
		return ppValue{}
	}
	defer func() { e.depth-- }()
	switch {
	case t.kind == tEOF:
		e.errorf(t, "expected value in expression")
		return ppValue{}
	case t.is("("):
		e.i++
		v := e.ternary()
		if !e.peek().is(")") {
			e.errorf(e.peek(), "expected ')' in preprocessor expression")
			return ppValue{}
		}
		e.i++
		return v
	case t.is("-"), t.is("+"), t.is("~"), t.is("!"):
		e.i++
		v := e.unary()
		switch t.text {
		case "-":
			v.v = -v.v
		case "~":
			v.v = ^v.v
		case "!":
			v = ppValue{v: BoolInt(!v.truth())}
		}
		return v
	case t.kind == tNumber:
		e.i++
		v, ok := parsePPNumber(t.text)
		if !ok {
			e.errorf(t, "invalid integer constant '%s' in preprocessor expression", t.text)
		}
		return v
	case t.kind == tChar:
		e.i++
		s := t.text
		if len(s) >= 3 {
			if s[1] == '\\' && len(s) >= 4 {
				if c, _, _, err := strconv.UnquoteChar(s[1:len(s)-1], '\''); err == nil {
					return ppValue{v: int64(c)}
				}
			}
			return ppValue{v: int64(s[1])}
		}
		e.errorf(t, "empty character constant")
		return ppValue{}
	case t.kind == tIdent:
		e.i++
		if t.text == "true" {
			return ppValue{v: 1}
		}
		// Identifiers left after expansion (including false) are 0.
		if e.i < len(e.ts) && e.ts[e.i].is("(") {
			e.errorf(t, "function-like macro '%s' is not defined", t.text)
		}
		return ppValue{}
	}
	e.errorf(t, "invalid token at start of a preprocessor expression")
	return ppValue{}
}

// BoolInt is 1 for true and 0 for false, the value of a bool constant.
func BoolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// parsePPNumber parses an integer literal with an optional u/l suffix.
func parsePPNumber(s string) (ppValue, bool) {
	l := strings.ToLower(s)
	unsigned := false
	for len(l) > 0 {
		c := l[len(l)-1]
		if c == 'u' {
			unsigned = true
		} else if c != 'l' {
			break
		}
		l = l[:len(l)-1]
	}
	if l == "" {
		return ppValue{}, false
	}
	base := 10
	switch {
	case strings.HasPrefix(l, "0x"):
		base, l = 16, l[2:]
	case strings.HasPrefix(l, "0b"):
		base, l = 2, l[2:]
	case len(l) > 1 && l[0] == '0':
		base, l = 8, l[1:]
	}
	v, err := strconv.ParseUint(l, base, 64)
	if err != nil {
		return ppValue{}, false
	}
	if v > 1<<63-1 {
		unsigned = true
	}
	return ppValue{int64(v), unsigned}, true
}
