package llvm

import (
	"strconv"
	"strings"
)

// opt-22 prints an instruction on its own (print<uniformity> does) with a
// slot tracker made for that one function: metadata nodes are numbered by
// a depth-first walk (a node, then its operands) over the module-level
// roots (global variables' attachments, named metadata) and then over the
// nodes the function itself uses, in the order its text names them; and
// attribute groups are numbered over every function's attributes in
// module order, then over the call-site attributes of that function only.
// A file written by LLVM's printer numbers metadata and attribute groups
// over the whole module, so an instruction of the second function of a
// file may say !tbaa !15 where opt prints !14. slotMaps computes, per
// defined function, the renumbering from the file's numbers to opt's.
//
// One more difference comes from opt's reader: declarations of
// intrinsics (llvm.*) get their attributes from LLVM's intrinsic table,
// which never has mustprogress (clang adds it), so groups that differ only
// in it merge. Debug-info nodes (!DILocation, …) are walked in their
// printed field order, which is not always LLVM's operand order; modules
// with debug info may therefore still differ in metadata numbers.

// funcSlots is the renumbering of one function (nil maps: identity).
type funcSlots struct {
	md    map[int]int
	attrs map[int]int
}

// slotMaps scans the tokens of a module (lexed again from src, s being
// src as a string, and never held all at once: see tokstream.go).
func slotMaps(src []byte, s string) map[string]*funcSlots {
	ts := newTokStream(src, s, startOfFile)
	toks := func(i int) token {
		ts.release(i - 1)
		return ts.at(i)
	}
	type fnInfo struct {
		name      string
		intrinsic bool
		define    bool
		fnAttrs   []string // #N on the header
		mdRoots   []int
		callAttrs []string
	}
	var (
		mdOps    = map[int][]int{}
		modRoots []int
		fns      []*fnInfo
		groups   = map[string][]string{} // "N" -> attribute words
	)
	metaNum := func(t token) (int, bool) {
		if t.kind != tMeta || t.text == "" || !allDigits(t.text) {
			return 0, false
		}
		n, err := strconv.Atoi(t.text)
		return n, err == nil
	}
	i := 0
	// rest collects the numbered metadata references up to the next
	// top-level entity (a token in column 1).
	rest := func() []int {
		var out []int
		for toks(i).kind != tEOF && toks(i).col != 1 {
			if k, ok := metaNum(toks(i)); ok {
				out = append(out, k)
			}
			i++
		}
		return out
	}
	for toks(i).kind != tEOF {
		t := toks(i)
		if t.col != 1 {
			i++
			continue
		}
		switch {
		case t.kind == tMeta && ts.at(i+1).text == "=":
			k, numeric := metaNum(t)
			i += 2
			refs := rest()
			if numeric {
				mdOps[k] = refs
			} else {
				modRoots = append(modRoots, refs...)
			}
		case t.kind == tGlobal:
			i++
			modRoots = append(modRoots, rest()...)
		case t.kind == tIdent && t.text == "attributes" && ts.at(i+1).kind == tAttrRef:
			ref := ts.at(i + 1).text
			i += 2
			var words []string
			for toks(i).kind != tEOF && toks(i).col != 1 {
				w := toks(i).text
				if toks(i).kind == tString {
					w = strconv.Quote(w)
				}
				words = append(words, w)
				i++
			}
			groups[ref] = words
		case t.kind == tIdent && (t.text == "define" || t.text == "declare"):
			f := &fnInfo{define: t.text == "define"}
			fns = append(fns, f)
			i++
			inBody := false
			for toks(i).kind != tEOF {
				u := toks(i)
				if u.col == 1 && !(inBody && u.kind == tLabel) && !(inBody && u.kind == tPunct && u.text == "}") {
					break
				}
				if inBody && u.col == 1 && u.kind == tPunct && u.text == "}" {
					i++
					break
				}
				switch {
				case u.kind == tGlobal && f.name == "":
					f.name = u.text
					f.intrinsic = strings.HasPrefix(u.text, "llvm.")
				case u.kind == tAttrRef:
					if inBody {
						f.callAttrs = append(f.callAttrs, u.text)
					} else {
						f.fnAttrs = append(f.fnAttrs, u.text)
					}
				case u.kind == tPunct && u.text == "{" && !inBody && f.define && ts.at(i+1).line != u.line:
					inBody = true
				default:
					if k, ok := metaNum(u); ok {
						f.mdRoots = append(f.mdRoots, k)
					}
				}
				i++
			}
		default:
			i++
		}
	}

	// Metadata: the module-level walk is shared; each function continues it.
	base := map[int]int{}
	next := 0
	var walk func(m map[int]int, k int)
	walk = func(m map[int]int, k int) {
		if _, ok := m[k]; ok {
			return
		}
		m[k] = next
		next++
		for _, op := range mdOps[k] {
			walk(m, op)
		}
	}
	for _, r := range modRoots {
		walk(base, r)
	}
	baseNext := next

	// Attribute groups: function attributes in module order.
	key := func(refs []string, intrinsic bool) string {
		var ws []string
		for _, r := range refs {
			for _, w := range groups[r] {
				if intrinsic && w == "mustprogress" {
					continue
				}
				ws = append(ws, w)
			}
		}
		return strings.Join(ws, " ")
	}
	fnKeys := map[string]int{}
	for _, f := range fns {
		if len(f.fnAttrs) == 0 {
			continue
		}
		k := key(f.fnAttrs, f.intrinsic)
		if k == "" {
			continue
		}
		if _, ok := fnKeys[k]; !ok {
			fnKeys[k] = len(fnKeys)
		}
	}
	// The file's own numbers of the function-attribute groups.
	fileFn := map[string]int{}
	for _, f := range fns {
		if len(f.fnAttrs) == 1 {
			if k, ok := fnKeys[key(f.fnAttrs, f.intrinsic)]; ok {
				fileFn[f.fnAttrs[0]] = k
			}
		}
	}

	out := map[string]*funcSlots{}
	for _, f := range fns {
		if !f.define {
			continue
		}
		fs := &funcSlots{}
		// metadata
		m := make(map[int]int, len(base)+len(f.mdRoots))
		for k, v := range base {
			m[k] = v
		}
		next = baseNext
		for _, r := range f.mdRoots {
			walk(m, r)
		}
		for k, v := range m {
			if k != v {
				fs.md = m
				break
			}
		}
		// attribute groups
		am := map[int]int{}
		for ref, k := range fileFn {
			if n, err := strconv.Atoi(ref); err == nil {
				am[n] = k
			}
		}
		local := map[string]int{}
		for k, v := range fnKeys {
			local[k] = v
		}
		for _, ref := range f.callAttrs {
			k := key([]string{ref}, false)
			num, ok := local[k]
			if !ok {
				num = len(local)
				local[k] = num
			}
			if n, err := strconv.Atoi(ref); err == nil {
				am[n] = num
			}
		}
		for k, v := range am {
			if k != v {
				fs.attrs = am
				break
			}
		}
		if fs.md != nil || fs.attrs != nil {
			out[f.name] = fs
		}
	}
	return out
}

// renumber rewrites the !N and #N references of an instruction's text
// (outside quoted strings) with the function's slot maps.
func (fs *funcSlots) renumber(text string) string {
	if fs == nil || (fs.md == nil && fs.attrs == nil) {
		return text
	}
	var sb strings.Builder
	inStr := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '"' {
			inStr = !inStr
		}
		if !inStr && (c == '!' || c == '#') && i+1 < len(text) && isDigit(text[i+1]) {
			j := i + 1
			for j < len(text) && isDigit(text[j]) {
				j++
			}
			n, err := strconv.Atoi(text[i+1 : j])
			m := fs.md
			if c == '#' {
				m = fs.attrs
			}
			if v, ok := m[n]; ok && err == nil {
				sb.WriteByte(c)
				sb.WriteString(strconv.Itoa(v))
				i = j - 1
				continue
			}
		}
		sb.WriteByte(c)
	}
	return sb.String()
}
