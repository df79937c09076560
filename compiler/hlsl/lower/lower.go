package lower

import (
	"fmt"
	"strings"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
	"passlens/internal/guard"
)

// Lowering turns a checked Program into a passlens IR module, the way
// clang does at -O0: every local variable, parameter copy and temporary
// is an alloca in the entry block, read and written with loads and
// stores, so that the sroa pass has real work to do. Control flow is
// structured and annotated like SPIR-V (selection_merge on if, switch,
// short-circuit operators and control-flow ternaries; loop_merge with a
// continue target on loop headers). Value and block names come from the
// source (`%x` for the alloca of local x, `%x.addr` for the copy of
// parameter x, blocks `if.then`, `for.cond`, `sw.case0`, ...) and every
// instruction carries its source position (ir.Instr.Loc).
//
// Files: lower.go (driver, diagnostics, names), lower_types.go (type
// mapping and the cbuffer/buffer memory layout), lower_globals.go
// (globals), lower_entry.go (the entry point's inputs and outputs),
// lower_func.go (functions, locals, blocks), lower_stmt.go (statements
// and structured control flow), lower_expr.go (expressions),
// lower_lvalue.go (assignable places), lower_conv.go (conversions),
// lower_call.go (user calls), lower_intrinsic.go (intrinsics and buffer
// methods), lower_const.go (compile-time constants).

// Lower translates a checked program (Frontend without errors) to an IR
// module. Diagnostics report constructs that cannot be lowered, with
// their source positions; the module is nil when there are errors. Lower
// never panics: an unexpected failure becomes an "internal compiler
// error" diagnostic.
func Lower(prog *hlsl.Program, opts hlsl.Options) (mod *ir.Module, diags hlsl.Diagnostics) {
	if prog == nil {
		return nil, hlsl.Diagnostics{{Severity: hlsl.Error, Message: "nothing to lower: no program"}}
	}
	l := newLowerer(prog, opts)
	defer guard.Handle("hlsl lowering", func(e *guard.Error) {
		l.diags = append(l.diags, hlsl.Diagnostic{Severity: hlsl.Error, Pos: l.pos, Message: e.Error()})
		mod, diags = nil, l.diags
	})
	l.lowerProgram()
	if l.diags.HasErrors() {
		l.diags.SortByPosition()
		return nil, l.diags
	}
	if needsDemote(l.m) { // lower_demote.go
		l = newLowerer(prog, opts)
		l.demote = true
		l.lowerProgram()
		if l.diags.HasErrors() {
			l.diags.SortByPosition()
			return nil, l.diags
		}
	}
	if err := ir.Verify(l.m); err != nil {
		l.diags = append(l.diags, hlsl.Diagnostic{Severity: hlsl.Error, Pos: hlsl.Pos{File: prog.File},
			Message: "internal compiler error: the lowered module does not verify:\n" + err.Error()})
		return nil, l.diags
	}
	return l.m, l.diags
}

// lowerer holds the module-wide state of one Lower call.
type lowerer struct {
	// demote lowers discard as ps.demote (lower_demote.go).
	demote bool
	prog   *hlsl.Program
	opts   hlsl.Options
	m      *ir.Module
	diags  hlsl.Diagnostics
	pos    hlsl.Pos // position of the construct being lowered, for internal errors

	structs     map[*hlsl.StructDecl]*ir.Type // logical struct types
	memStructs  map[*hlsl.StructDecl]*ir.Type // memory-layout variants (column-major matrices transposed)
	structNames map[string]bool
	// globalNames holds the names of globals and functions: both are
	// spelled @name, so they share one namespace to keep the text
	// unambiguous.
	globalNames map[string]bool

	globals map[*hlsl.VarDecl]*varInfo // global variables, cbuffer members, uniform entry parameters
	funcs   map[*hlsl.FuncDecl]*ir.Function
	// runtimeInits are static globals whose initializer is not a
	// compile-time constant: the entry point initializes them first.
	runtimeInits []*hlsl.VarDecl
	// counters are the hidden counters of RWStructuredBuffers that call
	// IncrementCounter/DecrementCounter.
	counters map[*hlsl.VarDecl]*ir.Global
	// resArrays are the global resource arrays (lower_resarray.go).
	resArrays map[*hlsl.VarDecl]*resArray
	// sm1Textures are the texture globals of SM1 sampler variables
	// (lower_sm1tex.go).
	sm1Textures map[ir.Value]*ir.Global
	// resGlobals are the global buffers by id, resIDs their ids,
	// resStructs the leaves of global resource structs by path
	// (lower_resvalue.go).
	resGlobals     []resGlobal
	resIDs         map[*ir.Global]int
	resStructs     map[*hlsl.VarDecl]map[string]*hlsl.VarDecl
	implicitLeaves []*ir.Global
	// errorAt dedupes "not supported" diagnostics per position.
	errorAt map[hlsl.Pos]bool
}

