package hlsl

import (
	"fmt"
	"sort"
)

// Checks of what an entry point uses, which DXC makes on the compiled
// module (its validator sees only the resources and groupshared variables
// that the entry point reaches, so unused declarations are never
// diagnosed): overlapping explicit register ranges and the groupshared
// memory limit. docs/hlsl-rules.md, reg.overlap and decl.groupshared.

// maxGroupshared is the groupshared memory a compute shader may use
// (DXIL::kMaxTGSMSize; DxilValidation.cpp, SmMaxTGSMSizeOnEntry).
const maxGroupshared = 32768

// reachable lists the functions an entry point reaches, itself first,
// in call order.
func (c *checker) reachable(ep *EntryPoint) []*FuncDecl {
	var out []*FuncDecl
	seen := map[*FuncDecl]bool{}
	var visit func(f *FuncDecl)
	visit = func(f *FuncDecl) {
		if f == nil || seen[f] {
			return
		}
		seen[f] = true
		out = append(out, f)
		for _, call := range c.calls[f] {
			visit(call.Func.Def)
		}
	}
	visit(ep.Func.Def)
	if ep.Func.Def == nil {
		visit(ep.Func)
	}
	return out
}

// usedGlobals returns the global variables and cbuffer members the entry
// point uses, each with its first use, in order of first use.
func (c *checker) usedGlobals(ep *EntryPoint) ([]*VarDecl, map[*VarDecl]*Ident) {
	first := map[*VarDecl]*Ident{}
	var order []*VarDecl
	for _, f := range c.reachable(ep) {
		for _, id := range c.globalUses[f] {
			if _, ok := first[id.Var]; !ok {
				first[id.Var] = id
				order = append(order, id.Var)
			}
		}
	}
	return order, first
}

// binding is one explicitly bound resource range the entry point uses.
type binding struct {
	name  string
	reg   *Register
	count int
}

// checkResourceOverlap rejects two resources of the same register class
// and space whose explicit ranges overlap, when the entry point uses
// both (DxilValidation.cpp, ValidateResourceOverlap:
// SmResourceRangeOverlap).
func (c *checker) checkResourceOverlap(ep *EntryPoint) {
	vars, _ := c.usedGlobals(ep)
	var bs []binding
	cbs := map[*CBuffer]bool{}
	for _, v := range vars {
		switch {
		case v.Buffer != nil && !v.Buffer.Implicit:
			if cb := v.Buffer; !cbs[cb] && cb.Register != nil && cb.Register.Profile == "" {
				cbs[cb] = true
				bs = append(bs, binding{cb.Name, cb.Register, 1})
			}
		case v.Buffer == nil && v.Register != nil && v.Register.Profile == "":
			t, n := v.Type, 1
			for t.Kind == KindArray && t.Len > 0 {
				n *= t.Len
				t = t.Elem
			}
			if t.Kind == KindResource {
				bs = append(bs, binding{v.Name, v.Register, n})
			}
		}
	}
	// Report each overlap once, at the later declaration.
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].reg.P.Before(bs[j].reg.P) })
	for i, b := range bs {
		for _, a := range bs[:i] {
			if a.reg.Class != b.reg.Class || a.reg.Space != b.reg.Space {
				continue
			}
			if a.reg.Index < b.reg.Index+b.count && b.reg.Index < a.reg.Index+a.count {
				c.rep.add(Diagnostic{Severity: Error, Pos: b.reg.P, End: b.reg.E,
					Message: fmt.Sprintf("resource '%s' at register %c%d in space %d overlaps resource '%s' at %c%d (size %d)",
						b.name, b.reg.Class, b.reg.Index, b.reg.Space, a.name, a.reg.Class, a.reg.Index, a.count),
					Notes: []Diagnostic{note(a.reg.P, "'%s' is bound here", a.name)}})
				break
			}
		}
	}
}

// checkGroupsharedSize rejects groupshared variables used by an entry
// point of another stage than compute, and a compute entry point whose groupshared
// variables, counting those it uses, take more than 32 KiB (4 bytes per
// component, bools included). The error is at the first use of the
// variable that goes over, as DXC's validator reports it.
func (c *checker) checkGroupsharedSize(ep *EntryPoint) {
	vars, first := c.usedGlobals(ep)
	total := 0
	for _, v := range vars {
		if v.Mods&ModGroupshared == 0 {
			continue
		}
		if ep.Stage != StageCompute {
			// DxilValidation.cpp: SmTGSMUnsupported "from non-compute
			// entry points", at the first use.
			c.rep.add(Diagnostic{Severity: Error, Pos: first[v].Pos(), End: first[v].End(),
				Message: fmt.Sprintf("groupshared variable '%s' is used in a %s shader; only compute shaders have groupshared memory", v.Name, ep.Stage),
				Notes:   []Diagnostic{note(v.NamePos, "'%s' is declared here", v.Name)}})
			return
		}
		total += 4 * v.Type.ComponentCount()
		if total > maxGroupshared {
			c.rep.add(Diagnostic{Severity: Error, Pos: first[v].Pos(), End: first[v].End(),
				Message: fmt.Sprintf("entry point '%s' uses %d bytes of groupshared memory with '%s'; at most %d are allowed",
					ep.Func.Name, total, v.Name, maxGroupshared),
				Notes: []Diagnostic{note(v.NamePos, "'%s' is declared here", v.Name)}})
			return
		}
	}
}

// maxCBufferBytes is the size of a constant buffer: 4096 registers of 16
// bytes (DXIL::kMaxCBufferSize; DxilValidation.cpp, SmCBufferSize).
const maxCBufferBytes = 4096 * 16

// checkCBufferSize rejects a constant buffer the entry point uses (one of
// its members, or of $Globals) whose D3D layout is larger than 64 KiB, at
// the member that reaches past the end (docs/hlsl-rules.md,
// decl.cbuffer-size).
func (c *checker) checkCBufferSize(ep *EntryPoint) {
	vars, _ := c.usedGlobals(ep)
	seen := map[*CBuffer]bool{}
	for _, v := range vars {
		cb := v.Buffer
		if cb == nil || seen[cb] {
			continue
		}
		seen[cb] = true
		if cb == c.globals {
			layoutBuffer(cb) // final: the entry's uniform parameters have joined it
		}
		var over *VarDecl
		size := 0
		for _, m := range cb.Members {
			sz, _ := CBufferSize(m.Type)
			if end := m.Offset + sz; end > size {
				size = end
				if end > maxCBufferBytes && (over == nil || m.Offset < over.Offset) {
					over = m
				}
			}
		}
		if over != nil {
			c.rep.errorf(over.NamePos, over.NamePos.advance(len(over.Name)),
				"constant buffer '%s' takes %d bytes with '%s'; at most %d (4096 registers) are allowed", cb.Name, size, over.Name, maxCBufferBytes)
		}
	}
}
