package sm3

import (
	"strings"
)

// merge combines adjacent componentwise instructions that write different
// components of one register into one instruction with a write mask, as
// fxc's vector code does: "add r0.x, r0.x, r1.x" and "add r0.y, r0.y,
// r1.x" become "add r0.xy, r0, r1.x". Each operand pair must be the same
// replicated operand (r1.x, c2.y, c0[aL].x) or the same register read at
// the component being written (r0.x for .x, r0.y for .y: the merged operand
// reads it unswizzled). The later instruction must not read what the
// earlier one wrote (the merged one reads all sources first), and
// components stay in xyzw order. Only ops that work per component merge.
func merge(lines []string) []string {
	lines = mergeAdjacent(lines)
	// Then bring a later instruction up next to one it merges with, when
	// no instruction in between touches what it reads or writes (the
	// scalarized code computes x, then y, ... of each value in turn).
	for i := 0; i < len(lines); i++ {
		for moved := true; moved; {
			moved = false
			x, ok := parseAsm(lines[i])
			if !ok {
				break
			}
			for j := i + 1; j < len(lines); j++ {
				y, ok := parseAsm(lines[j])
				if !ok || y.indent != x.indent {
					break // control flow, or an op that is not per component
				}
				m, ok := mergePair(lines[i], lines[j])
				if !ok || !canHoist(lines[i+1:j], y) {
					continue
				}
				lines[i] = m
				lines = append(lines[:j], lines[j+1:]...)
				moved = true
				break
			}
		}
	}
	return lines
}

// canHoist reports whether y may move above the instructions between:
// none of them reads or writes a component y writes, or writes one y reads.
func canHoist(between []string, y asmInstr) bool {
	yw := y.writes()
	yr := y.reads()
	for _, l := range between {
		k, ok := parseAsm(l)
		if !ok {
			return false
		}
		kw := k.writes()
		if overlaps(yw, kw) || overlaps(yw, k.reads()) || overlaps(yr, kw) {
			return false
		}
	}
	return true
}

// writes and reads are the register components an instruction touches.
func (in asmInstr) writes() map[string]bool {
	out := map[string]bool{}
	for _, c := range in.mask {
		out[in.dst+"."+string(c)] = true
	}
	return out
}

func (in asmInstr) reads() map[string]bool {
	out := map[string]bool{}
	for _, s := range in.srcs {
		_, r, sw := operand(s)
		if sw == "" {
			sw = "xyzw"
		}
		for _, c := range sw {
			out[r+"."+string(c)] = true
		}
	}
	return out
}

