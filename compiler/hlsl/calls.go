package hlsl

import (
	"fmt"
	"sort"
	"strings"
)

// checkCall checks a call: user functions with overload resolution, and
// intrinsics. A user function named like an intrinsic is chosen only when
// it matches strictly better than the intrinsic; on a tie (the same
// signature) the intrinsic wins, as in DXC (DirectXShaderCompiler issue
// 1887, vkd3d's intrinsic-override.shader_test).
func (c *checker) checkCall(e *Call) Expr {
	e.T = TypeError
	bad := false
	for i, a := range e.Args {
		if _, isList := a.(*InitList); isList {
			c.errorf(a, "initializer list cannot be used as a function argument")
			bad = true
		}
		e.Args[i] = c.checkExpr(a)
		if e.Args[i].Type().IsError() {
			bad = true
		}
	}
	if !bad {
		if r := c.implicitMethodCall(e); r != nil {
			return r
		}
		if r := c.qualifiedCall(e); r != nil {
			return r
		}
	}
	if fs := c.funcs[e.Name]; len(fs) > 0 {
		if bad {
			return e
		}
		if lookupIntrinsic(e.Name) {
			if in := c.tryIntrinsic(e); in != nil && !userBeatsIntrinsic(e, fs, in) {
				c.checkIntrinsic(e)
				return e
			}
		}
		c.resolveUserCall(e, fs)
		return e
	}
	if lookupIntrinsic(e.Name) {
		if bad {
			return e
		}
		if e.Name == "select" {
			if r := c.selectAggregate(e); r != nil {
				return r
			}
		}
		c.checkIntrinsic(e)
		return e
	}
	if lt, ok := legacyTexIntrinsics[e.Name]; ok {
		if !bad {
			c.checkLegacyTex(e, lt)
		}
		return e
	}
	if v := c.lookupVar(e.Name); v != nil {
		c.rep.errorf(e.NamePos, e.NamePos.advance(len(e.Name)), "called object type '%s' is not a function", v.Type)
		return e
	}
	cands := intrinsicNames()
	for n := range c.funcs {
		cands = append(cands, n)
	}
	if s := suggest(e.Name, cands); s != "" {
		c.rep.errorf(e.NamePos, e.NamePos.advance(len(e.Name)), "use of undeclared identifier '%s'; did you mean '%s'?", e.Name, s)
	} else {
		c.rep.errorf(e.NamePos, e.NamePos.advance(len(e.Name)), "use of undeclared identifier '%s'", e.Name)
	}
	return e
}

// candidate is one overload considered for a call.
type candidate struct {
	f     *FuncDecl
	costs []int
	score uint64 // DXC's ranking score (overload_score.go), lower is better
	why   string // why it is not viable
}

