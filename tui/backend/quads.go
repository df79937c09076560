package backend

import (
	"fmt"
	"sort"
	"strings"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// maxQuadLines bounds the quad listing of the lanes pane.
const maxQuadLines = 32

// formatQuads renders how a pixel shader's invocations were grouped into
// 2×2 quads (compiler/interp/quad.go): per quad, its wave and lanes and
// its four pixels top-left, top-right / bottom-left, bottom-right, with
// helper lanes marked [h] and discarded ones [x]. Other stages have no
// pixel quads: nothing.
func formatQuads(r *interp.Result) []string {
	if r.Stage != ir.StagePixel || len(r.Lanes) == 0 {
		return nil
	}
	type quad struct {
		wave, first int
		cell        [4]*interp.Lane
	}
	byKey := map[[2]int]*quad{}
	var quads []*quad
	helpers := 0
	for i := range r.Lanes {
		l := &r.Lanes[i]
		k := [2]int{l.Wave, l.WaveLane &^ 3}
		q := byKey[k]
		if q == nil {
			q = &quad{wave: l.Wave, first: l.WaveLane &^ 3}
			byKey[k] = q
			quads = append(quads, q)
		}
		q.cell[l.WaveLane&3] = l
		if l.Helper {
			helpers++
		}
	}
	sort.Slice(quads, func(i, j int) bool {
		a, b := quads[i], quads[j]
		return a.wave < b.wave || a.wave == b.wave && a.first < b.first
	})
	out := []string{"", fmt.Sprintf("quads: %d (lanes 4k..4k+3 shade 2×2 pixels: top-left top-right / bottom-left bottom-right; %d helper lanes [h], discarded [x]):", len(quads), helpers)}
	cell := func(l *interp.Lane) string {
		if l == nil {
			return fmt.Sprintf("%-12s", "-")
		}
		s := fmt.Sprintf("(%d,%d)", l.Pixel[0], l.Pixel[1])
		switch {
		case l.Helper:
			s += "[h]"
		case l.Killed:
			s += "[x]"
		}
		return fmt.Sprintf("%-12s", s)
	}
	for i, q := range quads {
		if i >= maxQuadLines {
			out = append(out, fmt.Sprintf("  … %d more quads", len(quads)-i))
			break
		}
		c := q.cell
		out = append(out, strings.TrimRight(fmt.Sprintf("  wave %d lanes %2d-%-2d  %s %s /  %s %s", q.wave, q.first, q.first+3,
			cell(c[0]), cell(c[1]), cell(c[2]), cell(c[3])), " "))
	}
	return out
}
