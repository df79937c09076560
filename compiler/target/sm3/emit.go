// Package sm3 emits Direct3D shader model 3 assembly (ps_3_0 / vs_3_0) from
// SIR (compiler/sir). The module must have gone through the sm3 pipeline
// (passes.DefaultPipelines[target.SM3]): scalarized, integers carried as
// floats, phis out of SSA, structured control flow with sm3.rep loop
// markers. That pipeline ends with the back end's own pass, sm3-lower
// (compiler/target/sm3/sm3lower), which this package links in.
//
// The emitter lowers the entry point to SIR with a dispatch width of 1 (one
// pixel or vertex), optimizes it, then walks the structured CFG (the merge
// hints SIR keeps from the IR) printing if/else/endif, rep/endrep and
// break_<cmp> (loop aL/endloop when a uniform array is indexed by the loop
// counter). Scalar SIR temporaries get components of r# registers from
// sir.Allocate (shared where live ranges allow), every immediate a
// component of a def'd c# register, every uniform variable consecutive c#
// registers (one per slot of its SIR register array: a matrix row, an array
// element), listed in the header's register table; flags are 0.0 / 1.0
// floats. docs/sm3.md describes the mapping.
package sm3

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"passlens/compiler/ir"
	"passlens/compiler/sir"
	"passlens/compiler/target"
	_ "passlens/compiler/target/sm3/sm3lower" // registers sm3-lower, the last pass of the sm3 pipeline
)

func init() { target.Register(target.SM3, Emit) }

// Emit compiles the module's single entry point (pixel or vertex) to SM3
// assembly.
func Emit(m *ir.Module) (*target.Output, error) {
	eps := m.EntryPoints()
	if len(eps) != 1 {
		return nil, fmt.Errorf("sm3: want exactly one entry point, have %d", len(eps))
	}
	fn := eps[0]
	profile := ""
	switch fn.Entry.Stage {
	case ir.StagePixel:
		profile = "ps_3_0"
	case ir.StageVertex:
		profile = "vs_3_0"
	default:
		return nil, fmt.Errorf("sm3: %s%s shaders have no SM3 profile (entry point %s; SM3 has only ps_3_0 and vs_3_0)", firstLoc(fn), fn.Entry.Stage, fn.Ref())
	}
	f, stages, err := lowerSIR(fn)
	if err != nil {
		return nil, fmt.Errorf("sm3: %w", err)
	}
	if err := sir.Validate(f); err != nil {
		return nil, fmt.Errorf("sm3: internal error: invalid SIR: %w", err)
	}
	e := &emitter{m: m, f: f, profile: profile, loc: map[*sir.Reg]string{}, imm: map[uint32]string{}, repI: map[string]string{}, reads: map[*sir.Reg]int{}, cbase: map[*sir.Reg]int{}, ccomp: map[*sir.Reg]int{}, boolReg: map[*sir.Reg]string{}}
	e.def = map[*sir.Reg]*sir.Instr{}
	writes := map[*sir.Reg]int{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for _, s := range in.Srcs {
				if s.Reg != nil {
					e.reads[s.Reg]++
				}
			}
			if in.Dst != nil {
				writes[in.Dst.Reg]++
				e.def[in.Dst.Reg] = in
			}
		}
	}
	for r, n := range writes {
		if n != 1 {
			delete(e.def, r)
		}
	}
	allocStart := time.Now()
	if err := e.assign(); err != nil {
		return nil, err
	}
	e.findCounterLoops()
	allocTime := time.Since(allocStart)
	if len(f.Blocks) > 0 {
		if _, err := e.walk(f.Blocks[0], loopCtx{}, nil, false); err != nil {
			return nil, err
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	if e.retFlag != "" {
		// The early-return flag starts clear.
		e.body = append([]string{fmt.Sprintf("mov %s, %s", e.retFlag, e.src(sir.Imm32(0)))}, e.body...)
	}
	e.body = merge(dotProducts(e.body))
	stages = append(stages, e.allocStage(allocTime))
	return &target.Output{Text: e.text(), Lang: "sm3", Ext: ".asm", Stages: stages}, nil
}

// firstLoc is "line:col: " of the earliest source location in fn (where
// its body starts), or "" when it has none.
func firstLoc(fn *ir.Function) string {
	best := ir.Loc{}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			l := in.Loc
			if l.Line > 0 && (best.Line == 0 || l.Line < best.Line || l.Line == best.Line && l.Col < best.Col) {
				best = l
			}
		}
	}
	if best.Line == 0 {
		return ""
	}
	return fmt.Sprintf("%d:%d: ", best.Line, best.Col)
}