// ordinal spells 1st, 2nd, 3rd...
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// viable computes the conversion costs of calling f with args.
func viable(f *FuncDecl, args []Expr) candidate {
	cd := candidate{f: f}
	required := 0
	for _, p := range f.Params {
		if p.Init == nil {
			required++
		}
	}
	if len(args) > len(f.Params) || len(args) < required {
		if required == len(f.Params) {
			cd.why = fmt.Sprintf("requires %d argument%s, but %d %s provided", len(f.Params), pluralS(len(f.Params)), len(args), wasWere(len(args)))
		} else {
			cd.why = fmt.Sprintf("requires %d to %d arguments, but %d %s provided", required, len(f.Params), len(args), wasWere(len(args)))
		}
		return cd
	}
	for i, a := range args {
		p := f.Params[i]
		at, pt := a.Type(), p.Type
		if i == 0 && f.Owner != nil && !f.isStatic() && at.Kind == KindStruct && at.Struct.DerivesFrom(pt.Struct) {
			continue // the object of a member function (struct_decl.go)
		}
		lit := isUntypedLiteral(a)
		ok, _, cost := convertible(at, pt, convImplicit, lit)
		if p.Dir != DirOut {
			// An out parameter's value does not come from the argument:
			// DXC scores only its copy back (OutConversions).
			cd.score += conversionScore(at, pt, lit)
		}
		if ok && p.Dir != DirIn {
			// The result is copied back: it must convert the other way too.
			ok2, _, cost2 := convertible(pt, at, convImplicit, false)
			ok = ok2
			cost += cost2
			cd.score += conversionScore(pt, at, false)
		}
		if !ok {
			cd.why = fmt.Sprintf("no known conversion from '%s' to '%s' for %s argument", at, pt, ordinal(i+1))
			return cd
		}
		cd.costs = append(cd.costs, cost)
	}
	return cd
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// better reports whether candidate a is at least as good as b for every
// argument and strictly better for one.
func better(a, b candidate) bool {
	strict := false
	for i := range a.costs {
		if i >= len(b.costs) {
			break
		}
		if a.costs[i] > b.costs[i] {
			return false
		}
		if a.costs[i] < b.costs[i] {
			strict = true
		}
	}
	return strict
}

// resolveUserCall picks the best overload of a user function and converts
// the arguments to its parameter types.
func (c *checker) resolveUserCall(e *Call, fs []*FuncDecl) {
	// One candidate per distinct signature (prototypes repeat them).
	var unique []*FuncDecl
	for _, f := range fs {
		dup := false
		for _, g := range unique {
			if sameSignature(f, g) {
				dup = true
				break
			}
		}
		if !dup {
			unique = append(unique, f)
		}
	}
	var ok, all []candidate
	for _, f := range unique {
		cd := viable(f, e.Args)
		all = append(all, cd)
		if cd.why == "" {
			ok = append(ok, cd)
		}
	}
	at := e.NamePos
	end := e.NamePos.advance(len(e.Name))
	if len(ok) == 0 {
		var notes []Diagnostic
		for _, cd := range all {
			notes = append(notes, note(cd.f.NamePos, "candidate function not viable: %s", cd.why))
		}
		c.rep.add(Diagnostic{Severity: Error, Pos: at, End: end,
			Message: fmt.Sprintf("no matching function for call to '%s'", e.Name), Notes: notes})
		return
	}
	// The lowest score wins; a tie is ambiguous (overload_score.go).
	var best []candidate
	for _, a := range ok {
		switch {
		case len(best) == 0 || a.score < best[0].score:
			best = []candidate{a}
		case a.score == best[0].score:
			best = append(best, a)
		}
	}
	if len(best) != 1 {
		sort.SliceStable(best, func(i, j int) bool { return best[i].f.NamePos.Before(best[j].f.NamePos) })
		var notes []Diagnostic
		for _, cd := range best {
			notes = append(notes, note(cd.f.NamePos, "candidate function"))
		}
		var types []string
		for _, a := range e.Args {
			types = append(types, a.Type().String())
		}
		c.rep.add(Diagnostic{Severity: Error, Pos: at, End: end,
			Message: fmt.Sprintf("call to '%s' is ambiguous with arguments (%s)", e.Name, strings.Join(types, ", ")), Notes: notes})
		return
	}
	f := best[0].f
	e.Func = f
	e.T = f.Ret
	for i, a := range e.Args {
		p := f.Params[i]
		if p.Type.Kind == KindArray && p.Type.Len < 0 {
			// Bound as is; sizeUnsizedParams completes the parameter.
			if p.Dir != DirIn {
				c.checkLvalue(a)
			}
			if !hasUnsized(c.unsizedCalls, e) {
				c.unsizedCalls = append(c.unsizedCalls, e)
			}
			continue
		}
		if p.Dir == DirIn {
			e.Args[i] = c.coerce(a, p.Type, fmt.Sprintf("for %s argument of '%s'", ordinal(i+1), f.Name))
			continue
		}
		if i == 0 && f.Owner != nil && !f.isStatic() {
			// The object of a member function: any object of the struct
			// type, written back when it is writable (struct_decl.go).
			if at := a.Type(); !Identical(at, p.Type) && !(at.Kind == KindStruct && at.Struct.DerivesFrom(p.Type.Struct)) {
				c.errorf(a, "cannot call '%s' of '%s' on an object of type '%s'", f.Name, p.Type, a.Type())
			}
			continue
		}
		if !c.checkLvalue(a) {
			continue
		}
		if !Identical(a.Type(), p.Type) {
			e.Args[i] = buildConversion(a, p.Type)
		}
	}
	for i := len(e.Args); i < len(f.Params); i++ {
		e.Args = append(e.Args, f.Params[i].Init)
	}
	if c.curFunc != nil {
		c.calls[c.curFunc] = append(c.calls[c.curFunc], e)
		c.curFunc.Callees = append(c.curFunc.Callees, f)
	}
}

// tryIntrinsic resolves e as an intrinsic call without reporting anything
// or changing e; it returns nil when the intrinsic does not apply.
func (c *checker) tryIntrinsic(e *Call) *Intrinsic {
	saved, savedCalls := c.rep, c.intrinsicCalls[c.curFunc]
	c.rep = newReporter(0)
	trial := *e
	trial.Args = append([]Expr(nil), e.Args...)
	c.checkIntrinsic(&trial)
	failed := c.rep.errors > 0 || trial.T.IsError()
	c.rep = saved
	if c.curFunc != nil {
		c.intrinsicCalls[c.curFunc] = savedCalls
	}
	if failed {
		return nil
	}
	return trial.Intrinsic
}

// userBeatsIntrinsic reports whether some overload in fs needs strictly
// cheaper argument conversions than the resolved intrinsic in.
func userBeatsIntrinsic(e *Call, fs []*FuncDecl, in *Intrinsic) bool {
	ic := candidate{}
	for i, a := range e.Args {
		if i >= len(in.Params) {
			ic.costs = append(ic.costs, 0)
			continue
		}
		_, _, cost := convertible(a.Type(), in.Params[i], convImplicit, isUntypedLiteral(a))
		if Identical(a.Type(), in.Params[i]) {
			cost = 0
		}
		ic.costs = append(ic.costs, cost)
	}
	for _, f := range fs {
		if cd := viable(f, e.Args); cd.why == "" && better(cd, ic) {
			return true
		}
	}
	return false
}

// checkUndefinedCalls reports calls to functions that were declared but
// never defined.
func (c *checker) checkUndefinedCalls() {
	for _, f := range c.prog.Funcs {
		for _, call := range c.calls[f] {
			if call.Func.Def == nil {
				c.rep.add(Diagnostic{Severity: Error, Pos: call.NamePos, End: call.NamePos.advance(len(call.Name)),
					Message: fmt.Sprintf("function '%s' is declared but never defined", call.Name),
					Notes:   []Diagnostic{note(call.Func.NamePos, "declared here")}})
			}
		}
	}
}

func hasUnsized(calls []*Call, e *Call) bool {
	return len(calls) > 0 && calls[len(calls)-1] == e
}
