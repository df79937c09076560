package hlsl

import (
	"passlens/internal/guard"
)

// Options configure a frontend run.
type Options struct {
	// Entry is the entry point's name (default "main").
	Entry string
	// Stage is the shader stage; StageUnknown infers it from [numthreads]
	// and the entry point's semantics.
	Stage Stage
	// Profile is dxc's -T (ParseProfile): its stage is the entry point's
	// (when Stage is StageUnknown) and its shader model gates the
	// features that need a newer one (profile_check.go). Without a
	// profile every feature is accepted, as at LatestShaderModel.
	Profile Profile
	// Library checks the program without requiring an entry point.
	Library bool
	// Defines are "NAME" or "NAME=VALUE" macro definitions, like -D.
	Defines []string
	// IncludeDirs are searched for #include after the including file's
	// directory ("x") or only ("<x>").
	IncludeDirs []string
	// ReadFile reads included files (default os.ReadFile); tests and tools
	// can serve files from memory.
	ReadFile func(path string) ([]byte, error)
	// RowMajor makes matrices row-major by default (like -Zpr).
	RowMajor bool
	// Enable16BitTypes is dxc's -enable-16bit-types: half, float16_t,
	// int16_t and uint16_t are 16-bit types and the min-precision types
	// are their 16-bit types. Without it (the default) half and the
	// min-precision types compute at 32 bits and the *16_t types are
	// refused.
	Enable16BitTypes bool
	// SM1Textures accepts FXC's shader model 1-3 texture intrinsics
	// (tex1D ... texCUBEproj on sampler variables, sm1tex.go), which DXC
	// does not compile; the SM3 target sets it.
	SM1Textures bool
	// MaxErrors caps reported errors (default 20).
	MaxErrors int
	// NoWarnings drops warnings; WarningsAsErrors turns them into errors.
	NoWarnings       bool
	WarningsAsErrors bool
}

func (o *Options) reporter() *reporter {
	r := newReporter(o.MaxErrors)
	r.noWarn = o.NoWarnings
	r.werror = o.WarningsAsErrors
	return r
}

// Frontend preprocesses, parses and checks one shader. It returns the
// checked program (nil only if nothing could be parsed) and all
// diagnostics; check Diagnostics.HasErrors before lowering.
func Frontend(file string, src []byte, opts Options) (*Program, Diagnostics) {
	rep := opts.reporter()
	if opts.Stage == StageUnknown && !opts.Profile.Library {
		opts.Stage = opts.Profile.Stage
	}
	if err := opts.Profile.Check16BitTypes(opts.Enable16BitTypes); err != nil {
		rep.add(Diagnostic{Severity: Error, Pos: Pos{File: file}, Message: err.Error()})
		return &Program{File: file, Sources: Sources{file: src}}, rep.list
	}
	var prog *Program
	guarded(rep, func() {
		prog = parse(file, src, &opts, rep)
		if !rep.stopped() {
			newChecker(rep, &opts, prog).checkProgram()
		}
	})
	if prog == nil {
		prog = &Program{File: file, Sources: Sources{file: src}}
	}
	rep.list.SortByPosition()
	return prog, rep.list
}

// Parse preprocesses and parses a shader without checking it.
func Parse(file string, src []byte, opts Options) (*Program, Diagnostics) {
	rep := opts.reporter()
	if opts.Stage == StageUnknown && !opts.Profile.Library {
		opts.Stage = opts.Profile.Stage
	}
	if err := opts.Profile.Check16BitTypes(opts.Enable16BitTypes); err != nil {
		rep.add(Diagnostic{Severity: Error, Pos: Pos{File: file}, Message: err.Error()})
		return &Program{File: file, Sources: Sources{file: src}}, rep.list
	}
	var prog *Program
	guarded(rep, func() { prog = parse(file, src, &opts, rep) })
	if prog == nil {
		prog = &Program{File: file, Sources: Sources{file: src}}
	}
	rep.list.SortByPosition()
	return prog, rep.list
}

// Check checks a program returned by Parse, annotating it in place. A
// program must be checked at most once.
func Check(prog *Program, opts Options) Diagnostics {
	rep := opts.reporter()
	guarded(rep, func() { newChecker(rep, &opts, prog).checkProgram() })
	rep.list.SortByPosition()
	return rep.list
}

// Preprocess runs only the preprocessor and returns the expanded source
// as text (one space between tokens, lines kept where possible), mainly
// for tools and tests.
func Preprocess(file string, src []byte, opts Options) (string, Diagnostics) {
	rep := opts.reporter()
	var out []byte
	guarded(rep, func() {
		toks, _ := preprocessAll(file, src, &opts, rep)
		line, file := 0, ""
		for i, t := range toks {
			at := t.pos.outermost()
			switch {
			case i > 0 && (at.Line != line || at.File != file):
				out = append(out, '\n')
			case i > 0:
				out = append(out, ' ')
			}
			line, file = at.Line, at.File
			if t.kind == tPragma {
				out = append(out, "#pragma pack_matrix("+t.text+")"...)
				continue
			}
			out = append(out, t.text...)
		}
		if len(out) > 0 {
			out = append(out, '\n')
		}
	})
	return string(out), rep.list
}

// preprocessAll runs the preprocessor over a whole file.
func preprocessAll(file string, src []byte, opts *Options, rep *reporter) ([]token, Sources) {
	sources := Sources{}
	pp := newPreprocessor(rep, opts, sources)
	pp.pushFile(file, src)
	s := &tokenSource{pp: pp, rep: rep, eof: token{kind: tEOF, pos: endPos(file, src)}}
	var toks []token
	for {
		t := s.next()
		if t.kind == tEOF {
			break
		}
		toks = append(toks, t)
	}
	return toks, sources
}

func parse(file string, src []byte, opts *Options, rep *reporter) *Program {
	sources := Sources{}
	pp := newPreprocessor(rep, opts, sources)
	pp.pushFile(file, src)
	// The parser pulls the tokens; EOF is positioned at the end of the
	// main file.
	p := newParser(&tokenSource{pp: pp, rep: rep, eof: token{kind: tEOF, pos: endPos(file, src)}}, rep)
	prog := p.parseProgram(file)
	prog.Sources = sources
	return prog
}

// endPos is the position just past the last character of src.
func endPos(file string, src []byte) Pos {
	line, col := 1, 1
	for _, b := range src {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return Pos{File: file, Line: line, Col: col}
}

// guarded runs f, turning an unexpected panic into an internal-error
// diagnostic (guard's wording). It is a last resort: panics are bugs to be
// fixed, and the fuzz tests look for them.
func guarded(rep *reporter, f func()) {
	defer guard.Handle("hlsl front end", func(e *guard.Error) {
		rep.halted = false
		rep.add(Diagnostic{Severity: Error, Message: e.Error()})
		rep.halted = true
	})
	f()
}