type emitter struct {
	m          *ir.Module
	f          *sir.Func
	profile    string
	loc        map[*sir.Reg]string // scalar register -> "r0.x", "c1.x", "v0", "oC0"
	table      [][3]string         // header rows: name, reg, size
	imm        map[uint32]string   // immediate bits -> "c3.y"
	defs       []uint32            // immediates in def order
	defBase    int                 // first c# for immediates
	repI       map[string]string   // rep key -> "i0"
	defis      []string            // defi lines
	dcls       []string            // dcl lines
	body       []string
	depth      int
	temps      int    // scalar temporaries assigned so far
	scratch    string // a scalar temporary the emitter may clobber (scratchReg.x)
	scratchReg string // the whole scratch register
	steps      int
	reads      map[*sir.Reg]int          // read counts, for fusing compares into branches
	err        error                     // first operand error met while printing
	repDone    map[*sir.Reg]bool         // sir.Rep.Done flags
	cbase      map[*sir.Reg]int          // const register -> its first c#
	ccomp      map[*sir.Reg]int          // const register placed inside a c# -> its first component
	boolReg    map[*sir.Reg]string       // bool uniform -> its b# (if b#)
	aLoops     map[*sir.Block]bool       // loop headers emitted as "loop aL"
	aLIndex    map[*sir.Instr]*sir.Block // movidx reads addressed by aL, and their loop
	curLoop    *sir.Block                // innermost loop being printed
	def        map[*sir.Reg]*sir.Instr   // the write of each register written once
	contFlags  int                       // continue flags allocated so far
	retFlag    string                    // the early-return flag, once needed
	retSets    int                       // early returns printed so far
	cur        *sir.Instr                // the instruction being printed (for messages)
	vpos       *sir.Reg                  // the pixel position input, if read
	vposCopy   string                    // the register holding vPos + 0.5
	texRegs    int                       // whole registers after the scratch register for texldd's gradients (texture.go)
	texKey     string                    // the texture read whose result the scratch register holds
	texEnd     int                       // len(body) after that read's last line
}

// maxConsts is the number of float constant registers of a profile.
func maxConsts(profile string) int {
	if profile == "vs_3_0" {
		return 256
	}
	return 224
}

// loopCtx is the innermost enclosing rep loop.
type loopCtx struct {
	header, merge *sir.Block
	cont          *sir.Block // the loop's continue block (nil: the header)
	st            *loopState
}

// loopState is what the walk of one loop body learns: the register
// component of its continue flag, once a continue needs one, and how many
// continues it has printed.
type loopState struct {
	flag string
	sets int // continues printed so far
}

func (e *emitter) line(format string, args ...any) {
	e.body = append(e.body, strings.Repeat("    ", e.depth)+fmt.Sprintf(format, args...))
}

