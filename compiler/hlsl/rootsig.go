package hlsl

import (
	"fmt"
	"strconv"
	"strings"
)

// Root signatures: [RootSignature("…")] on an entry point, in the grammar
// of D3D12's HLSL root signature language (as DXC reads it): a comma list
// of RootFlags(…), RootConstants(…), CBV/SRV/UAV(…), DescriptorTable(…)
// of CBV/SRV/UAV/Sampler ranges, and StaticSampler(…), each with its
// register and named parameters. passlens parses and validates it with
// errors located inside the string, keeps a canonical spelling for the
// IR's entry line, and otherwise ignores it, as DXC does when it emits
// SPIR-V.

// RootSignature is a parsed root signature.
type RootSignature struct {
	Elems []*RootElem
}

// RootElem is one element: Kind is RootFlags, RootConstants, CBV, SRV,
// UAV, DescriptorTable, StaticSampler (or, inside a table, Sampler).
type RootElem struct {
	Kind     string
	Register string            // "b0" (none for RootFlags and tables)
	Params   map[string]string // lower-case name → value as written
	Order    []string          // parameter names in source order
	Flags    []string          // RootFlags' flags
	Clauses  []*RootElem       // DescriptorTable's ranges
}

// String is the canonical spelling (keywords as D3D spells them, no
// spaces inside parameters).
func (r *RootSignature) String() string {
	var parts []string
	for _, e := range r.Elems {
		parts = append(parts, e.String())
	}
	return strings.Join(parts, ", ")
}

func (e *RootElem) String() string {
	var args []string
	if e.Kind == "RootFlags" {
		if len(e.Flags) == 0 {
			return "RootFlags(0)"
		}
		return "RootFlags(" + strings.Join(e.Flags, " | ") + ")"
	}
	if e.Register != "" {
		args = append(args, e.Register)
	}
	for _, c := range e.Clauses {
		args = append(args, c.String())
	}
	for _, k := range e.Order {
		args = append(args, rootParamSpelling[k]+"="+e.Params[k])
	}
	return e.Kind + "(" + strings.Join(args, ", ") + ")"
}

// rootParamSpelling spells each parameter name as D3D documents it.
var rootParamSpelling = map[string]string{
	"num32bitconstants": "num32BitConstants", "space": "space", "visibility": "visibility",
	"flags": "flags", "numdescriptors": "numDescriptors", "offset": "offset",
	"filter": "filter", "addressu": "addressU", "addressv": "addressV", "addressw": "addressW",
	"miplodbias": "mipLODBias", "maxanisotropy": "maxAnisotropy", "comparisonfunc": "comparisonFunc",
	"borderColor": "borderColor", "bordercolor": "borderColor", "minlod": "minLOD", "maxlod": "maxLOD",
}

// rootKinds are the element keywords (lower-case) with their D3D spelling
// and register class (0 for none).
var rootKinds = map[string]struct {
	name  string
	class byte
}{
	"rootflags": {"RootFlags", 0}, "rootconstants": {"RootConstants", 'b'},
	"cbv": {"CBV", 'b'}, "srv": {"SRV", 't'}, "uav": {"UAV", 'u'},
	"descriptortable": {"DescriptorTable", 0}, "staticsampler": {"StaticSampler", 's'},
	"sampler": {"Sampler", 's'},
}

// rootParams lists the parameters each element takes and the kind of
// their values.
var rootParams = map[string]map[string]string{
	"RootConstants":   {"num32bitconstants": "uint", "space": "uint", "visibility": "visibility"},
	"CBV":             {"space": "uint", "visibility": "visibility", "flags": "rootflags"},
	"SRV":             {"space": "uint", "visibility": "visibility", "flags": "rootflags"},
	"UAV":             {"space": "uint", "visibility": "visibility", "flags": "rootflags"},
	"DescriptorTable": {"visibility": "visibility"},
	"StaticSampler": {"filter": "filter", "addressu": "address", "addressv": "address", "addressw": "address",
		"miplodbias": "float", "maxanisotropy": "uint", "comparisonfunc": "comparison", "bordercolor": "border",
		"minlod": "float", "maxlod": "float", "space": "uint", "visibility": "visibility"},
}

// rangeParams are the parameters of a descriptor table's range.
var rangeParams = map[string]string{"numdescriptors": "count", "space": "uint", "offset": "offset", "flags": "rangeflags"}

