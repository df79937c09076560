package pipeline

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"passlens/compiler/ir"
)

// Representation choice. A snapshot keeps printed text, not IR: the module
// header (name, struct types, globals) and one text per function, each with
// a 64-bit FNV-1a hash. The live module is mutated in place by the passes
// and never shared, so snapshots need no cloning and are immutable from
// the moment they are created: consumers on other goroutines (the TUI)
// read them without locks. A part whose text did not change is not copied:
// the new snapshot points at the previous snapshot's *Part, so a pipeline of
// N passes over a module stores one copy of each function text per distinct
// version, not N. IR for a snapshot is re-parsed lazily (Module) when an
// analysis or the interpreter needs it; print → parse → print is the
// identity, so the parsed module is exactly what the text shows.
//
// Memory (BENCHMARKS.md): text costs ~40 bytes per instruction, against
// ~300 for a cloned ir.Module, and sharing makes unchanged functions free.

// Part is one printed piece of a snapshot: the module header or one
// function. Parts are shared between snapshots when unchanged.
type Part struct {
	Name string // function name ("" for the header)
	Text string
	Hash uint64 // FNV-1a of Text
}

// NewPart returns the part for a function's (or, with name "", the
// header's) printed text. The SSH server's compile worker rebuilds with it
// the snapshots a child process sent as text (tui/serve/workerproto.go).
func NewPart(name, text string) *Part {
	return &Part{Name: name, Text: text, Hash: fnv64a(text)}
}

// Snapshot is the state of the module after one pipeline step (or the
// input, at index 0). All fields are set when the snapshot is created and
// never change afterwards.
type Snapshot struct {
	Index  int    // 0 for the input, i+1 for step i of the spec
	Pass   string // pass name; "input" for the input snapshot
	Option string // the step's option, if any

	Header *Part
	Funcs  []*Part // in module order

	// Changed reports whether any part differs from the previous snapshot
	// (by hash, confirmed by text). ChangedFuncs names the functions added,
	// removed or changed ("" stands for the header).
	Changed      bool
	ChangedFuncs []string
	// Reported is what the pass itself returned as "changed"; a pass that
	// reports false while Changed is true has a bug (tests check this).
	Reported bool
	Skipped  bool // the step is disabled: the snapshot repeats the previous state

	Duration   time.Duration // wall time of the pass (verification excluded)
	VerifyTime time.Duration // wall time of the verifier after the pass (VerifyEach)
	AllocBytes uint64        // bytes allocated during the pass (process-wide, see Options.MeasureAllocs)
	Allocs     uint64        // heap objects allocated during the pass

	Err *StepError // non-nil if the step failed; later steps did not run

	once   sync.Once
	mod    *ir.Module
	modErr error
}

// Text returns the whole module as printed by ir.Printer (byte-identical to
// Module.String of the module the snapshot was taken from). It is built on
// demand from the shared parts; callers that need it repeatedly should keep
// the result.
func (s *Snapshot) Text() string {
	var sb strings.Builder
	n := 0
	if s.Header != nil {
		n += len(s.Header.Text)
	}
	for _, f := range s.Funcs {
		n += len(f.Text) + 1
	}
	sb.Grow(n)
	header := ""
	if s.Header != nil {
		header = s.Header.Text
	}
	sb.WriteString(header)
	for i, f := range s.Funcs {
		if header != "" || i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(f.Text)
	}
	return sb.String()
}

