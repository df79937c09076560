package sm3

import (
	"fmt"
	"sort"
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
// for shader model 3: a pair whose sampler has a register (register(sN))
// takes it unless an earlier pair did; the others take the lowest free
// registers, first the pairs of a separate texture and sampler state (in
// the order of their first read), then the SM1 samplers in the order the
// module declares them.
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
	sm1 := func(s *sir.Sampler) bool { return strings.HasPrefix(s.Texture, s.State+".texture") }
	sort.SliceStable(rest, func(i, j int) bool {
		a, b := rest[i], rest[j]
		if sm1(a) != sm1(b) {
			return !sm1(a)
		}
		if sm1(a) {
			return order[a.State] < order[b.State]
		}
		return false
	})
	for _, s := range rest {
		r := 0
		for used[r] {
			r++
		}
		s.Reg = r
		used[r] = true
	}
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
