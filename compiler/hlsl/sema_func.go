package hlsl

import (
	"fmt"
	"strings"
)

// Functions: declarations, overload sets, bodies and the recursion check.

// checkFunc checks a function declaration and its body.
func (c *checker) checkFunc(f *FuncDecl) {
	f.Ret = c.resolveSpec(f.RetSpec, nil)
	if f.Ret.Kind == KindArray && f.Ret.Len < 0 {
		c.errorf(f.RetSpec, "function '%s' cannot return an unsized array", f.Name)
		f.Ret = TypeError
	}
	c.push()
	if f.Owner != nil {
		c.methodScope = len(c.scopes) - 1
	}
	for _, p := range f.Params {
		c.checkVarType(p)
		if p.Type.Kind == KindArray && p.Type.Len < 0 {
			// DXC (unlike FXC) accepts unsized array parameters; the size
			// comes from the calls (sizeUnsizedParams). A private copy of
			// the type is completed in place.
			cp := *p.Type
			p.Type = &cp
		}
		if p.Mods&(ModStatic|ModGroupshared|ModExtern) != 0 {
			c.rep.errorf(p.NamePos, p.NamePos.advance(len(p.Name)), "invalid storage class for parameter '%s'", p.Name)
		}
		c.checkInterpMods(p.Mods, p.NamePos, p.Name, "parameter")
		if p.Init != nil {
			p.Init = c.checkInitializer(p.Init, p.Type)
		}
		c.checkDeclAttrs(p)
		c.declareVar(p)
	}
	if f.Owner == nil {
		c.declareFunc(f)
	} else if f.Body != nil {
		f.Def = f
	}
	entry := c.opts.Entry
	if entry == "" {
		entry = "main"
	}
	for _, a := range f.Attrs {
		switch {
		case a.Namespace != "":
		case strings.EqualFold(a.Name, "numthreads"):
			c.checkNumThreads(a)
		case strings.EqualFold(a.Name, "wavesize"):
			c.checkWaveSize(a)
		case strings.EqualFold(a.Name, "rootsignature"):
			c.checkRootSignatureAttr(a)
		}
	}
	if f.Name != entry && !c.opts.Library {
		for _, p := range f.Params {
			if p.Mods&ModUniform != 0 {
				c.rep.errorf(p.NamePos, p.NamePos.advance(len(p.Name)), "'uniform' is only allowed on entry point parameters")
			}
		}
	}
	if f.Body != nil {
		c.curFunc = f
		c.checkBody(f)
		c.curFunc = nil
		c.prog.Funcs = append(c.prog.Funcs, f)
	}
	c.pop()
}

// declareFunc adds f to its overload set, linking prototypes with their
// definition and rejecting duplicate definitions.
func (c *checker) declareFunc(f *FuncDecl) {
	if v := c.scopes[0].vars[f.Name]; v != nil {
		c.rep.add(Diagnostic{Severity: Error, Pos: f.NamePos, End: f.NamePos.advance(len(f.Name)),
			Message: fmt.Sprintf("redefinition of '%s' as a different kind of symbol", f.Name),
			Notes:   []Diagnostic{note(v.NamePos, "previous definition is here")}})
		return
	}
	if _, ok := c.scopes[0].types[f.Name]; ok {
		c.rep.errorf(f.NamePos, f.NamePos.advance(len(f.Name)), "redefinition of '%s' as a different kind of symbol", f.Name)
		return
	}
	f.Def = nil
	if f.Body != nil {
		f.Def = f
	}
	for _, g := range c.funcs[f.Name] {
		if !sameSignature(f, g) {
			continue
		}
		if !Identical(f.Ret, g.Ret) && !f.Ret.IsError() && !g.Ret.IsError() {
			c.rep.add(Diagnostic{Severity: Error, Pos: f.NamePos, End: f.NamePos.advance(len(f.Name)),
				Message: "functions that differ only in their return type cannot be overloaded",
				Notes:   []Diagnostic{note(g.NamePos, "previous declaration is here")}})
			return
		}
		if f.Body != nil && g.Def != nil {
			c.rep.add(Diagnostic{Severity: Error, Pos: f.NamePos, End: f.NamePos.advance(len(f.Name)),
				Message: fmt.Sprintf("redefinition of '%s'", f.Name),
				Notes:   []Diagnostic{note(g.Def.NamePos, "previous definition is here")}})
			return
		}
		// A prototype and its definition: g stays in the set, and shares
		// the definition.
		if f.Body != nil {
			g.Def = f
			for _, h := range c.funcs[f.Name] {
				if sameSignature(h, f) {
					h.Def = f
				}
			}
		} else {
			f.Def = g.Def
		}
		c.funcs[f.Name] = append(c.funcs[f.Name], f)
		return
	}
	c.funcs[f.Name] = append(c.funcs[f.Name], f)
}

// sameSignature reports whether two functions have identical parameter
// types (and directions).
func sameSignature(a, b *FuncDecl) bool {
	if len(a.Params) != len(b.Params) {
		return false
	}
	for i := range a.Params {
		if !Identical(a.Params[i].Type, b.Params[i].Type) || a.Params[i].Dir != b.Params[i].Dir {
			return false
		}
	}
	return true
}