var rootEnums = map[string][]string{
	"visibility": {"SHADER_VISIBILITY_ALL", "SHADER_VISIBILITY_VERTEX", "SHADER_VISIBILITY_HULL", "SHADER_VISIBILITY_DOMAIN",
		"SHADER_VISIBILITY_GEOMETRY", "SHADER_VISIBILITY_PIXEL", "SHADER_VISIBILITY_AMPLIFICATION", "SHADER_VISIBILITY_MESH"},
	"address": {"TEXTURE_ADDRESS_WRAP", "TEXTURE_ADDRESS_MIRROR", "TEXTURE_ADDRESS_CLAMP", "TEXTURE_ADDRESS_BORDER", "TEXTURE_ADDRESS_MIRROR_ONCE"},
	"comparison": {"COMPARISON_NEVER", "COMPARISON_LESS", "COMPARISON_EQUAL", "COMPARISON_LESS_EQUAL", "COMPARISON_GREATER",
		"COMPARISON_NOT_EQUAL", "COMPARISON_GREATER_EQUAL", "COMPARISON_ALWAYS"},
	"border": {"STATIC_BORDER_COLOR_TRANSPARENT_BLACK", "STATIC_BORDER_COLOR_OPAQUE_BLACK", "STATIC_BORDER_COLOR_OPAQUE_WHITE",
		"STATIC_BORDER_COLOR_OPAQUE_BLACK_UINT", "STATIC_BORDER_COLOR_OPAQUE_WHITE_UINT"},
	"rootflags": {"DATA_VOLATILE", "DATA_STATIC_WHILE_SET_AT_EXECUTE", "DATA_STATIC"},
	"rangeflags": {"DATA_VOLATILE", "DATA_STATIC_WHILE_SET_AT_EXECUTE", "DATA_STATIC", "DESCRIPTORS_VOLATILE",
		"DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS"},
	"signature": {"ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT", "DENY_VERTEX_SHADER_ROOT_ACCESS", "DENY_HULL_SHADER_ROOT_ACCESS",
		"DENY_DOMAIN_SHADER_ROOT_ACCESS", "DENY_GEOMETRY_SHADER_ROOT_ACCESS", "DENY_PIXEL_SHADER_ROOT_ACCESS",
		"DENY_AMPLIFICATION_SHADER_ROOT_ACCESS", "DENY_MESH_SHADER_ROOT_ACCESS", "ALLOW_STREAM_OUTPUT",
		"LOCAL_ROOT_SIGNATURE", "CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED", "SAMPLER_HEAP_DIRECTLY_INDEXED"},
	"filter": filterNames(),
}

// filterNames builds D3D12_FILTER's names: the eight point/linear
// combinations of min, mag and mip (equal neighbours share one word:
// MIN_MAG_POINT_MIP_LINEAR), plain or with a COMPARISON_, MINIMUM_ or
// MAXIMUM_ reduction, and ANISOTROPIC.
func filterNames() []string {
	var out []string
	for _, red := range []string{"", "COMPARISON_", "MINIMUM_", "MAXIMUM_"} {
		for i := 0; i < 8; i++ {
			kinds := [3]string{"POINT", "POINT", "POINT"}
			for b := 0; b < 3; b++ {
				if i>>(2-b)&1 != 0 {
					kinds[b] = "LINEAR"
				}
			}
			words := [3]string{"MIN", "MAG", "MIP"}
			name := ""
			for b := 0; b < 3; b++ {
				name += words[b] + "_"
				if b == 2 || kinds[b] != kinds[b+1] {
					name += kinds[b] + "_"
				}
			}
			out = append(out, "FILTER_"+red+strings.TrimSuffix(name, "_"))
		}
		out = append(out, "FILTER_"+red+"ANISOTROPIC")
	}
	return out
}

// rsTok is a token of the root signature language; off is its byte
// offset in the string's contents.
type rsTok struct {
	text string
	off  int
}

type rsParser struct {
	c *checker
	// starts are the offsets in the concatenated text where each literal
	// begins, bases the position of its first content byte.
	starts []int
	bases  []Pos
	toks   []rsTok
	i      int
	end    int
	bad    bool
}

// checkRootSignatureAttr parses and validates [RootSignature("…")] and
// stores the result in a.Root.
func (c *checker) checkRootSignatureAttr(a *Attribute) {
	if a.Str == nil || len(a.Args) > 0 {
		c.errorf(a, "'RootSignature' takes one string literal argument")
		return
	}
	p := &rsParser{c: c}
	body := ""
	for _, piece := range a.Str.Pieces {
		text, err := strconv.Unquote(piece.Text)
		if err != nil {
			c.rep.errorf(piece.Pos, piece.Pos.advance(len(piece.Text)), "invalid string literal")
			return
		}
		p.starts = append(p.starts, len(body))
		p.bases = append(p.bases, piece.Pos.advance(1))
		body += text
	}
	p.end = len(body)
	p.lex(body)
	if p.bad {
		return
	}
	rs := &RootSignature{}
	seen := map[string]bool{}
	for p.i < len(p.toks) {
		e := p.element(false)
		if e == nil {
			return
		}
		if (e.Kind == "RootFlags") && seen[e.Kind] {
			p.errorAt(p.i-1, "RootFlags may appear only once")
			return
		}
		seen[e.Kind] = true
		rs.Elems = append(rs.Elems, e)
		if p.i < len(p.toks) && !p.expect(",") {
			return
		}
	}
	a.Root = rs
}