// assign maps SIR registers onto SM3 register files.
func (e *emitter) assign() error {
	consts, inputs, outputs := 0, 0, 0
	// Temporaries share r# components where their live ranges allow
	// (sir.Allocate on the logical CFG: one pixel per thread, so every
	// temporary has the same SIMD group).
	slots, nslots := sir.Allocate(e.f)
	if nslots > 31*4 {
		return fmt.Errorf("sm3: %s needs %d scalar temporaries; ps_3_0/vs_3_0 have 128 (spilling is not implemented)", e.f.Name, nslots)
	}
	e.temps = nslots
	if hasGradients(e.f) {
		e.texRegs = 2
	}
	e.repDone = map[*sir.Reg]bool{}
	for _, b := range e.f.Blocks {
		if b.Rep != nil && b.Rep.Done != nil {
			e.repDone[b.Rep.Done] = true
		}
	}
	// One c# per slot of a uniform (components in .xyzw): a matrix takes
	// a register per row (per column when column_major), an array one per
	// element. As fxc does (vkd3d's sm1-const-allocation tests record its
	// rules), only the used size is reserved — the slots up to the last one
	// read, or up to the end of an array read with a dynamic index — and
	// the uniforms are allocated by decreasing used size, then declaration
	// order; one only used as a rep count lives in its i#.
	used := e.usedSlots()
	reserved, err := e.reservations()
	if err != nil {
		return err
	}
	taken := make([][2]int, 0, len(reserved))
	for _, rv := range reserved {
		regs := rv.regs()
		taken = append(taken, regs)
		consts = max(consts, regs[1])
	}
	for _, r := range e.constsInAllocOrder(used) {
		base, fixed := 0, false
		for _, rv := range reserved {
			if rv.name == r.Name {
				base, fixed = rv.comps[0]/4, true
				e.ccomp[r] = rv.comps[0] % 4
			}
		}
		if !fixed {
			base = firstFit(taken, used[r])
			taken = append(taken, [2]int{base, base + used[r]})
		}
		consts = max(consts, base+used[r])
		c := fmt.Sprintf("c%d", base)
		e.cbase[r] = base
		e.loc[r] = c
		if r.Comps == 1 {
			e.loc[r] = c + "." + string("xyzw"[e.ccomp[r]])
		}
		e.table = append(e.table, [3]string{r.Name, c, fmt.Sprint(used[r])})
	}
	for _, r := range e.f.Regs {
		if e.repDone[r] {
			continue // reads as 0.0: rep leaves by itself (see src)
		}
		switch r.File {
		case sir.FileInput:
			if err := e.declareInput(r, &inputs); err != nil {
				return err
			}
		case sir.FileOutput:
			name, err := e.outputName(r, &outputs)
			if err != nil {
				return err
			}
			e.loc[r] = name
		case sir.FileTemp:
			if r.Comps != 1 {
				return fmt.Errorf("sm3: temporary %s has %d components; SIR from the sm3 pipeline is scalar", r.Name, r.Comps)
			}
			n := slots[r]
			e.loc[r] = fmt.Sprintf("r%d.%c", n/4, "xyzw"[n%4])
		}
	}
	if err := e.declareSamplers(); err != nil {
		return err
	}
	if consts > maxConsts(e.profile) {
		return fmt.Errorf("sm3: the uniforms need %d constant registers; %s has %d", consts, e.profile, maxConsts(e.profile))
	}
	e.defBase = consts
	if e.vposCopy != "" {
		e.line("add %s.xy, vPos, %s", e.vposCopy, e.src(sir.Imm32(math.Float32bits(0.5))))
	}
	// A whole scratch register after the allocated ones, for operands SM3
	// wants in a temporary (texkill's source) and for sincos, which writes
	// .x (cos) and .y (sin) of its destination.
	n := (e.temps + 3) / 4
	if n+e.texRegs >= 32 {
		return fmt.Errorf("sm3: no temporary register left for scratch use")
	}
	e.scratchReg = fmt.Sprintf("r%d", n)
	e.scratch = e.scratchReg + ".x"
	return nil
}

// usedSlots is the used size of each const register: one past the last
// slot read (movidx reads reach to the end of the indexed array).
func (e *emitter) usedSlots() map[*sir.Reg]int {
	used := map[*sir.Reg]int{}
	for _, b := range e.f.Blocks {
		for _, in := range b.Instrs {
			for i, s := range in.Srcs {
				if s.Reg == nil || s.Reg.File != sir.FileConst {
					continue
				}
				n := s.Elem + 1
				if in.Op == sir.OpMovIdx && i == 0 {
					n = s.Elem + int(in.Srcs[2].Imm)
				}
				used[s.Reg] = max(used[s.Reg], n)
			}
		}
	}
	return used
}

// reservation is a uniform's register(cN) (or packoffset) placement: the
// components [comps[0], comps[1]) of the constant file (4 per c#) its
// whole type occupies, read or not. Only a scalar or a vector may start
// inside a register (packoffset(c0.y)), and then fits in it.
type reservation struct {
	name  string
	comps [2]int
}

// regs is the c# range the reservation touches.
func (r reservation) regs() [2]int { return [2]int{r.comps[0] / 4, (r.comps[1] + 3) / 4} }

