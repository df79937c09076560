package sm3

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"passlens/compiler/interp"
)

// emulator runs the subset of ps_3_0 / vs_3_0 assembly this back end emits,
// for one pixel or vertex: def/defi/defb, mov/add/mul/mad/min/max/rcp/rsq/
// frc/abs/exp/log/pow/sincos/dp3/dp4, slt/sge/cmp, mova and relative
// constant addressing (c5[a0.x], c5[aL]), rep/endrep, loop aL/endloop,
// break, break_<cmp>, if_<cmp>/if b#/else/endif, texkill. It is test code:
// an independent reading of the text, so a wrong register assignment,
// swizzle or control-flow shape in the emitter shows up as a wrong result.
type emulator struct {
	f      map[string]*[4]float32 // r#, c#, v#, vPos, o#, oC#, a0
	i      map[string]*[4]int
	b      map[string]bool
	aL     int
	killed bool
	// Sampler registers: what each s# reads (the interpreter's own
	// sampling, interp.SampledTexture) and its dcl_2d/cube/volume type.
	samplers map[string]*interp.SampledTexture
	sdims    map[string]string
	// quad links the lane to the other three lanes of its 2×2 quad
	// (emu_quad_test.go) for dsx, dsy and implicit-LOD texld; nil when
	// the emulator runs alone (vertex shaders).
	quad *quadLink
}

// emuError is how operand errors leave the instruction loop.
type emuError struct{ err error }

func (e *emulator) freg(name string) *[4]float32 {
	r := e.f[name]
	if r == nil {
		r = &[4]float32{}
		e.f[name] = r
	}
	return r
}

// operand reads a source like "-r1.y" or "c4[a0.x].z" as four components.
func (e *emulator) operand(s string) [4]float32 {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	name, sw := s, "xyzw"
	if i := strings.LastIndexByte(s, '.'); i >= 0 && !strings.HasSuffix(s, "]") {
		name, sw = s[:i], s[i+1:]
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		// Relative addressing: c<base>[a0.x] or c<base>[aL].
		base, err := strconv.Atoi(name[1:i])
		if err != nil || name[0] != 'c' {
			panic(emuError{fmt.Errorf("bad relative operand %q", s)})
		}
		var off int
		switch name[i+1 : len(name)-1] {
		case "a0.x":
			off = int(e.freg("a0")[0])
		case "aL":
			off = e.aL
		default:
			panic(emuError{fmt.Errorf("bad address register in %q", s)})
		}
		name = fmt.Sprintf("c%d", base+off)
	}
	r := e.freg(name)
	var out [4]float32
	for i := 0; i < 4; i++ {
		c := sw[min(i, len(sw)-1)]
		k := strings.IndexByte("xyzw", c)
		if k < 0 {
			panic(emuError{fmt.Errorf("bad swizzle %q", s)})
		}
		out[i] = r[k]
		if neg {
			out[i] = -out[i]
		}
	}
	return out
}

func compare(op string, a, b float32) bool {
	switch op {
	case "lt":
		return a < b
	case "ge":
		return a >= b
	case "gt":
		return a > b
	case "le":
		return a <= b
	case "eq":
		return a == b
	case "ne":
		return a != b
	}
	panic(emuError{fmt.Errorf("bad comparison %q", op)})
}

// runPS executes asm with the given float constants (c#) and integer
// constants (i#.x) and returns oC0 and whether the pixel was killed.
func runPS(asm string, fconst map[string][4]float32, iconst map[string]int) ([4]float32, bool, error) {
	e, err := runSM3(asm, fconst, iconst, nil)
	if err != nil {
		return [4]float32{}, false, err
	}
	return *e.freg("oC0"), e.killed, nil
}

// runSM3 executes asm with the given register contents (c#, v#, vPos),
// integer constants (i#.x) and boolean constants (b#), and returns the
// machine state.
func runSM3(asm string, fregs map[string][4]float32, iconst map[string]int, bconst map[string]bool) (e *emulator, err error) {
	return runSM3Tex(asm, fregs, iconst, bconst, nil)
}

// runSM3Tex is runSM3 with textures: samplers binds s# registers.
func runSM3Tex(asm string, fregs map[string][4]float32, iconst map[string]int, bconst map[string]bool, samplers map[string]*interp.SampledTexture) (e *emulator, err error) {
	e = newEmulator(fregs, iconst, bconst, samplers)
	return e, e.run(asm)
}

