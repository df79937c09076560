package textdiff

import "sort"

// lineOp is one line of an edit script over line ids.
type lineOp struct {
	kind Kind
	a, b int // indices into the two inputs (-1 when absent)
}

// diffLines computes an edit script from a to b (slices of line ids).
//
// go-diff's line mode maps lines to runes, which breaks past ~55k distinct
// lines (surrogate code points) and is O(ND) on large edits; IR snapshots of
// 100k instructions with a third of the lines rewritten need better. This is
// patience diff: lines unique in both sides that appear in the same order
// (a longest increasing subsequence) anchor the diff, and the gaps between
// anchors are diffed recursively, falling back to Myers' O(ND) algorithm on
// small gaps and to delete+insert when a gap is large and has no anchors.
func diffLines(a, b []int) []lineOp {
	nid := 0
	for _, x := range a {
		nid = max(nid, x+1)
	}
	for _, x := range b {
		nid = max(nid, x+1)
	}
	sc := &anchorScratch{na: make([]int32, nid), nb: make([]int32, nid), ia: make([]int32, nid), ib: make([]int32, nid)}
	out := make([]lineOp, 0, max(len(a), len(b)))
	var rec func(a0, a1, b0, b1 int, depth int)
	rec = func(a0, a1, b0, b1 int, depth int) {
		// Common prefix and suffix.
		for a0 < a1 && b0 < b1 && a[a0] == b[b0] {
			out = append(out, lineOp{Same, a0, b0})
			a0++
			b0++
		}
		var tail []lineOp
		for a0 < a1 && b0 < b1 && a[a1-1] == b[b1-1] {
			a1--
			b1--
			tail = append(tail, lineOp{Same, a1, b1})
		}
		defer func() {
			for i := len(tail) - 1; i >= 0; i-- {
				out = append(out, tail[i])
			}
		}()
		switch {
		case a0 == a1:
			for j := b0; j < b1; j++ {
				out = append(out, lineOp{Add, -1, j})
			}
			return
		case b0 == b1:
			for i := a0; i < a1; i++ {
				out = append(out, lineOp{Del, i, -1})
			}
			return
		}
		// Small gaps go straight to Myers: anchoring them costs more
		// (a map per gap) than it saves.
		if (a1-a0)+(b1-b0) <= 64 {
			out = append(out, myers(a, b, a0, a1, b0, b1)...)
			return
		}
		anchors := sc.uniqueAnchors(a, b, a0, a1, b0, b1)
		if len(anchors) == 0 || depth > 64 {
			out = append(out, myers(a, b, a0, a1, b0, b1)...)
			return
		}
		pa, pb := a0, b0
		for _, an := range anchors {
			rec(pa, an[0], pb, an[1], depth+1)
			out = append(out, lineOp{Same, an[0], an[1]})
			pa, pb = an[0]+1, an[1]+1
		}
		rec(pa, a1, pb, b1, depth+1)
	}
	rec(0, len(a), 0, len(b), 0)
	return out
}

// anchorScratch holds per-line-id counters reused across recursive calls,
// so anchoring a gap costs O(gap), not a map allocation.
type anchorScratch struct {
	na, nb, ia, ib []int32
}

// uniqueAnchors returns pairs (i, j) of lines unique in a[a0:a1] and in
// b[b0:b1] with a[i] == b[j], restricted to a longest chain increasing in
// both i and j.
func (sc *anchorScratch) uniqueAnchors(a, b []int, a0, a1, b0, b1 int) [][2]int {
	for i := a0; i < a1; i++ {
		sc.na[a[i]]++
		sc.ia[a[i]] = int32(i)
	}
	for j := b0; j < b1; j++ {
		sc.nb[b[j]]++
		sc.ib[b[j]] = int32(j)
	}
	var pairs [][2]int
	for i := a0; i < a1; i++ {
		x := a[i]
		if sc.na[x] == 1 && sc.nb[x] == 1 {
			pairs = append(pairs, [2]int{i, int(sc.ib[x])})
		}
	}
	for i := a0; i < a1; i++ {
		sc.na[a[i]] = 0
	}
	for j := b0; j < b1; j++ {
		sc.nb[b[j]] = 0
	}
	if len(pairs) == 0 {
		return nil
	}
	// Longest increasing subsequence on the b index (patience sorting).
	tails := []int{} // index into pairs of the smallest tail of each length
	prev := make([]int, len(pairs))
	for k, p := range pairs {
		lo := sort.Search(len(tails), func(t int) bool { return pairs[tails[t]][1] >= p[1] })
		if lo > 0 {
			prev[k] = tails[lo-1]
		} else {
			prev[k] = -1
		}
		if lo == len(tails) {
			tails = append(tails, k)
		} else {
			tails[lo] = k
		}
	}
	res := make([][2]int, len(tails))
	for k, i := len(tails)-1, tails[len(tails)-1]; k >= 0; k, i = k-1, prev[i] {
		res[k] = pairs[i]
	}
	return res
}

// myersLimit bounds the O(ND) search; beyond it a gap is reported as a
// block replacement (still a correct, if not minimal, diff).
const myersLimit = 4096

// myers is Myers' greedy O(ND) shortest edit script on a[a0:a1], b[b0:b1].
func myers(a, b []int, a0, a1, b0, b1 int) []lineOp {
	n, m := a1-a0, b1-b0
	maxD := min(n+m, myersLimit)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	trace := make([][]int, 0, 16)
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		// Only diagonals -d-1..d+1 are read when backtracking from step d:
		// keep just that window (trace[d][i] is v[off-d-1+i]).
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[a0+x] == b[b0+y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
	}
	if found < 0 {
		var out []lineOp
		for i := a0; i < a1; i++ {
			out = append(out, lineOp{Del, i, -1})
		}
		for j := b0; j < b1; j++ {
			out = append(out, lineOp{Add, -1, j})
		}
		return out
	}
	// Backtrack.
	var rev []lineOp
	x, y := n, m
	for d := found; d > 0; d-- {
		win := trace[d]
		base := off - d - 1
		vd := func(i int) int { return win[i-base] }
		k := x - y
		var pk int
		if k == -d || (k != d && vd(off+k-1) < vd(off+k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := vd(off + pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, lineOp{Same, a0 + x, b0 + y})
		}
		if x == px {
			y--
			rev = append(rev, lineOp{Add, -1, b0 + y})
		} else {
			x--
			rev = append(rev, lineOp{Del, a0 + x, -1})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, lineOp{Same, a0 + x, b0 + y})
	}
	out := make([]lineOp, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}