// reservations collects the placed members of the module's constant
// buffers (struct fields with an offset), as fxc keeps register(cN):
// the whole variable is reserved even where the code reads less, and
// the other uniforms are allocated around it.
func (e *emitter) reservations() ([]reservation, error) {
	var rs []reservation
	for _, g := range e.m.Globals {
		if g.Space != ir.SpaceUniform || g.ValType.Kind != ir.KStruct {
			continue
		}
		for _, f := range g.ValType.Fields {
			if !f.Placed {
				continue
			}
			// register(cN[k]): fxc adds k to N (ir.Field.RegShift).
			if f.Offset+16*f.RegShift < 0 {
				return nil, fmt.Errorf("sm3: %suniform %s is placed at c%d, before c0 (register(c%d[%d]))", e.fieldLocOf(g, f), f.Name, f.Offset/16+f.RegShift, f.Offset/16, f.RegShift)
			}
			start := (f.Offset + 16*f.RegShift) / 4
			r := reservation{f.Name, [2]int{start, start + 4*sir.ConstSlots(f.Type)}}
			if f.Type.IsScalar() || f.Type.Kind == ir.KVector {
				r.comps[1] = start + max(f.Type.Len, 1)
			}
			if f.Offset%4 != 0 || start%4 != 0 && (r.comps[1]-1)/4 != start/4 {
				return nil, fmt.Errorf("sm3: %suniform %s at byte offset %d does not fit in c%d; SM3 places a uniform in whole registers or within one", e.fieldLocOf(g, f), f.Name, f.Offset, start/4)
			}
			for _, o := range rs {
				if r.comps[0] < o.comps[1] && o.comps[0] < r.comps[1] {
					return nil, fmt.Errorf("sm3: %suniforms %s (%s) and %s (%s) are given overlapping registers", e.fieldLocOf(g, f), o.name, o.where(), r.name, r.where())
				}
			}
			rs = append(rs, r)
		}
	}
	return rs, nil
}

// where spells the reservation's registers: c1-c4, or c0.yz.
func (r reservation) where() string {
	if r.comps[0]%4 != 0 || r.comps[1]%4 != 0 && r.comps[1]-r.comps[0] < 4 {
		return fmt.Sprintf("c%d.%s", r.comps[0]/4, "xyzw"[r.comps[0]%4:(r.comps[1]-1)%4+1])
	}
	g := r.regs()
	return fmt.Sprintf("c%d-c%d", g[0], g[1]-1)
}

// firstFit returns the lowest register at which n consecutive registers
// are clear of the taken ranges.
func firstFit(taken [][2]int, n int) int {
	base := 0
	for moved := true; moved; {
		moved = false
		for _, t := range taken {
			if base < t[1] && t[0] < base+n {
				base, moved = t[1], true
			}
		}
	}
	return base
}

// constsInAllocOrder lists the const registers some instruction reads by
// decreasing used size, then in the order their uniforms are declared
// (globals, and members of a cbuffer in order); registers the module does
// not name come last.
func (e *emitter) constsInAllocOrder(used map[*sir.Reg]int) []*sir.Reg {
	order := map[string]int{}
	for _, g := range e.m.Globals {
		if g.Space != ir.SpaceUniform {
			continue
		}
		if g.ValType.Kind == ir.KStruct {
			for _, f := range g.ValType.Fields {
				if _, ok := order[f.Name]; !ok {
					order[f.Name] = len(order)
				}
			}
		} else if _, ok := order[g.Name()]; !ok {
			order[g.Name()] = len(order)
		}
	}
	var regs []*sir.Reg
	for _, r := range e.f.Regs {
		if r.File == sir.FileConst && e.reads[r] > 0 {
			regs = append(regs, r)
		}
	}
	rank := func(r *sir.Reg) int {
		if i, ok := order[r.Name]; ok {
			return i
		}
		return len(order) + r.ID
	}
	sort.SliceStable(regs, func(i, j int) bool {
		if used[regs[i]] != used[regs[j]] {
			return used[regs[i]] > used[regs[j]]
		}
		return rank(regs[i]) < rank(regs[j])
	})
	return regs
}

// outputName picks oC#/oPos/o# from the output global's semantic.
func (e *emitter) outputName(r *sir.Reg, next *int) (string, error) {
	sem := ""
	if g := e.m.Global(r.Name); g != nil {
		sem = strings.ToUpper(g.Semantic)
	}
	if e.profile == "ps_3_0" {
		if strings.HasPrefix(sem, "SV_TARGET") || strings.HasPrefix(sem, "COLOR") {
			idx := strings.TrimPrefix(strings.TrimPrefix(sem, "SV_TARGET"), "COLOR")
			if idx == "" {
				idx = "0"
			}
			return "oC" + idx, nil
		}
		if sem == "SV_DEPTH" || sem == "DEPTH" {
			return "oDepth", nil
		}
		return "", fmt.Errorf("sm3: %spixel output %s has semantic %q, which ps_3_0 cannot write", e.globalLoc(r), r.Name, sem)
	}
	return e.declareVSOutput(r, next)
}

