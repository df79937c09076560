package hlsl

import (
	"sort"
	"strings"
)

// "Did you mean" suggestions.

// suggest returns the candidate closest to name by edit distance, or "".
func suggest(name string, candidates []string) string {
	if len(name) < 3 {
		return ""
	}
	best, bestD := "", 1<<30
	limit := (len(name) + 2) / 3
	if limit < 1 {
		limit = 1
	}
	sort.Strings(candidates)
	for _, cand := range candidates {
		if cand == name {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(cand))
		if d < bestD && d <= limit {
			best, bestD = cand, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance (bounded inputs only).
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// visibleNames lists variable names in scope, for suggestions.
func (c *checker) visibleNames() []string {
	var names []string
	for _, s := range c.scopes {
		for n := range s.vars {
			names = append(names, n)
		}
	}
	return names
}
