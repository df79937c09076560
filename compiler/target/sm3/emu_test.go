package sm3

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// emulator runs the subset of ps_3_0 assembly this back end emits, for one
// pixel with uniform inputs: def/defi, mov/add/mul/mad/min/max/rcp/rsq/frc,
// slt/sge/cmp, rep/endrep, break_<cmp>, if_<cmp>/else/endif, texkill. It is
// test code: an independent reading of the text, so a wrong register
// assignment or swizzle in the emitter shows up as a wrong result.
type emulator struct {
	f      map[string]*[4]float32 // r#, c#, v#, o*
	i      map[string]*[4]int
	killed bool
}

func (e *emulator) freg(name string) *[4]float32 {
	r := e.f[name]
	if r == nil {
		r = &[4]float32{}
		e.f[name] = r
	}
	return r
}

// operand reads a source like "-r1.y" as four components.
func (e *emulator) operand(s string) ([4]float32, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	name, sw, _ := strings.Cut(s, ".")
	if sw == "" {
		sw = "xyzw"
	}
	r := e.freg(name)
	var out [4]float32
	for i := 0; i < 4; i++ {
		c := sw[min(i, len(sw)-1)]
		k := strings.IndexByte("xyzw", c)
		if k < 0 {
			return out, fmt.Errorf("bad swizzle %q", s)
		}
		out[i] = r[k]
		if neg {
			out[i] = -out[i]
		}
	}
	return out, nil
}

func compare(op string, a, b float32) (bool, error) {
	switch op {
	case "lt":
		return a < b, nil
	case "ge":
		return a >= b, nil
	case "gt":
		return a > b, nil
	case "le":
		return a <= b, nil
	case "eq":
		return a == b, nil
	case "ne":
		return a != b, nil
	}
	return false, fmt.Errorf("bad comparison %q", op)
}

// runPS executes asm with the given float constants (c#) and integer
// constants (i#.x) and returns oC0.
func runPS(asm string, fconst map[string][4]float32, iconst map[string]int) ([4]float32, bool, error) {
	e := &emulator{f: map[string]*[4]float32{}, i: map[string]*[4]int{}}
	for k, v := range fconst {
		*e.freg(k) = v
	}
	for k, v := range iconst {
		e.i[k] = &[4]int{v}
	}
	var lines [][]string
	for _, l := range strings.Split(asm, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "//") || l == "ps_3_0" || strings.HasPrefix(l, "dcl") {
			continue
		}
		op, rest, _ := strings.Cut(l, " ")
		args := []string{op}
		for _, a := range strings.Split(rest, ",") {
			if a = strings.TrimSpace(a); a != "" {
				args = append(args, a)
			}
		}
		lines = append(lines, args)
	}
	// Match rep/endrep and if/else/endif.
	match := map[int]int{}
	var stack []int
	for pc, l := range lines {
		switch {
		case l[0] == "rep" || strings.HasPrefix(l[0], "if_"):
			stack = append(stack, pc)
		case l[0] == "else":
			if len(stack) == 0 {
				return [4]float32{}, false, fmt.Errorf("unmatched else")
			}
			match[stack[len(stack)-1]] = pc
			stack[len(stack)-1] = pc
		case l[0] == "endrep" || l[0] == "endif":
			if len(stack) == 0 {
				return [4]float32{}, false, fmt.Errorf("unmatched %s", l[0])
			}
			match[stack[len(stack)-1]] = pc
			match[pc] = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
	}
	type loop struct{ start, left int }
	var loops []loop
	steps := 0
	for pc := 0; pc < len(lines); pc++ {
		if steps++; steps > 1_000_000 {
			return [4]float32{}, false, fmt.Errorf("step limit")
		}
		l := lines[pc]
		src := func(i int) [4]float32 {
			v, err := e.operand(l[i])
			if err != nil {
				panic(err)
			}
			return v
		}
		switch op := l[0]; {
		case op == "def":
			r := e.freg(l[1])
			for k := 0; k < 4; k++ {
				v, err := strconv.ParseFloat(l[2+k], 32)
				if err != nil {
					return [4]float32{}, false, err
				}
				r[k] = float32(v)
			}
		case op == "defi":
			var r [4]int
			for k := 0; k < 4; k++ {
				r[k], _ = strconv.Atoi(l[2+k])
			}
			e.i[l[1]] = &r
		case op == "rep":
			n := e.i[l[1]]
			if n == nil || n[0] <= 0 {
				pc = match[pc]
				continue
			}
			loops = append(loops, loop{pc, n[0]})
		case op == "endrep":
			top := &loops[len(loops)-1]
			if top.left--; top.left > 0 {
				pc = top.start
			} else {
				loops = loops[:len(loops)-1]
			}
		case strings.HasPrefix(op, "break_"):
			ok, err := compare(op[6:], src(1)[0], src(2)[0])
			if err != nil {
				return [4]float32{}, false, err
			}
			if ok {
				pc = match[loops[len(loops)-1].start]
				loops = loops[:len(loops)-1]
			}
		case op == "break":
			pc = match[loops[len(loops)-1].start]
			loops = loops[:len(loops)-1]
		case strings.HasPrefix(op, "if_"):
			ok, err := compare(op[3:], src(1)[0], src(2)[0])
			if err != nil {
				return [4]float32{}, false, err
			}
			if !ok {
				pc = match[pc] // to else (then continue after it) or endif
			}
		case op == "else":
			pc = match[pc]
			for lines[pc][0] != "endif" {
				pc = match[pc]
			}
		case op == "endif":
		case op == "texkill":
			for _, v := range src(1) {
				if v < 0 {
					e.killed = true
				}
			}
		default:
			name, mask, _ := strings.Cut(l[1], ".")
			if mask == "" {
				mask = "xyzw"
			}
			var s [][4]float32
			for i := 2; i < len(l); i++ {
				s = append(s, src(i))
			}
			d := e.freg(name)
			for _, c := range mask {
				k := strings.IndexRune("xyzw", c)
				var v float32
				switch op {
				case "mov":
					v = s[0][k]
				case "add":
					v = s[0][k] + s[1][k]
				case "mul":
					v = s[0][k] * s[1][k]
				case "mad":
					v = s[0][k]*s[1][k] + s[2][k]
				case "min":
					v = min(s[0][k], s[1][k])
				case "max":
					v = max(s[0][k], s[1][k])
				case "rcp":
					v = 1 / s[0][k]
				case "rsq":
					v = float32(1 / math.Sqrt(float64(s[0][k])))
				case "frc":
					v = s[0][k] - float32(math.Floor(float64(s[0][k])))
				case "abs":
					v = float32(math.Abs(float64(s[0][k])))
				case "exp":
					v = float32(math.Exp2(float64(s[0][k])))
				case "log":
					v = float32(math.Log2(math.Abs(float64(s[0][k]))))
				case "pow":
					v = float32(math.Pow(math.Abs(float64(s[0][k])), float64(s[1][k])))
				case "sincos": // .x = cos, .y = sin of the source's first component
					x := float64(s[0][0])
					v = float32(math.Cos(x))
					if k == 1 {
						v = float32(math.Sin(x))
					}
				case "slt":
					v = b2f(s[0][k] < s[1][k])
				case "sge":
					v = b2f(s[0][k] >= s[1][k])
				case "cmp":
					v = s[2][k]
					if s[0][k] >= 0 {
						v = s[1][k]
					}
				default:
					return [4]float32{}, false, fmt.Errorf("emulator: unknown instruction %q", op)
				}
				d[k] = v
			}
		}
	}
	return *e.freg("oC0"), e.killed, nil
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}