func overlaps(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// mergeAdjacent merges neighbouring instructions only.
func mergeAdjacent(lines []string) []string {
	var out []string
	for _, l := range lines {
		if n := len(out); n > 0 {
			if m, ok := mergePair(out[n-1], l); ok {
				out[n-1] = m
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

var componentwise = map[string]bool{
	"mov": true, "add": true, "mul": true, "mad": true, "min": true, "max": true,
	"slt": true, "sge": true, "cmp": true, "frc": true, "abs": true,
}

// asmInstr is one parsed instruction line.
type asmInstr struct {
	indent, op string
	dst        string   // register
	mask       string   // "xyzw" letters written
	srcs       []string // operands as printed
}

func parseAsm(l string) (asmInstr, bool) {
	t := strings.TrimLeft(l, " ")
	in := asmInstr{indent: l[:len(l)-len(t)]}
	op, rest, ok := strings.Cut(t, " ")
	if !ok || !componentwise[op] {
		return in, false
	}
	in.op = op
	parts := strings.Split(rest, ", ")
	d, mask, ok := strings.Cut(parts[0], ".")
	if !ok {
		mask = "xyzw"
	}
	in.dst, in.mask, in.srcs = d, mask, parts[1:]
	return in, true
}

// operand splits "-r0.x" into its negation, register and swizzle.
func operand(s string) (neg, reg, sw string) {
	if strings.HasPrefix(s, "-") {
		neg, s = "-", s[1:]
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 && !strings.HasSuffix(s, "]") {
		return neg, s[:i], s[i+1:]
	}
	return neg, s, ""
}

func mergePair(a, b string) (string, bool) {
	x, ok1 := parseAsm(a)
	y, ok2 := parseAsm(b)
	if !ok1 || !ok2 || x.op != y.op || x.indent != y.indent || x.dst != y.dst || len(x.srcs) != len(y.srcs) {
		return "", false
	}
	last := strings.IndexByte("xyzw", x.mask[len(x.mask)-1])
	if len(y.mask) != 1 || strings.IndexByte("xyzw", y.mask[0]) <= last {
		return "", false
	}
	yc := y.mask[0]
	srcs := make([]string, len(x.srcs))
	for i := range x.srcs {
		xn, xr, xs := operand(x.srcs[i])
		yn, yr, ys := operand(y.srcs[i])
		// The later instruction must not read a component the earlier wrote.
		if yr == x.dst && (ys == "" || strings.ContainsAny(ys, x.mask)) {
			return "", false
		}
		switch {
		case x.srcs[i] == y.srcs[i] && len(xs) == 1:
			srcs[i] = x.srcs[i] // replicated
		case xn == yn && xr == yr && !strings.Contains(xr, "[") && ys == string(yc) && aligned(xs, x.mask):
			srcs[i] = xn + xr // read at the written components
		default:
			return "", false
		}
	}
	mask := x.mask + string(yc)
	dst := x.dst
	if mask != "xyzw" {
		dst += "." + mask
	}
	return x.indent + x.op + " " + dst + ", " + strings.Join(srcs, ", "), true
}

// aligned reports whether swizzle sw reads, for a destination mask, the
// component being written: "x" for mask "x", "" (identity) for longer masks
// made by earlier merges.
func aligned(sw, mask string) bool {
	return sw == "" || len(mask) == 1 && sw == mask
}

// dotProducts turns the scalar chains a dot product becomes — "mul d, a.x,
// b.x" then "mad d, a.y, b.y, d" for y, z (and w) — into "dp3 d, a, b" or
// "dp4 d, a, b", fxc's code for a column-major matrix product. The chain
// must take the components in order (or y before x: the first addition
// commutes), so the sum rounds as dp3/dp4 does, add from x up; neither
// a nor b may be d's register.
func dotProducts(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		if n, l := dotChain(lines[i:]); n > 0 {
			out = append(out, l)
			i += n - 1
			continue
		}
		out = append(out, lines[i])
	}
	return out
}

func dotChain(lines []string) (int, string) {
	first, ok := parseAsm(lines[0])
	if !ok || first.op != "mul" || len(first.mask) != 1 {
		return 0, ""
	}
	dst := first.dst + "." + first.mask
	_, ar, as := operand(first.srcs[0])
	_, br, bs := operand(first.srcs[1])
	if len(as) != 1 || as != bs || ar == first.dst || br == first.dst || strings.ContainsAny(ar+br, "[-") ||
		strings.HasPrefix(first.srcs[0], "-") || strings.HasPrefix(first.srcs[1], "-") {
		return 0, ""
	}
	comps := as
	for _, l := range lines[1:min(len(lines), 4)] {
		in, ok := parseAsm(l)
		if !ok || in.op != "mad" || in.dst+"."+in.mask != dst || in.srcs[2] != dst {
			break
		}
		na, a, sa := operand(in.srcs[0])
		nb, b, sb := operand(in.srcs[1])
		if na != "" || nb != "" || a != ar || b != br || len(sa) != 1 || sa != sb || strings.Contains(comps, sa) {
			break
		}
		comps += sa
	}
	switch comps {
	case "xyzw", "yxzw":
		return 4, first.indent + "dp4 " + dst + ", " + ar + ", " + br
	case "xyz", "yxz":
		// Further terms (a different operand pair) stay as they are.
		return 3, first.indent + "dp3 " + dst + ", " + ar + ", " + br
	}
	return 0, ""
}
