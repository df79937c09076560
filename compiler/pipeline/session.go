package pipeline

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"passlens/compiler/ir"
	"passlens/internal/guard"
)

// Session is one module under exploration: its input, the current pipeline,
// the snapshots of the last run, and lazily computed analyses cached per
// snapshot. The TUI, the SSH server and headless replay all drive a
// Session; none of them owns compiler logic.
//
// A Session is safe for concurrent use. Results and snapshots it hands out
// are immutable, so readers may keep using them while a rerun replaces
// them.
type Session struct {
	mu       sync.Mutex
	name     string
	input    string // the input module, printed
	spec     Spec
	opts     Options
	res      *Result
	analyses map[string]AnalysisFunc
}

// AnalysisFunc computes an analysis on a snapshot's module. f is the
// function asked about, or nil for a module-level analysis. The module is
// shared and read-only.
type AnalysisFunc func(m *ir.Module, f *ir.Function) (any, error)

// NewSession starts a session on m with the given pipeline and options.
// The session keeps m's printed text, not m: every run parses a fresh copy,
// so runs are reproducible and the caller's module is never mutated. It
// fails if m does not print and parse back (a bug in the IR package). No
// pipeline runs until Rerun.
func NewSession(m *ir.Module, spec Spec, opts Options) (*Session, error) {
	text := m.String()
	if _, err := ir.ParseModule(m.Name, []byte(text)); err != nil {
		return nil, fmt.Errorf("session: module does not parse back: %w", err)
	}
	return &Session{
		name:     m.Name,
		input:    text,
		spec:     spec,
		opts:     opts,
		analyses: map[string]AnalysisFunc{},
	}, nil
}

// Name returns the module name.
func (s *Session) Name() string { return s.name }

// Input returns the input module text.
func (s *Session) Input() string { return s.input }

// Spec returns the current pipeline.
func (s *Session) Spec() Spec {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.spec
}

// Options returns the run options.
func (s *Session) Options() Options {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts
}

// SetOptions replaces the run options (takes effect at the next Rerun).
func (s *Session) SetOptions(o Options) {
	s.mu.Lock()
	s.opts = o
	s.mu.Unlock()
}

// SetPipeline parses spec and makes it the current pipeline (takes effect
// at the next Rerun). The current pipeline is kept if spec is invalid.
func (s *Session) SetPipeline(spec string) error {
	sp, err := Parse(spec)
	if err != nil {
		return err
	}
	s.SetSpec(sp)
	return nil
}

// SetSpec makes sp the current pipeline (takes effect at the next Rerun).
func (s *Session) SetSpec(sp Spec) {
	s.mu.Lock()
	s.spec = sp
	s.mu.Unlock()
}

// DisableStep disables (or re-enables) step i of the current pipeline.
func (s *Session) DisableStep(i int, disabled bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp, err := s.spec.WithDisabled(i, disabled)
	if err != nil {
		return err
	}
	s.spec = sp
	return nil
}

// MoveStep moves step from to position to in the current pipeline.
func (s *Session) MoveStep(from, to int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp, err := s.spec.WithMoved(from, to)
	if err != nil {
		return err
	}
	s.spec = sp
	return nil
}

// Rerun runs the current pipeline on a fresh copy of the input, replaces
// the session's result and returns it.
func (s *Session) Rerun(ctx context.Context) (*Result, error) {
	s.mu.Lock()
	spec, opts := s.spec, s.opts
	s.mu.Unlock()
	res, err := s.run(ctx, spec, opts)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.res = res
	s.mu.Unlock()
	return res, nil
}

// WhatIf runs an alternative pipeline on the input without touching the
// session's pipeline or result: "what if sroa were disabled", "what if
// simplify ran before inline". Build the alternative with the Spec edit
// methods (WithDisabled, WithMoved, WithInserted, WithRemoved).
func (s *Session) WhatIf(ctx context.Context, alt Spec) (*Result, error) {
	s.mu.Lock()
	opts := s.opts
	s.mu.Unlock()
	return s.run(ctx, alt, opts)
}

func (s *Session) run(ctx context.Context, spec Spec, opts Options) (*Result, error) {
	m, err := ir.ParseModule(s.name, []byte(s.input))
	if err != nil {
		return nil, fmt.Errorf("session: reparsing input: %w", err)
	}
	return Run(ctx, m, spec, opts), nil
}

// Result returns the last run's result (nil before the first Rerun).
func (s *Session) Result() *Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.res
}

// Snapshots returns the last run's snapshots (nil before the first Rerun).
func (s *Session) Snapshots() []*Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.res == nil {
		return nil
	}
	return s.res.Snapshots
}

// RegisterAnalysis makes an analysis available by name (replacing one of
// the same name). Analyses themselves live in compiler/analysis; the
// session only caches their results.
func (s *Session) RegisterAnalysis(name string, fn AnalysisFunc) {
	s.mu.Lock()
	s.analyses[name] = fn
	s.mu.Unlock()
}

// AnalysisNames lists the registered analyses, sorted.
func (s *Session) AnalysisNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.analyses))
	for n := range s.analyses {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Analysis returns analysis name of function fn ("" for module-level) in
// snapshot snap, computing it on first request and caching it on the
// snapshot. Concurrent requests for the same result compute it once.
func (s *Session) Analysis(snap *Snapshot, name, fn string) (any, error) {
	s.mu.Lock()
	a := s.analyses[name]
	s.mu.Unlock()
	if a == nil {
		return nil, fmt.Errorf("unknown analysis %q", name)
	}
	return snap.Analysis(name, fn, a)
}

type analysisKey struct{ name, fn string }

type analysisEntry struct {
	once sync.Once
	val  any
	err  error
}

// Analysis returns the cached result of analysis name for function fn (""
// for module-level), computing it with compute on first use. The snapshot's
// module is parsed lazily for it.
func (s *Snapshot) Analysis(name, fn string, compute AnalysisFunc) (any, error) {
	s.cacheMu.Lock()
	if s.cache == nil {
		s.cache = map[analysisKey]*analysisEntry{}
	}
	k := analysisKey{name, fn}
	e := s.cache[k]
	if e == nil {
		e = &analysisEntry{}
		s.cache[k] = e
	}
	s.cacheMu.Unlock()
	e.once.Do(func() {
		m, err := s.Module()
		if err != nil {
			e.err = err
			return
		}
		var f *ir.Function
		if fn != "" {
			if f = m.Func(fn); f == nil {
				e.err = fmt.Errorf("no function @%s in snapshot %d (%s)", fn, s.Index, s.Pass)
				return
			}
		}
		func() {
			defer guard.Recover(&e.err, "analysis "+name)
			e.val, e.err = compute(m, f)
		}()
	})
	return e.val, e.err
}
