package passdump

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// This file reads opt's -print-changed=diff and =diff-quiet logs. They
// print the module once in full (*** IR Dump At Start ***) and, after each
// pass that changed a function, the function's body as a diff against its
// previous body: every line of the new and the old text, prefixed with ' '
// (kept), '-' (removed) or '+' (added), so the new body is exactly the
// kept and added lines. A function pass prints one such diff; a module or
// CGSCC pass prints one per function of the module, in module order,
// each after a "*** IR for function <scope> ***" line (LLVM names the
// pass's scope there, not the function). The define line is never part
// of a diff (attribute changes are not shown), so a rebuilt function
// keeps the define line it had at start.
//
// =diff-quiet prints no At Start module: a function gets a made-up
// "define void @f() {" line (with a comment saying so) the first time a
// diff names it, so its text, diffs and CFG are right and an analysis
// that needs the parameters says the import failed.
//
// RebuildDiff turns such a log into the -print-changed log it stands for
// — every changed step printing its functions in full — which the indexer
// then reads like any other log. A module or CGSCC pass's step is the
// whole module (the At Start text with every function's current text); a
// function it emptied is left out (deleted); a function it added cannot
// be named from the diff and is left out too.

// IsDiffLog reports whether the start of a log (head) is a
// -print-changed=diff log: a change banner whose body starts with a diff
// line (" ") or a per-function divider.
func IsDiffLog(head []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(head))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	banner := false
	for sc.Scan() {
		l := sc.Text()
		if banner {
			if l == " " || strings.HasPrefix(l, "*** IR for function ") {
				return true
			}
			if l != "" {
				return false
			}
			continue
		}
		if h, ok := parseHeader(l); ok && h.kind == hAfter && !h.legacy {
			banner = true
		}
	}
	return false
}

// diffFunc is one function of the rebuilt module: its header lines (the
// "; Function Attrs:" comment and the define line) and its body lines.
type diffFunc struct {
	name       string
	head       []string
	body       []string
	start, end int  // the function's lines in the At Start module (end exclusive)
	deleted    bool // a module pass emptied it
}

// RebuildDiff rewrites a -print-changed=diff log as a full -print-changed
// log (see the file comment).
func RebuildDiff(r io.Reader) ([]byte, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var out strings.Builder
	var funcs []*diffFunc
	var start []string // the At Start module's lines
	emit := func(s string) { out.WriteString(s); out.WriteByte('\n') }
	emitFunc := func(f *diffFunc) {
		for _, h := range f.head {
			emit(h)
		}
		for _, b := range f.body {
			emit(b)
		}
		emit("}")
	}
	find := func(name string) *diffFunc {
		for _, f := range funcs {
			if f.name == name {
				return f
			}
		}
		return nil
	}
	for i := 0; i < len(lines); {
		l := lines[i]
		h, isBanner := parseHeader(l)
		if !isBanner {
			emit(l)
			i++
			continue
		}
		// The body runs to the next banner.
		j := i + 1
		for j < len(lines) {
			if _, ok := parseHeader(lines[j]); ok && !strings.HasPrefix(lines[j], "*** IR for function ") {
				break
			}
			j++
		}
		body := lines[i+1 : j]
		switch {
		case h.kind == hStart:
			emit(l)
			for _, b := range body {
				emit(b)
			}
			start, funcs = body, readFuncs(body)
		case h.kind != hAfter || h.legacy || len(body) == 0:
			emit(l)
			for _, b := range body {
				emit(b)
			}
		default:
			parts := splitPerFunction(body)
			emit(l)
			if parts == nil {
				// One function's diff: the scope names it.
				name := h.scope
				if k := strings.Index(name, " in function "); k >= 0 {
					name = name[k+len(" in function "):]
				}
				name = strings.TrimPrefix(name, "@")
				f := find(name)
				if f == nil {
					// =diff-quiet prints no At Start module: the define
					// line is nowhere in the log.
					f = &diffFunc{name: name, head: []string{
						"define void @" + name + "() { ; made up: -print-changed=diff-quiet prints no define line"}}
					funcs = append(funcs, f)
				}
				f.body = applyDiff(body)
				emitFunc(f)
				break
			}
			var live []*diffFunc
			for _, f := range funcs {
				if !f.deleted {
					live = append(live, f)
				}
			}
			// Sections beyond the live functions are functions the pass
			// added (all lines added): they have no name in the diff and
			// are skipped, wherever they are.
			extra := len(parts) - len(live)
			k := 0
			for _, p := range parts {
				if extra > 0 && allAdded(p) {
					extra--
					continue
				}
				if k >= len(live) {
					break
				}
				if nb := applyDiff(p); len(nb) > 0 {
					live[k].body = nb
				} else {
					live[k].deleted = true
				}
				k++
			}
			if start != nil {
				// The whole module: the At Start text with every
				// function's current text (deleted ones left out).
				for k := 0; k < len(start); {
					f := funcAt(funcs, k)
					if f == nil {
						emit(start[k])
						k++
						continue
					}
					if !f.deleted {
						emitFunc(f)
					}
					k = f.end
				}
				break
			}
			for _, f := range live {
				if !f.deleted {
					emitFunc(f)
				}
			}
			for _, f := range live {
				if f.deleted {
					emit("*** IR Deleted After " + h.pass + " on " + f.name + " ***")
				}
			}
		}
		i = j
	}
	return []byte(out.String()), nil
}

