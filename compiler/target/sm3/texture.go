package sm3

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"passlens/compiler/sir"
)

// This file prints SIR's texture reads (sir.OpTex, compiler/sir/texture.go)
// and declares their sampler registers.
//
// Each (texture, sampler) pair the shader reads is one sampler register,
// declared "dcl_2d s#" (Texture1D, Texture2D), "dcl_cube s#" or
// "dcl_volume s#" and listed in the register table as texture+sampler
// (an SM1 sampler, which is both, under its own name). A read gathers its
// coordinate (and w: the level of texldl, the bias of texldb) into the
// scratch register, reads into it, and copies out the components used:
//
//	mov r1.xy, v0
//	texld r1, r1, s0
//	mov r0, r1
//
// texldd takes its gradients from two more whole registers after the
// scratch register. The per-component OpTex instructions of one read
// (same operands) that follow each other print the read once.

// maxSamplerRegs is the number of sampler registers of a profile.
func maxSamplerRegs(profile string) int {
	if profile == "vs_3_0" {
		return 4
	}
	return 16
}

// assignSamplers gives every (texture, sampler) pair its s#, following
// FXC's allocation as vkd3d's combined-samplers.shader_test records it
// for shader model 3 (its expected values are the measurement):
//
//   - a pair whose sampler has a register (register(sN)) takes it unless
//     an earlier pair did;
//   - then the pairs of a separate texture and a sampler state that is
//     not an array element, in the order the samplers are declared (in
//     the order of first read for one sampler): a texture array's pairs
//     take a range as long as the array, element k at its start + k;
//   - then the SM1 samplers (tex2D & co.) by decreasing used size, ties
//     in declaration order (as FXC allocates constants): an array of
//     them takes a range up to the last element read (the elements
//     before it too), and is followed by the pairs of a separate
//     texture with one of its elements (sampler.shader_test :218, with
//     samA, samB[2], samC[3] read at samC[2], samB[0], samA, gives samC
//     s0-s2, samA s3, samB s4).
//
// A range takes the lowest free registers that fit.
func (e *emitter) assignSamplers() {
	used := map[int]bool{}
	var rest []*sir.Sampler
	for _, s := range e.f.Samplers {
		if s.Binding >= 0 && !used[s.Binding] {
			s.Reg = s.Binding
			used[s.Reg] = true
			continue
		}
		rest = append(rest, s)
	}
	order := map[string]int{}
	for i, g := range e.m.Globals {
		order[g.Name()] = i
	}
	// place gives the samplers of a block the registers base+offset of
	// the lowest free range of n registers.
	type member struct {
		s   *sir.Sampler
		off int
	}
	place := func(n int, ms []member) {
		base := 0
		for {
			free := true
			for k := 0; k < n; k++ {
				free = free && !used[base+k]
			}
			if free {
				break
			}
			base++
		}
		for k := 0; k < n; k++ {
			used[base+k] = true
		}
		for _, m := range ms {
			m.s.Reg = base + m.off
		}
	}
	sm1 := func(s *sir.Sampler) bool { return strings.HasPrefix(s.Texture, s.State+".texture") }
	// Pairs with a sampler that is no array element, by sampler
	// declaration; a texture array's pairs with one sampler form a block.
	var pairs []*sir.Sampler
	for _, s := range rest {
		if _, _, _, isElem := e.arrayElem(s.State); !sm1(s) && !isElem {
			pairs = append(pairs, s)
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return order[pairs[i].State] < order[pairs[j].State] })
	done := map[*sir.Sampler]bool{}
	for _, s := range pairs {
		if done[s] {
			continue
		}
		base, _, n, isElem := e.arrayElem(s.Texture)
		if !isElem {
			done[s] = true
			place(1, []member{{s, 0}})
			continue
		}
		var ms []member
		for _, t := range pairs {
			if tb, k, _, ok := e.arrayElem(t.Texture); ok && tb == base && t.State == s.State {
				ms = append(ms, member{t, k})
				done[t] = true
			}
		}
		place(n, ms)
	}
	// SM1 samplers (whole arrays) in declaration order, each followed by
	// the pairs of its elements with separate textures.
	type group struct {
		pos      int
		sm1      []member
		n        int
		elemPair []*sir.Sampler
	}
	groups := map[string]*group{}
	groupOf := func(state string) *group {
		base, k, _, isElem := e.arrayElem(state)
		if !isElem {
			base = state
		}
		g := groups[base]
		if g == nil {
			g = &group{pos: order[state] - max(k, 0)}
			groups[base] = g
		}
		return g
	}
	for _, s := range rest {
		_, k, _, isElem := e.arrayElem(s.State)
		switch {
		case sm1(s):
			g := groupOf(s.State)
			g.sm1 = append(g.sm1, member{s, max(k, 0)})
			g.n = max(g.n, k+1, 1) // the used size: up to the last element read
		case isElem:
			groupOf(s.State).elemPair = append(groupOf(s.State).elemPair, s)
		}
	}
	var gs []*group
	for _, g := range groups {
		gs = append(gs, g)
	}
	sort.Slice(gs, func(i, j int) bool {
		if gs[i].n != gs[j].n {
			return gs[i].n > gs[j].n
		}
		return gs[i].pos < gs[j].pos
	})
	for _, g := range gs {
		if len(g.sm1) > 0 {
			place(g.n, g.sm1)
		}
		for _, s := range g.elemPair {
			place(1, []member{{s, 0}})
		}
	}
}