func (p *rsParser) lex(s string) {
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			i++
		case strings.IndexByte("(),=|", ch) >= 0:
			p.toks = append(p.toks, rsTok{s[i : i+1], i})
			i++
		case rsIdent(ch) || ch == '-' || ch == '+' || ch == '.':
			j := i + 1
			for j < len(s) && (rsIdent(s[j]) || s[j] == '.' || (s[j] == '-' || s[j] == '+') && (s[j-1] == 'e' || s[j-1] == 'E')) {
				j++
			}
			p.toks = append(p.toks, rsTok{s[i:j], i})
			i = j
		default:
			p.errorOff(i, 1, fmt.Sprintf("unexpected character '%c' in root signature", ch))
			return
		}
	}
}

func rsIdent(ch byte) bool {
	return ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9'
}

func (p *rsParser) errorOff(off, n int, msg string) {
	if !p.bad {
		k := 0
		for k+1 < len(p.starts) && p.starts[k+1] <= off {
			k++
		}
		at := p.bases[k].advance(off - p.starts[k])
		p.c.rep.errorf(at, at.advance(n), "root signature: %s", msg)
	}
	p.bad = true
}

func (p *rsParser) errorAt(i int, msg string) {
	if i >= len(p.toks) {
		p.errorOff(p.end, 0, msg)
		return
	}
	p.errorOff(p.toks[i].off, len(p.toks[i].text), msg)
}

func (p *rsParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].text
	}
	return ""
}

func (p *rsParser) expect(s string) bool {
	if p.peek() != s {
		found := "the end of the string"
		if p.i < len(p.toks) {
			found = "'" + p.peek() + "'"
		}
		p.errorAt(p.i, fmt.Sprintf("expected '%s', found %s", s, found))
		return false
	}
	p.i++
	return true
}

// element parses one element (a range when inTable).
func (p *rsParser) element(inTable bool) *RootElem {
	if p.i >= len(p.toks) {
		p.errorAt(p.i, "expected a root signature element")
		return nil
	}
	kw := p.i
	k, ok := rootKinds[strings.ToLower(p.peek())]
	isRange := k.name == "Sampler" || k.name == "CBV" || k.name == "SRV" || k.name == "UAV"
	valid := ok && (inTable && isRange || !inTable && k.name != "Sampler")
	if !ok || !valid {
		what := "RootFlags, RootConstants, CBV, SRV, UAV, DescriptorTable or StaticSampler"
		if inTable {
			what = "a descriptor range (CBV, SRV, UAV or Sampler) or visibility"
		}
		p.errorAt(kw, fmt.Sprintf("unknown element '%s': expected %s", p.peek(), what))
		return nil
	}
	p.i++
	e := &RootElem{Kind: k.name, Params: map[string]string{}}
	if !p.expect("(") {
		return nil
	}
	switch {
	case k.name == "RootFlags":
		return p.rootFlags(e)
	case k.name == "DescriptorTable":
		for p.peek() != ")" {
			if p.i >= len(p.toks) {
				p.expect(")")
				return nil
			}
			if strings.EqualFold(p.peek(), "visibility") {
				if !p.param(e, map[string]string{"visibility": "visibility"}) {
					return nil
				}
			} else {
				c := p.element(true)
				if c == nil {
					return nil
				}
				e.Clauses = append(e.Clauses, c)
			}
			if p.peek() != ")" && !p.expect(",") {
				return nil
			}
		}
		p.i++
		return e
	}
	// A register, then named parameters.
	params := rootParams[k.name]
	if inTable {
		params = rangeParams
	}
	if k.name == "RootConstants" {
		// num32BitConstants comes first in D3D's grammar, but the
		// register may be anywhere in the list.
	} else if !p.register(e, k.class) {
		return nil
	}
	for p.peek() != ")" {
		if p.i >= len(p.toks) {
			p.expect(")")
			return nil
		}
		if len(e.Order) > 0 || e.Register != "" {
			if !p.expect(",") {
				return nil
			}
		}
		if k.name == "RootConstants" && e.Register == "" && len(p.peek()) > 0 && isRegister(p.peek()) {
			if !p.register(e, k.class) {
				return nil
			}
			continue
		}
		if !p.param(e, params) {
			return nil
		}
	}
	p.i++
	if k.name == "RootConstants" {
		if _, ok := e.Params["num32bitconstants"]; !ok {
			p.errorAt(kw, "RootConstants requires num32BitConstants")
			return nil
		}
		if e.Register == "" {
			p.errorAt(kw, "RootConstants requires a b register")
			return nil
		}
	}
	return e
}

