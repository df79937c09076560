package passdump

import (
	"strings"
)

// headerKind classifies a banner line of a pass log.
type headerKind uint8

const (
	hNone      headerKind = iota
	hAfter                // IR Dump After P [on S]
	hBefore               // IR Dump Before P [on S]
	hStart                // IR Dump At Start (-print-changed)
	hOmitted              // IR Dump After P on S omitted because no change
	hDeleted              // IR Deleted After P on S / (invalidated): S no longer exists
	hIgnored              // IR Pass P on S ignored / filtered out: no step, no body
	hSPVBefore            // spirv-opt: ; IR before pass P
	hSPVLast              // spirv-opt: ; IR after last pass
)

// header is a parsed banner line.
type header struct {
	kind   headerKind
	pass   string // pass name as printed ("SROAPass", "Simplify the CFG (simplifycfg)")
	scope  string // what the new pass manager names after " on " ("" for legacy banners)
	failed string // passlens: "FAILED: msg"
	mir    bool   // "# *** IR Dump After … ***:" (machine IR)
	stage  string // passlens back-end stage language ("sir" for "*** SIR Dump After …")
	legacy bool   // no " on <scope>": the legacy pass manager's banner (or passlens's)
}

// parseHeader recognises the banner lines of every supported log format.
// Anything else is body text.
func parseHeader(line string) (header, bool) {
	var h header
	if len(line) < 10 {
		return h, false
	}
	switch line[0] {
	case ';':
		if rest, ok := strings.CutPrefix(line, "; IR before pass "); ok {
			return header{kind: hSPVBefore, pass: strings.TrimSpace(rest)}, true
		}
		if strings.HasPrefix(line, "; IR after last pass") {
			return header{kind: hSPVLast}, true
		}
		line = strings.TrimPrefix(line, "; ")
	case '#':
		if !strings.HasPrefix(line, "# *** IR Dump ") {
			return h, false
		}
		line = strings.TrimSuffix(strings.TrimPrefix(line, "# "), ":")
		h.mir = true
	case '*':
	default:
		return h, false
	}
	rest, ok := strings.CutPrefix(line, "*** ")
	if !ok {
		return h, false
	}
	body, ok := strings.CutSuffix(rest, " ***")
	if !ok {
		return h, false
	}
	switch {
	case body == "IR Dump At Start":
		h.kind = hStart
		return h, true
	case strings.HasPrefix(body, "IR Dump At Start on "):
		// passlens --print-changed --filter-func=F
		h.kind, h.scope = hStart, strings.TrimPrefix(body, "IR Dump At Start on ")
		return h, true
	case strings.HasPrefix(body, "IR Dump After "):
		h.kind, body = hAfter, strings.TrimPrefix(body, "IR Dump After ")
	case strings.HasPrefix(body, "IR Dump Before "):
		h.kind, body = hBefore, strings.TrimPrefix(body, "IR Dump Before ")
	case strings.HasPrefix(body, "IR Deleted After "):
		h.kind, body = hDeleted, strings.TrimPrefix(body, "IR Deleted After ")
	case strings.HasPrefix(body, "IR Pass "):
		if !strings.HasSuffix(body, " ignored") && !strings.HasSuffix(body, " filtered out") {
			return h, false
		}
		return header{kind: hIgnored}, true
	default:
		// passlens back-end stages: "*** SIR Dump After sir-lower ***".
		kind, after, ok := strings.Cut(body, " Dump After ")
		if !ok || kind == "" || kind == "IR" || strings.ContainsAny(kind, " ;") || strings.ToUpper(kind) != kind {
			return h, false
		}
		h.kind, h.stage, body = hAfter, strings.ToLower(kind), after
	}
	if b, ok := strings.CutSuffix(body, " omitted because no change"); ok {
		h.kind, body = hOmitted, b
	}
	if b, ok := strings.CutSuffix(body, " (invalidated)"); ok {
		h.kind, body = hDeleted, b
	}
	if i := strings.Index(body, " FAILED: "); i >= 0 {
		h.failed, body = body[i+len(" FAILED: "):], body[:i]
	}
	if i := strings.Index(body, " on "); i >= 0 && validScope(body[i+4:]) {
		h.pass, h.scope = body[:i], body[i+4:]
	} else {
		h.pass, h.legacy = body, true
	}
	if h.pass == "" {
		return header{}, false
	}
	return h, true
}

// validScope accepts what the new pass manager prints after " on ":
// [module], a function name, "loop %x in function f", an SCC "(f, g)", and
// passlens's "@f".
func validScope(s string) bool {
	switch {
	case s == "":
		return false
	case s == "[module]", strings.HasPrefix(s, "loop %") && strings.Contains(s, " in function "):
		return true
	case s[0] == '(' && s[len(s)-1] == ')':
		return true
	}
	return !strings.ContainsAny(s, " ()")
}

// loopFunc returns the function of a loop scope ("loop %x in function f").
func loopFunc(scope string) (string, bool) {
	if !strings.HasPrefix(scope, "loop %") {
		return "", false
	}
	i := strings.LastIndex(scope, " in function ")
	if i < 0 {
		return "", false
	}
	return scope[i+len(" in function "):], true
}