// arrayElem reports whether global name is element k of a resource array
// of n elements, lowered to one global per element named base.0 …
// base.(n-1) (hlsl/lower/lower_resarray.go).
func (e *emitter) arrayElem(name string) (base string, k, n int, ok bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", -1, 0, false
	}
	k, err := strconv.Atoi(name[i+1:])
	if err != nil || k < 0 {
		return "", -1, 0, false
	}
	base = name[:i]
	g := e.m.Global(name)
	if g == nil {
		return "", -1, 0, false
	}
	for {
		h := e.m.Global(fmt.Sprintf("%s.%d", base, n))
		if h == nil || h.Kind != g.Kind {
			break
		}
		n++
	}
	if k >= n {
		return "", -1, 0, false
	}
	return base, k, n, true
}

// declareSamplers assigns the sampler registers, checks them against the
// profile and adds their dcl lines and register table rows.
func (e *emitter) declareSamplers() error {
	e.assignSamplers()
	for _, s := range e.f.Samplers {
		if s.Reg >= maxSamplerRegs(e.profile) {
			loc := ""
			if s.Loc != "" {
				loc = s.Loc + ": "
			}
			return fmt.Errorf("sm3: %s%s read with %s needs sampler register s%d; %s has s0-s%d", loc, s.Texture, s.State, s.Reg, e.profile, maxSamplerRegs(e.profile)-1)
		}
		e.dcls = append(e.dcls, fmt.Sprintf("dcl_%s s%d", s.Dim, s.Reg))
		e.table = append(e.table, [3]string{samplerName(s), fmt.Sprintf("s%d", s.Reg), "1"})
	}
	return nil
}

// samplerName is a sampler register's name in the register table.
func samplerName(s *sir.Sampler) string {
	if s.Texture == s.State || strings.HasPrefix(s.Texture, s.State+".texture") {
		return s.State // an SM1 sampler (hlsl/lower/lower_sm1tex.go)
	}
	return s.Texture + "+" + s.State
}

// hasGradients reports whether some read of f is a texldd, which needs
// two more registers for its gradients.
func hasGradients(f *sir.Func) bool {
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == sir.OpTex && sir.TexDescOf(in).Kind() == sir.TexLDD {
				return true
			}
		}
	}
	return false
}

// texture prints one component of a texture read into d.
func (e *emitter) texture(in *sir.Instr, d string) error {
	desc := sir.TexDescOf(in)
	if desc.Pair() >= len(e.f.Samplers) {
		return fmt.Errorf("sm3: %sinternal error: texture read of unknown sampler pair %d", instrLoc(in), desc.Pair())
	}
	smp := e.f.Samplers[desc.Pair()]
	ops := make([]string, len(in.Srcs))
	for i, x := range in.Srcs[1:] {
		ops[1+i] = x.String()
	}
	key := fmt.Sprintf("%s s%d %s", desc.Kind(), smp.Reg, strings.Join(ops[1:], ","))
	src := func(i int) string { return e.src(in.Srcs[i]) }
	if key != e.texKey || len(e.body) != e.texEnd {
		comps := []int{0, 1, 2}[:smp.Dim.Coords()]
		if k := desc.Kind(); k == sir.TexLDB || k == sir.TexLDL {
			comps = append(comps, 3)
		}
		for _, i := range comps {
			e.line("mov %s.%c, %s", e.scratchReg, "xyzw"[i], src(1+i))
		}
		if desc.Kind() == sir.TexLDD {
			for g, reg := range []string{e.gradReg(0), e.gradReg(1)} {
				for i := 0; i < smp.Dim.Coords(); i++ {
					e.line("mov %s.%c, %s", reg, "xyzw"[i], src(5+3*g+i))
				}
			}
			e.line("texldd %s, %s, s%d, %s, %s", e.scratchReg, e.scratchReg, smp.Reg, e.gradReg(0), e.gradReg(1))
		} else {
			e.line("%s %s, %s, s%d", desc.Kind(), e.scratchReg, e.scratchReg, smp.Reg)
		}
		e.texKey = key
	}
	e.line("mov %s, %s.%c", d, e.scratchReg, "xyzw"[desc.Comp()])
	e.texEnd = len(e.body)
	return nil
}

// gradReg is the register holding texldd's x (0) or y (1) gradient: the
// registers right after the scratch register.
func (e *emitter) gradReg(i int) string {
	return fmt.Sprintf("r%d", (e.temps+3)/4+1+i)
}