// splitPerFunction splits a module or CGSCC diff at its "*** IR for
// function" dividers (nil when the body has none).
func splitPerFunction(body []string) [][]string {
	var parts [][]string
	for _, l := range body {
		if strings.HasPrefix(l, "*** IR for function ") {
			parts = append(parts, nil)
			continue
		}
		if len(parts) > 0 {
			parts[len(parts)-1] = append(parts[len(parts)-1], l)
		}
	}
	return parts
}

// allAdded reports a diff whose every non-blank line is added: a function
// that did not exist before.
func allAdded(d []string) bool {
	added := false
	for _, l := range d {
		switch {
		case l == "" || l == " " || l == "+":
		case l[0] == '+':
			added = true
		default:
			return false
		}
	}
	return added
}

// applyDiff returns the new body of a diff: its kept and added lines,
// without the empty line that starts the diffed text. LLVM diffs block
// by block (each block's text starts with an empty line): a removed or
// renamed block leaves the empty lines around it, which are collapsed.
func applyDiff(d []string) []string {
	var text []string
	for _, l := range d {
		if l == "" {
			continue
		}
		switch l[0] {
		case ' ', '+':
			if l[1:] == "" && len(text) > 0 && text[len(text)-1] == "" {
				continue
			}
			text = append(text, l[1:])
		}
	}
	if len(text) > 0 && text[0] == "" {
		text = text[1:]
	}
	for len(text) > 0 && text[len(text)-1] == "" {
		text = text[:len(text)-1]
	}
	return text
}

// readFuncs reads the function definitions of a module's text.
func readFuncs(lines []string) []*diffFunc {
	var out []*diffFunc
	for k := 0; k < len(lines); k++ {
		l := lines[k]
		if !strings.HasPrefix(l, "define ") {
			continue
		}
		f := &diffFunc{name: funcName(l), start: k}
		if k > 0 && strings.HasPrefix(lines[k-1], "; Function Attrs:") {
			f.head = append(f.head, lines[k-1])
			f.start = k - 1
		}
		f.head = append(f.head, l)
		k++
		for ; k < len(lines) && lines[k] != "}"; k++ {
			f.body = append(f.body, lines[k])
		}
		f.end = k + 1
		out = append(out, f)
	}
	return out
}

// funcAt returns the function whose At Start text begins at line k.
func funcAt(funcs []*diffFunc, k int) *diffFunc {
	for _, f := range funcs {
		if f.start == k {
			return f
		}
	}
	return nil
}