// newEmulator is a machine with the given register contents (c#, v#,
// vPos), integer constants (i#.x), boolean constants (b#) and sampler
// registers.
func newEmulator(fregs map[string][4]float32, iconst map[string]int, bconst map[string]bool, samplers map[string]*interp.SampledTexture) *emulator {
	e := &emulator{f: map[string]*[4]float32{}, i: map[string]*[4]int{}, b: map[string]bool{}, samplers: samplers, sdims: map[string]string{}}
	for k, v := range fregs {
		*e.freg(k) = v
	}
	for k, v := range iconst {
		e.i[k] = &[4]int{v}
	}
	for k, v := range bconst {
		e.b[k] = v
	}
	return e
}

// run executes asm on the machine.
func (e *emulator) run(asm string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			ee, ok := r.(emuError)
			if !ok {
				panic(r)
			}
			err = ee.err
		}
	}()
	var lines [][]string
	for _, l := range strings.Split(asm, "\n") {
		l = strings.TrimSpace(l)
		if f := strings.Fields(l); len(f) == 2 && (f[0] == "dcl_2d" || f[0] == "dcl_cube" || f[0] == "dcl_volume") {
			e.sdims[f[1]] = strings.TrimPrefix(f[0], "dcl_")
			continue
		}
		if l == "" || strings.HasPrefix(l, "//") || l == "ps_3_0" || l == "vs_3_0" || strings.HasPrefix(l, "dcl") {
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
	// Match rep/loop with their ends and if/else/endif.
	match := map[int]int{}
	var stack []int
	for pc, l := range lines {
		switch {
		case l[0] == "rep" || l[0] == "loop" || l[0] == "if" || strings.HasPrefix(l[0], "if_"):
			stack = append(stack, pc)
		case l[0] == "else":
			if len(stack) == 0 {
				return fmt.Errorf("unmatched else")
			}
			match[stack[len(stack)-1]] = pc
			stack[len(stack)-1] = pc
		case l[0] == "endrep" || l[0] == "endloop" || l[0] == "endif":
			if len(stack) == 0 {
				return fmt.Errorf("unmatched %s", l[0])
			}
			open := lines[stack[len(stack)-1]][0]
			if (l[0] == "endrep") != (open == "rep") || (l[0] == "endloop") != (open == "loop") {
				return fmt.Errorf("%s closes %s", l[0], open)
			}
			match[stack[len(stack)-1]] = pc
			match[pc] = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("unclosed %s", lines[stack[len(stack)-1]][0])
	}
	type loop struct {
		start, left int
		step        int
		savedAL     int
	}
	var loops []loop
	leave := func() int {
		top := loops[len(loops)-1]
		loops = loops[:len(loops)-1]
		if lines[top.start][0] == "loop" {
			e.aL = top.savedAL
		}
		return match[top.start]
	}
	steps := 0
	for pc := 0; pc < len(lines); pc++ {
		if steps++; steps > 1_000_000 {
			return fmt.Errorf("step limit")
		}
		l := lines[pc]
		src := func(i int) [4]float32 {
			if i >= len(l) {
				panic(emuError{fmt.Errorf("%s: missing operand %d", l[0], i)})
			}
			return e.operand(l[i])
		}
		switch op := l[0]; {
		case op == "def":
			r := e.freg(l[1])
			for k := 0; k < 4; k++ {
				v, err := strconv.ParseFloat(l[2+k], 32)
				if err != nil {
					return err
				}
				r[k] = float32(v)
			}
		case op == "defi":
			var r [4]int
			for k := 0; k < 4; k++ {
				r[k], _ = strconv.Atoi(l[2+k])
			}
			e.i[l[1]] = &r
		case op == "defb":
			e.b[l[1]] = l[2] == "true"
		case op == "rep":
			n := e.i[l[1]]
			if n == nil || n[0] <= 0 {
				pc = match[pc]
				continue
			}
			loops = append(loops, loop{start: pc, left: n[0]})
		case op == "loop": // loop aL, i#: count i#.x, start i#.y, step i#.z
			n := e.i[l[2]]
			if l[1] != "aL" || n == nil {
				return fmt.Errorf("bad loop %v", l)
			}
			if n[0] <= 0 {
				pc = match[pc]
				continue
			}
			loops = append(loops, loop{start: pc, left: n[0], step: n[2], savedAL: e.aL})
			e.aL = n[1]
		case op == "endrep" || op == "endloop":
			top := &loops[len(loops)-1]
			if top.left--; top.left > 0 {
				pc = top.start
				if op == "endloop" {
					e.aL += top.step
				}
			} else {
				leave()
			}
		case strings.HasPrefix(op, "break_"):
			if compare(op[6:], src(1)[0], src(2)[0]) {
				pc = leave()
			}
		case op == "break":
			pc = leave()
		case op == "if": // if b#
			if !e.b[l[1]] {
				pc = match[pc]
			}
		case strings.HasPrefix(op, "if_"):
			if !compare(op[3:], src(1)[0], src(2)[0]) {
				pc = match[pc] // to else (then continue after it) or endif
			}
		case op == "else":
			pc = match[pc]
			for lines[pc][0] != "endif" {
				pc = match[pc]
			}
		case op == "endif":
		case op == "dsx" || op == "dsy":
			e.deriv(pc, l, src(2))
		case strings.HasPrefix(op, "texld"):
			if err := e.texld(pc, l); err != nil {
				return err
			}
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
			var out [4]float32
			for _, c := range mask {
				k := strings.IndexRune("xyzw", c)
				var v float32
				switch op {
				case "mov":
					v = s[0][k]
				case "mova": // rounds to the nearest integer, ties to even:
					// vkd3d's non-const-indexing.shader_test :380 expects
					// an index of 0.5 to read element 0 and 1.5 element 2
					// (D3D9 says "round to nearest").
					v = float32(math.RoundToEven(float64(s[0][k])))
				case "add":
					v = s[0][k] + s[1][k]
				case "mul":
					v = s[0][k] * s[1][k]
				case "mad":
					v = float32(s[0][k]*s[1][k]) + s[2][k] // rounded twice, as the IR computes it
				case "dp3":
					v = float32(s[0][0]*s[1][0]) + float32(s[0][1]*s[1][1]) + float32(s[0][2]*s[1][2])
				case "dp4":
					v = float32(s[0][0]*s[1][0]) + float32(s[0][1]*s[1][1]) + float32(s[0][2]*s[1][2]) + float32(s[0][3]*s[1][3])
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
					return fmt.Errorf("emulator: unknown instruction %q", op)
				}
				out[k] = v
			}
			// All components are computed from the sources before any is
			// written (d may also be a source).
			for _, c := range mask {
				k := strings.IndexRune("xyzw", c)
				d[k] = out[k]
			}
		}
	}
	return nil
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// texld executes texld, texldb, texldl, texldd and texldp through the
// interpreter's sampling (interp.SampledTexture): the coordinate is the
// first source's components (divided by w for texldp), the level of detail
// that of the coordinates' coarse derivatives across the quad, computed
// by the interpreter's own rule (SampledTexture.QuadLOD; texldb adds w to
// it), w for texldl, or from the gradient operands for texldd.
func (e *emulator) texld(pc int, l []string) error {
	op := l[0]
	want := 4
	if op == "texldd" {
		want = 6
	}
	if len(l) != want {
		return fmt.Errorf("%s takes %d operands: %v", op, want-1, l)
	}
	st := e.samplers[l[3]]
	dim, declared := e.sdims[l[3]]
	if st == nil || !declared {
		return fmt.Errorf("%s reads %s, which is not bound or not declared", op, l[3])
	}
	sh := st.Shape()
	got := "2d"
	if sh.Cube {
		got = "cube"
	} else if sh.Coords == 3 {
		got = "volume"
	}
	if dim != got {
		return fmt.Errorf("%s is declared dcl_%s, the bound texture is %s", l[3], dim, got)
	}
	c := e.operand(l[2])
	coord := []float64{float64(c[0]), float64(c[1]), float64(c[2])}
	var lod float64
	switch op {
	case "texld", "texldb":
		q := e.exchange(pc, l, c)
		var err error
		lod, err = st.QuadLOD(f64s(q[0]), f64s(q[1]), f64s(q[2]))
		if err != nil {
			return err
		}
		if op == "texldb" {
			lod += float64(c[3])
		}
	case "texldl":
		lod = float64(c[3])
	case "texldp":
		for i := range coord {
			coord[i] = float64(c[i] / c[3])
		}
	case "texldd":
		dx, dy := e.operand(l[4]), e.operand(l[5])
		var err error
		lod, err = st.GradLOD([]float64{float64(dx[0]), float64(dx[1]), float64(dx[2])}, []float64{float64(dy[0]), float64(dy[1]), float64(dy[2])})
		if err != nil {
			return err
		}
	default:
		return fmt.Errorf("emulator: unknown instruction %q", op)
	}
	texel, err := st.Sample(coord, lod)
	if err != nil {
		return err
	}
	name, mask, _ := strings.Cut(l[1], ".")
	if mask == "" {
		mask = "xyzw"
	}
	d := e.freg(name)
	for _, ch := range mask {
		k := strings.IndexRune("xyzw", ch)
		d[k] = math.Float32frombits(texel[k])
	}
	return nil
}