func newLowerer(prog *hlsl.Program, opts hlsl.Options) *lowerer {
	return &lowerer{
		prog: prog, opts: opts, m: ir.NewModule(baseName(prog.File)),
		structs: map[*hlsl.StructDecl]*ir.Type{}, memStructs: map[*hlsl.StructDecl]*ir.Type{},
		structNames: map[string]bool{}, globalNames: map[string]bool{},
		globals: map[*hlsl.VarDecl]*varInfo{}, funcs: map[*hlsl.FuncDecl]*ir.Function{},
		counters: map[*hlsl.VarDecl]*ir.Global{}, errorAt: map[hlsl.Pos]bool{},
	}
}

// baseName is the file name without directories (the module name).
func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// errorf reports a construct that cannot be lowered. Lowering goes on
// (with undef values) so that one run reports every such construct.
func (l *lowerer) errorf(n hlsl.Node, format string, args ...any) {
	var p, e hlsl.Pos
	if n != nil {
		p, e = n.Pos(), n.End()
	}
	if l.errorAt[p] && p.IsValid() {
		return
	}
	l.errorAt[p] = true
	l.diags = append(l.diags, hlsl.Diagnostic{Severity: hlsl.Error, Pos: p, End: e, Message: fmt.Sprintf(format, args...)})
}

// lowerProgram lowers globals, then the functions reachable from the
// entry point (every function in a library), then the entry point.
func (l *lowerer) lowerProgram() {
	for _, d := range l.prog.Decls {
		if fd, ok := d.(*hlsl.FuncDecl); ok && fd.Body != nil && fd.Ret.IsError() {
			l.errorf(fd, "cannot lower '%s': the program has errors", fd.Name)
			return
		}
	}
	l.lowerGlobals()
	ep := l.prog.Entry
	if ep != nil {
		l.globalNames[ep.Func.Name] = true // the entry function keeps its name
	}
	funcs := l.reachableFuncs()
	// Declare every function first so calls can refer to functions defined
	// later in the source.
	for _, fd := range funcs {
		// The entry point is lowered into the entry function (lowerEntry);
		// nothing else can call it, since HLSL has no recursion.
		if ep != nil && fd == ep.Func {
			continue
		}
		l.declareFunc(fd)
	}
	for _, fd := range funcs {
		if f := l.funcs[fd]; f != nil {
			l.lowerFunc(fd, f)
		}
	}
	if ep != nil {
		l.lowerEntry(ep)
	}
	l.bindLeaves()
}

// reachableFuncs returns the function definitions to lower, in source
// order: those reachable through calls from the entry point and the
// static initializers, or all of them for a library.
func (l *lowerer) reachableFuncs() []*hlsl.FuncDecl {
	if l.prog.Entry == nil {
		return l.prog.Funcs
	}
	seen := map[*hlsl.FuncDecl]bool{}
	var visit func(f *hlsl.FuncDecl)
	visit = func(f *hlsl.FuncDecl) {
		if f == nil || seen[f] {
			return
		}
		seen[f] = true
		for _, c := range f.Callees {
			visit(c.Def)
		}
	}
	visit(l.prog.Entry.Func)
	// Static initializers may call functions too.
	for _, v := range l.prog.Globals {
		walkExpr(v.Init, func(e hlsl.Expr) bool {
			if c, ok := e.(*hlsl.Call); ok && c.Func != nil {
				visit(c.Func.Def)
			}
			return true
		})
	}
	var out []*hlsl.FuncDecl
	for _, f := range l.prog.Funcs {
		if seen[f] {
			out = append(out, f)
		}
	}
	return out
}

// uniqueGlobalName returns base, or base.1, base.2, ... unused by the
// module's globals.
func (l *lowerer) uniqueGlobalName(base string) string {
	return uniqueIn(l.globalNames, base)
}

func uniqueIn(used map[string]bool, base string) string {
	if base == "" {
		base = "anon"
	}
	name := base
	for i := 1; used[name]; i++ {
		name = fmt.Sprintf("%s.%d", base, i)
	}
	used[name] = true
	return name
}

// loc converts a source position to an IR location (positions in
// included files are not representable and become unknown).
func (l *lowerer) loc(p hlsl.Pos) ir.Loc {
	if !p.IsValid() || (p.File != l.prog.File && p.File != "") {
		return ir.Loc{}
	}
	return ir.Loc{Line: int32(p.Line), Col: int32(p.Col)}
}