func isRegister(s string) bool {
	if len(s) < 2 || strings.IndexByte("btusBTUS", s[0]) < 0 {
		return false
	}
	_, err := strconv.ParseUint(s[1:], 10, 32)
	return err == nil
}

// register reads the element's register (b/t/u/s of its class).
func (p *rsParser) register(e *RootElem, class byte) bool {
	t := p.peek()
	if !isRegister(t) {
		p.errorAt(p.i, fmt.Sprintf("expected a register %c<N> for %s", class, e.Kind))
		return false
	}
	if t[0]|0x20 != class {
		p.errorAt(p.i, fmt.Sprintf("invalid register class '%c' for %s: expected '%c'", t[0], e.Kind, class))
		return false
	}
	e.Register = strings.ToLower(t)
	p.i++
	return true
}

// param reads one name=value parameter.
func (p *rsParser) param(e *RootElem, params map[string]string) bool {
	at := p.i
	name := strings.ToLower(p.peek())
	kind, ok := params[name]
	if !ok {
		p.errorAt(at, fmt.Sprintf("unknown parameter '%s' for %s", p.peek(), e.Kind))
		return false
	}
	if _, dup := e.Params[name]; dup {
		p.errorAt(at, fmt.Sprintf("duplicate parameter '%s'", p.peek()))
		return false
	}
	p.i++
	if !p.expect("=") {
		return false
	}
	var vals []string
	for {
		vi := p.i
		v := p.peek()
		if v == "" || strings.IndexAny(v, "(),=|") == 0 {
			p.errorAt(vi, fmt.Sprintf("expected a value for '%s'", rootParamSpelling[name]))
			return false
		}
		if !rootValueOK(kind, v) {
			p.errorAt(vi, fmt.Sprintf("invalid value '%s' for '%s'%s", v, rootParamSpelling[name], rootValueHint(kind)))
			return false
		}
		p.i++
		vals = append(vals, v)
		if !(strings.HasSuffix(kind, "flags") && p.peek() == "|") {
			break
		}
		p.i++
	}
	e.Params[name] = strings.Join(vals, "|")
	e.Order = append(e.Order, name)
	return true
}

// rootFlags reads RootFlags' flag list (or 0).
func (p *rsParser) rootFlags(e *RootElem) *RootElem {
	for {
		v := p.peek()
		if v == "0" {
			p.i++
		} else if !rootValueOK("signature", v) {
			p.errorAt(p.i, fmt.Sprintf("invalid root flag '%s'%s", v, rootValueHint("signature")))
			return nil
		} else {
			e.Flags = append(e.Flags, strings.ToUpper(v))
			p.i++
		}
		if p.peek() != "|" {
			break
		}
		p.i++
	}
	if !p.expect(")") {
		return nil
	}
	return e
}

func rootValueOK(kind, v string) bool {
	switch kind {
	case "uint":
		_, err := strconv.ParseUint(strings.TrimPrefix(v, "+"), 10, 32)
		return err == nil
	case "count":
		_, err := strconv.ParseUint(v, 10, 32)
		return err == nil || strings.EqualFold(v, "unbounded")
	case "offset":
		_, err := strconv.ParseUint(v, 10, 32)
		return err == nil || strings.EqualFold(v, "DESCRIPTOR_RANGE_OFFSET_APPEND")
	case "float":
		_, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(v, "f"), "F"), 32)
		return err == nil
	case "rootflags", "rangeflags":
		if v == "0" {
			return true
		}
	}
	for _, n := range rootEnums[kind] {
		if strings.EqualFold(n, v) {
			return true
		}
	}
	return false
}

func rootValueHint(kind string) string {
	switch kind {
	case "uint":
		return ": expected an unsigned integer"
	case "count":
		return ": expected an unsigned integer or 'unbounded'"
	case "offset":
		return ": expected an unsigned integer or DESCRIPTOR_RANGE_OFFSET_APPEND"
	case "float":
		return ": expected a number"
	case "filter":
		return ": expected a FILTER_… value such as FILTER_MIN_MAG_MIP_LINEAR"
	}
	if vs := rootEnums[kind]; len(vs) > 0 {
		return ": expected one of " + strings.Join(vs, ", ")
	}
	return ""
}
