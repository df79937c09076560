// Package textdiff computes line diffs with intra-line change ranges,
// grouped into unified hunks. The explorer's diff pane, --print-changed=diff
// and replay scripts all use it, so they agree.
package textdiff

import (
	"strconv"
	"strings"
	"sync"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Kind classifies a diff row.
type Kind byte

const (
	Same Kind = ' '
	Add  Kind = '+'
	Del  Kind = '-'
	Hunk Kind = '@'
)

// Range is a half-open byte range [Start, End) of a row's text.
type Range struct{ Start, End int }

// Row is one row of a unified diff. For a changed line that pairs with
// a line on the other side, Pair holds that row's index so the intra-line
// difference can be highlighted.
type Row struct {
	Kind Kind
	A, B int // 1-based line numbers (0 if absent)
	Text string
	Pair int // index of the paired row, -1 if none
}

// Diff is a computed line diff between two texts.
type Diff struct {
	Rows           []Row
	Hunks          []int // row index of each hunk header
	Added, Removed int

	mu    sync.Mutex
	intra map[int][]Range
}

// Context is the number of unchanged lines shown around each change.
const Context = 3

// Compute diffs two texts line by line (diffLines: patience anchoring
// with a bounded Myers fallback) and groups the result into unified hunks
// with context.
func Compute(a, b string) *Diff {
	return ComputeLines(splitLines(a), splitLines(b))
}

// ComputeLines is Compute on texts already split into lines (without
// their newlines); the rows share the given strings.
func ComputeLines(la, lb []string) *Diff {
	ids := make(map[string]int, len(la)+len(lb)/4)
	idOf := func(lines []string) []int {
		out := make([]int, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = len(ids)
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	script := diffLines(idOf(la), idOf(lb))
	type op struct {
		kind Kind
		text string
	}
	ops := make([]op, len(script))
	for i, s := range script {
		if s.kind == Add {
			ops[i] = op{Add, lb[s.b]}
		} else {
			ops[i] = op{s.kind, la[s.a]}
		}
	}
	// Mark which same-lines are within context of a change.
	keep := make([]bool, len(ops))
	last := -1 << 30
	for i, o := range ops {
		if o.kind != Same {
			last = i
		}
		if i-last <= Context {
			keep[i] = true
		}
	}
	last = 1 << 30
	for i := len(ops) - 1; i >= 0; i-- {
		if ops[i].kind != Same {
			last = i
		}
		if last-i <= Context {
			keep[i] = true
		}
	}
	kept := 0
	for _, k := range keep {
		if k {
			kept++
		}
	}
	d := &Diff{Rows: make([]Row, 0, kept+kept/4+1)}
	na, nb := 0, 0
	inHunk := false
	for i, o := range ops {
		switch o.kind {
		case Same:
			na++
			nb++
		case Del:
			na++
			d.Removed++
		case Add:
			nb++
			d.Added++
		}
		if !keep[i] {
			inHunk = false
			continue
		}
		if !inHunk {
			d.Hunks = append(d.Hunks, len(d.Rows))
			d.Rows = append(d.Rows, Row{Kind: Hunk, A: na, B: nb, Pair: -1})
			inHunk = true
		}
		row := Row{Kind: o.kind, Text: o.text, Pair: -1}
		switch o.kind {
		case Same:
			row.A, row.B = na, nb
		case Del:
			row.A = na
		case Add:
			row.B = nb
		}
		d.Rows = append(d.Rows, row)
	}
	d.pairRows()
	d.labelHunks()
	return d
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// pairRows pairs each run of deletions with the following run of additions
// line by line. The character-level difference of a pair is computed only
// when a row is shown (Changed), so a diff with 100k changed lines costs
// nothing for the rows nobody looks at.
func (d *Diff) pairRows() {
	for i := 0; i < len(d.Rows); {
		if d.Rows[i].Kind != Del {
			i++
			continue
		}
		ds := i
		for i < len(d.Rows) && d.Rows[i].Kind == Del {
			i++
		}
		as := i
		for i < len(d.Rows) && d.Rows[i].Kind == Add {
			i++
		}
		n := min(as-ds, i-as)
		for k := 0; k < n; k++ {
			d.Rows[ds+k].Pair, d.Rows[as+k].Pair = as+k, ds+k
		}
	}
}

// Changed returns the byte ranges of row i's text that differ from its
// paired row (nil for unpaired rows). Results are cached; safe for
// concurrent use.
func (d *Diff) Changed(i int) []Range {
	r := d.Rows[i]
	if r.Pair < 0 {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if c, ok := d.intra[i]; ok {
		return c
	}
	if d.intra == nil {
		d.intra = map[int][]Range{}
	}
	del, add := i, r.Pair
	if r.Kind == Add {
		del, add = r.Pair, i
	}
	sa, sb := intraLine(diffmatchpatch.New(), d.Rows[del].Text, d.Rows[add].Text)
	d.intra[del], d.intra[add] = sa, sb
	return d.intra[i]
}

// intraLine returns the byte ranges that differ in a and in b.
func intraLine(dmp *diffmatchpatch.DiffMatchPatch, a, b string) (sa, sb []Range) {
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMain(a, b, false))
	pa, pb := 0, 0
	for _, df := range diffs {
		n := len(df.Text)
		switch df.Type {
		case diffmatchpatch.DiffEqual:
			pa += n
			pb += n
		case diffmatchpatch.DiffDelete:
			sa = append(sa, Range{pa, pa + n})
			pa += n
		case diffmatchpatch.DiffInsert:
			sb = append(sb, Range{pb, pb + n})
			pb += n
		}
	}
	return sa, sb
}

// labelHunks fills hunk header text: "@@ -a,n +b,m @@".
func (d *Diff) labelHunks() {
	for h, start := range d.Hunks {
		end := len(d.Rows)
		if h+1 < len(d.Hunks) {
			end = d.Hunks[h+1]
		}
		na, nb := 0, 0
		fa, fb := 0, 0
		for _, r := range d.Rows[start+1 : end] {
			if r.A > 0 {
				if fa == 0 {
					fa = r.A
				}
				na++
			}
			if r.B > 0 {
				if fb == 0 {
					fb = r.B
				}
				nb++
			}
		}
		d.Rows[start].Text = "@@ -" + strconv.Itoa(fa) + "," + strconv.Itoa(na) + " +" + strconv.Itoa(fb) + "," + strconv.Itoa(nb) + " @@"
	}
}

// Unified renders the diff as plain unified-diff text (for replay output
// and --print-changed=diff).
func (d *Diff) Unified() string {
	var sb strings.Builder
	for _, r := range d.Rows {
		if r.Kind == Hunk {
			sb.WriteString(r.Text)
		} else {
			sb.WriteByte(byte(r.Kind))
			sb.WriteString(r.Text)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