// sizeUnsizedParams completes unsized array parameters from the calls:
// every call must pass arrays of one length (DXC accepts unsized array
// parameters but gives them no defined size; passlens compiles the one
// size the program uses). An unsized parameter of the entry point, or one
// called with several sizes, is an error.
func (c *checker) sizeUnsizedParams() {
	lens := map[*FuncDecl]map[int]*Call{}
	for _, e := range c.unsizedCalls {
		f := e.Func.Def
		if f == nil {
			f = e.Func
		}
		for i, p := range e.Func.Params {
			if p.Type.Kind != KindArray || p.Type.Len >= 0 || i >= len(e.Args) {
				continue
			}
			if t := e.Args[i].Type(); t.Kind == KindArray && t.Len > 0 {
				if lens[f] == nil {
					lens[f] = map[int]*Call{}
				}
				key := i<<20 | t.Len
				if lens[f][key] == nil {
					lens[f][key] = e
				}
			}
		}
	}
	for _, fs := range c.funcs {
		for _, f := range fs {
			def := f.Def
			if def == nil {
				def = f
			}
			for i, p := range f.Params {
				if p.Type.Kind != KindArray || p.Type.Len >= 0 {
					continue
				}
				n, first := 0, (*Call)(nil)
				for key, call := range lens[def] {
					if key>>20 != i {
						continue
					}
					switch {
					case n == 0:
						n, first = key&(1<<20-1), call
					case key&(1<<20-1) != n:
						if f == def {
							if first.NamePos.Before(call.NamePos) {
								first, call = call, first
							}
							c.rep.add(Diagnostic{Severity: Error, Pos: first.NamePos, End: first.NamePos.advance(len(first.Name)),
								Message: fmt.Sprintf("unsized array parameter '%s' of '%s' is passed arrays of different sizes (not supported by passlens)", p.Name, f.Name),
								Notes:   []Diagnostic{note(call.NamePos, "another size is passed here")}})
						}
					}
				}
				if n > 0 {
					p.Type.Len = n
				}
			}
		}
	}
}

// checkBody checks a function body and that every path returns a value.
func (c *checker) checkBody(f *FuncDecl) {
	c.checkBlockNoScope(f.Body)
	if f.Ret.Kind != KindVoid && !f.Ret.IsError() && !stmtsTerminate(f.Body.Stmts) {
		end := f.Body.E
		if end.Col > 1 {
			end.Col--
		}
		c.rep.errorf(end, end.advance(1), "not all control paths of '%s' return a value", f.Name)
	}
}

// checkRecursion rejects recursive calls (direct or mutual), naming the
// cycle; HLSL has no call stack.
func (c *checker) checkRecursion() {
	const (
		white = iota
		grey
		black
	)
	color := map[*FuncDecl]int{}
	var stack []*FuncDecl
	reported := map[*FuncDecl]bool{}
	var visit func(f *FuncDecl)
	visit = func(f *FuncDecl) {
		color[f] = grey
		stack = append(stack, f)
		for _, call := range c.calls[f] {
			g := call.Func.Def
			if g == nil {
				continue
			}
			switch color[g] {
			case white:
				visit(g)
			case grey:
				// Cycle: from g's position in the stack to f, then back to g.
				i := len(stack) - 1
				for i >= 0 && stack[i] != g {
					i--
				}
				cyc := stack[i:]
				if reported[g] {
					continue
				}
				for _, h := range cyc {
					reported[h] = true
				}
				names := make([]string, 0, len(cyc)+1)
				for _, h := range cyc {
					names = append(names, "'"+h.Name+"'")
				}
				names = append(names, "'"+g.Name+"'")
				msg := fmt.Sprintf("recursive call to '%s' is not allowed (call cycle: %s)", g.Name, strings.Join(names, " -> "))
				var notes []Diagnostic
				if len(cyc) > 1 {
					for _, h := range cyc {
						notes = append(notes, note(h.NamePos, "'%s' is defined here", h.Name))
					}
				}
				c.rep.add(Diagnostic{Severity: Error, Pos: call.NamePos, End: call.NamePos.advance(len(call.Name)), Message: msg, Notes: notes})
			}
		}
		stack = stack[:len(stack)-1]
		color[f] = black
	}
	// DXC looks for recursion in the call graph of the entry point only
	// (SemaHLSLDiagnoseTU.cpp: FDeclsToCheck holds the entry point, or
	// every exported function of a library), so a recursive function
	// nothing calls is accepted (docs/hlsl-rules.md, decl.recursion).
	if !c.opts.Library {
		if entry := c.entryDef(); entry != nil {
			visit(entry)
		}
		return
	}
	for _, f := range c.prog.Funcs {
		if color[f] == white {
			visit(f)
		}
	}
}

// entryDef returns the definition of the entry point, or nil.
func (c *checker) entryDef() *FuncDecl {
	name := c.opts.Entry
	if name == "" {
		name = "main"
	}
	for _, f := range c.funcs[name] {
		if f.Def != nil {
			return f.Def
		}
	}
	return nil
}