// immediate returns the c#.comp holding the float bits v, defining it.
func (e *emitter) immediate(bits uint32) string {
	if s, ok := e.imm[bits]; ok {
		return s
	}
	n := len(e.defs)
	e.defs = append(e.defs, bits)
	s := fmt.Sprintf("c%d.%c", e.defBase+n/4, "xyzw"[n%4])
	e.imm[bits] = s
	return s
}

func (e *emitter) src(s sir.Src) string {
	neg := ""
	if s.Neg {
		neg = "-"
	}
	if s.IsImm() {
		bits := uint32(s.Imm)
		if s.ImmBits == 1 { // flags are 0.0 / 1.0
			bits = 0
			if s.Imm&1 != 0 {
				bits = math.Float32bits(1)
			}
		}
		return neg + e.immediate(bits)
	}
	if e.repDone[s.Reg] {
		// The "cap reached" flag is false inside the loop: when the count
		// runs out, rep itself leaves (and the header is replayed).
		return neg + e.immediate(0)
	}
	l := e.loc[s.Reg]
	off := 0 // a uniform placed inside a register starts at component off
	if base, ok := e.cbase[s.Reg]; ok {
		off = e.ccomp[s.Reg]
		l = fmt.Sprintf("c%d", base+s.Elem)
		if s.Reg.Comps == 1 {
			l += "." + string("xyzw"[off])
		}
	}
	if s.Reg == e.vpos && s.Comp(0) >= 2 && e.err == nil {
		e.err = fmt.Errorf("sm3: %sread of %s.%c: ps_3_0 vPos has only x and y", instrLoc(e.cur), s.Reg.Name, "xyzw"[s.Comp(0)])
	}
	if s.Reg.Comps > 1 {
		base := strings.SplitN(l, ".", 2)[0]
		return fmt.Sprintf("%s%s.%c", neg, base, "xyzw"[s.Comp(0)+off])
	}
	if !strings.Contains(l, ".") {
		l += ".x"
	}
	return neg + l
}

func (e *emitter) dst(d *sir.Dst) string {
	l := e.loc[d.Reg]
	if d.Reg.Comps > 1 {
		var m string
		for i := 0; i < 4; i++ {
			if d.Mask&(1<<i) != 0 {
				m += string("xyzw"[i])
			}
		}
		return strings.SplitN(l, ".", 2)[0] + "." + m
	}
	return l
}

func (e *emitter) text() string {
	var sb strings.Builder
	if len(e.table) > 0 {
		sb.WriteString("//\n// Registers:\n//\n")
		w := 12
		for _, r := range e.table {
			w = max(w, len(r[0]))
		}
		fmt.Fprintf(&sb, "//   %-*s %-5s %s\n", w, "Name", "Reg", "Size")
		fmt.Fprintf(&sb, "//   %s %s %s\n", strings.Repeat("-", w), strings.Repeat("-", 5), strings.Repeat("-", 4))
		for _, r := range e.table {
			fmt.Fprintf(&sb, "//   %-*s %-5s %4s\n", w, r[0], r[1], r[2])
		}
		sb.WriteString("//\n\n")
	}
	sb.WriteString("    " + e.profile + "\n")
	for i := 0; i < len(e.defs); i += 4 {
		var vals []string
		for j := 0; j < 4; j++ {
			v := "0"
			if i+j < len(e.defs) {
				v = fmtFloat(e.defs[i+j])
			}
			vals = append(vals, v)
		}
		fmt.Fprintf(&sb, "    def c%d, %s\n", e.defBase+i/4, strings.Join(vals, ", "))
	}
	for _, d := range e.defis {
		sb.WriteString("    " + d + "\n")
	}
	for _, d := range e.dcls {
		sb.WriteString("    " + d + "\n")
	}
	for _, l := range e.body {
		sb.WriteString("    " + l + "\n")
	}
	return sb.String()
}

func fmtFloat(bits uint32) string {
	f := math.Float32frombits(bits)
	return fmt.Sprintf("%g", f)
}