// Func returns the part of the named function (nil if absent).
func (s *Snapshot) Func(name string) *Part {
	for _, f := range s.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Failed reports whether the step failed.
func (s *Snapshot) Failed() bool { return s.Err != nil }

// Module returns the snapshot's IR, parsed from its text on first use and
// cached. The module is shared by every caller: treat it as read-only (use
// FreshModule for a private, mutable copy).
func (s *Snapshot) Module() (*ir.Module, error) {
	s.once.Do(func() {
		s.mod, s.modErr = s.FreshModule()
	})
	return s.mod, s.modErr
}

// FreshModule parses the snapshot's text into a new module the caller owns.
func (s *Snapshot) FreshModule() (*ir.Module, error) {
	return ir.ParseModule(s.moduleName(), []byte(s.Text()))
}

// moduleName names a parsed snapshot in parse errors.
func (s *Snapshot) moduleName() string {
	if s.Pass != "" {
		return fmt.Sprintf("after %s", s.Pass)
	}
	return "snapshot"
}

// FuncModule parses a new module the caller owns that holds only what one
// function's analysis needs: the header (types, globals), the function fn
// ("" for the first function with a body) and every other function as a
// declaration, so that calls still resolve. On a large module it is a
// small part of FreshModule's cost and memory, and an analysis that keeps
// its function (and so its module) alive keeps only that much. If the
// reduced text does not parse (an unexpected function text), the whole
// module is parsed instead.
func (s *Snapshot) FuncModule(fn string) (*ir.Module, error) {
	target := -1
	for i, f := range s.Funcs {
		if (fn == "" && strings.HasPrefix(f.Text, "define ")) || (fn != "" && f.Name == fn) {
			target = i
			break
		}
	}
	if target < 0 {
		return s.FreshModule()
	}
	var sb strings.Builder
	if s.Header != nil {
		sb.WriteString(s.Header.Text)
		sb.WriteByte('\n')
	}
	for i, f := range s.Funcs {
		if i == target || strings.HasPrefix(f.Text, "declare ") {
			sb.WriteString(f.Text)
			sb.WriteByte('\n')
			continue
		}
		decl, ok := declarationOf(f.Text)
		if !ok {
			return s.FreshModule()
		}
		sb.WriteString(decl)
		sb.WriteByte('\n')
	}
	m, err := ir.ParseModule(s.moduleName(), []byte(sb.String()))
	if err != nil {
		return s.FreshModule()
	}
	return m, nil
}

// declarationOf turns a function's printed text ("define SIG {" and its
// body) into the declaration of the same signature ("declare SIG").
func declarationOf(text string) (string, bool) {
	first, _, _ := strings.Cut(text, "\n")
	sig, ok := strings.CutPrefix(first, "define ")
	if !ok {
		return "", false
	}
	sig, ok = strings.CutSuffix(sig, " {")
	if !ok {
		return "", false
	}
	return "declare " + sig, true
}

// Size returns the bytes of text this snapshot holds that the previous
// one did not (parts shared with prev are not counted); prev may be nil.
func (s *Snapshot) Size(prev *Snapshot) int {
	shared := map[*Part]bool{}
	if prev != nil {
		if prev.Header != nil {
			shared[prev.Header] = true
		}
		for _, f := range prev.Funcs {
			shared[f] = true
		}
	}
	n := 0
	if s.Header != nil && !shared[s.Header] {
		n += len(s.Header.Text)
	}
	for _, f := range s.Funcs {
		if !shared[f] {
			n += len(f.Text)
		}
	}
	return n
}

// fnv64a hashes s without allocating.
func fnv64a(s string) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime
	}
	return h
}

// headerText prints m's name, struct types and globals exactly as
// Printer.Module does before the first function.
func headerText(m *ir.Module) string {
	hm := &ir.Module{Name: m.Name, Structs: m.Structs, Globals: m.Globals}
	return hm.String()
}

// reusePart returns prev if it has the same name and text as (name, text),
// else a new part.
func reusePart(prev *Part, name, text string) (*Part, bool) {
	h := fnv64a(text)
	if prev != nil && prev.Name == name && prev.Hash == h && prev.Text == text {
		return prev, true
	}
	return &Part{Name: name, Text: text, Hash: h}, false
}

// capture prints m into a new snapshot, sharing unchanged parts with prev
// (which may be nil). Printing a module left broken by a panicking pass may
// itself panic; the caller recovers.
func capture(m *ir.Module, prev *Snapshot) *Snapshot {
	s := &Snapshot{}
	var prevHeader *Part
	prevFuncs := map[string]*Part{}
	if prev != nil {
		prevHeader = prev.Header
		for _, f := range prev.Funcs {
			prevFuncs[f.Name] = f
		}
	}
	var same bool
	s.Header, same = reusePart(prevHeader, "", headerText(m))
	if !same && prev != nil {
		s.ChangedFuncs = append(s.ChangedFuncs, "")
	}
	seen := make(map[string]bool, len(m.Funcs))
	s.Funcs = make([]*Part, len(m.Funcs))
	for i, f := range m.Funcs {
		name := f.Name()
		seen[name] = true
		p, same := reusePart(prevFuncs[name], name, f.String())
		s.Funcs[i] = p
		if !same && prev != nil {
			s.ChangedFuncs = append(s.ChangedFuncs, name)
		}
	}
	if prev != nil {
		for _, f := range prev.Funcs {
			if !seen[f.Name] {
				s.ChangedFuncs = append(s.ChangedFuncs, f.Name)
			}
		}
		// Order changes (a function moved) change the text too.
		if len(s.ChangedFuncs) == 0 && len(prev.Funcs) == len(s.Funcs) {
			for i := range s.Funcs {
				if s.Funcs[i] != prev.Funcs[i] {
					s.ChangedFuncs = append(s.ChangedFuncs, s.Funcs[i].Name)
					break
				}
			}
		}
	}
	s.Changed = len(s.ChangedFuncs) > 0
	return s
}

// repeat returns a snapshot with prev's parts (a disabled step, or a failed
// step whose module could not be printed).
func repeat(prev *Snapshot) *Snapshot {
	return &Snapshot{Header: prev.Header, Funcs: prev.Funcs}
}
