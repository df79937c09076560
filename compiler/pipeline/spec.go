// Package pipeline runs a sequence of passes (compiler/passes) over a
// module and records a Snapshot after each one: the module text, per
// function hashes, whether the pass changed anything, its wall time and
// allocations, and its error. Callers (the explorer's backend, the CLI,
// replay) keep the snapshots and cache what they derive from them.
package pipeline

import (
	"fmt"
	"strings"

	"passlens/compiler/passes"
	"passlens/compiler/target"
)

// Step is one entry of a pipeline spec.
type Step struct {
	Name     string // pass name as written
	Option   string // text between < and > ("" if none)
	Disabled bool   // written with a leading '-': kept in the list, not run
	Pass     *passes.Pass
}

// String spells the step as in a spec string.
func (s Step) String() string {
	var sb strings.Builder
	if s.Disabled {
		sb.WriteByte('-')
	}
	sb.WriteString(s.Name)
	if s.Option != "" {
		sb.WriteByte('<')
		sb.WriteString(s.Option)
		sb.WriteByte('>')
	}
	return sb.String()
}

// Spec is a parsed pipeline: passes in order. Specs are values; the edit
// methods return modified copies.
type Spec struct {
	Steps []Step
}

// String prints the spec so that Parse gives it back.
func (s Spec) String() string {
	parts := make([]string, len(s.Steps))
	for i, st := range s.Steps {
		parts[i] = st.String()
	}
	return strings.Join(parts, ",")
}

// Names returns the names of the enabled steps in order.
func (s Spec) Names() []string {
	var out []string
	for _, st := range s.Steps {
		if !st.Disabled {
			out = append(out, st.Name)
		}
	}
	return out
}

// SpecError is a malformed pipeline spec, with the byte offset of the
// offending step in the spec string.
type SpecError struct {
	Spec   string
	Offset int
	Err    error
}

func (e *SpecError) Error() string {
	return fmt.Sprintf("pipeline %q, column %d: %v", e.Spec, e.Offset+1, e.Err)
}

func (e *SpecError) Unwrap() error { return e.Err }

// MaxSteps bounds a pipeline: every step keeps a snapshot, and a spec is
// typed by a user (--passes, the explorer's insert, a replay script). The
// default pipelines have about a dozen steps.
const MaxSteps = 256

// Parse reads a spec string: comma-separated pass names, each optionally
// followed by `<option>` and optionally preceded by '-' (disabled). Spaces
// around names are ignored; an empty string is the empty pipeline. Unknown
// names give "unknown pass 'x' (did you mean ...)"; enabled steps must
// satisfy the ordering rules of passes.Order.
func Parse(spec string) (Spec, error) {
	var out Spec
	if strings.TrimSpace(spec) == "" {
		return out, nil
	}
	if n := strings.Count(spec, ",") + 1; n > MaxSteps {
		return Spec{}, &SpecError{spec, 0, fmt.Errorf("%d steps: a pipeline has at most %d", n, MaxSteps)}
	}
	off := 0
	for _, part := range strings.Split(spec, ",") {
		start := off
		off += len(part) + 1
		lead := len(part) - len(strings.TrimLeft(part, " \t"))
		p := strings.TrimSpace(part)
		pos := start + lead
		if p == "" {
			return Spec{}, &SpecError{spec, pos, fmt.Errorf("empty pass name")}
		}
		var st Step
		if p[0] == '-' {
			st.Disabled = true
			p = strings.TrimSpace(p[1:])
		}
		name := p
		if i := strings.IndexByte(p, '<'); i >= 0 {
			if !strings.HasSuffix(p, ">") {
				return Spec{}, &SpecError{spec, pos, fmt.Errorf("option of %q is missing its closing '>'", p[:i])}
			}
			name = strings.TrimSpace(p[:i])
			st.Option = strings.TrimSpace(p[i+1 : len(p)-1])
			if strings.ContainsAny(st.Option, "<>") {
				return Spec{}, &SpecError{spec, pos, fmt.Errorf("nested '<' or '>' in option of %q", name)}
			}
		} else if strings.ContainsAny(p, "> \t") {
			return Spec{}, &SpecError{spec, pos, fmt.Errorf("malformed step %q", p)}
		}
		pass, err := passes.Resolve(name)
		if err != nil {
			return Spec{}, &SpecError{spec, pos, err}
		}
		st.Name, st.Pass = name, pass
		out.Steps = append(out.Steps, st)
	}
	if err := out.Check(); err != nil {
		return Spec{}, &SpecError{spec, 0, err}
	}
	return out, nil
}

// MustParse is Parse for specs known to be valid (tests, tables); it panics
// on error.
func MustParse(spec string) Spec {
	s, err := Parse(spec)
	if err != nil {
		panic(err)
	}
	return s
}

// Check reports the first ordering rule the enabled steps break (nil if
// none).
func (s Spec) Check() error {
	if errs := passes.CheckOrder(s.Names()); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// Default returns the default pipeline of a target (passes.Targets). It
// fails for unknown targets and if the target's pipeline names a pass that
// is not registered (a target's own pass registers from its back end's
// package, e.g. sm3-lower from compiler/target/sm3).
func Default(tgt target.Name) (Spec, error) {
	names, ok := passes.DefaultPipelines[tgt]
	if !ok {
		return Spec{}, fmt.Errorf("unknown target %q (targets: %s)", tgt, strings.Join(target.Strings(passes.Targets), ", "))
	}
	s, err := Parse(strings.Join(names, ","))
	if err != nil {
		return Spec{}, fmt.Errorf("default %s pipeline: %w", tgt, err)
	}
	return s, nil
}

func (s Spec) clone() Spec {
	return Spec{Steps: append([]Step(nil), s.Steps...)}
}

// WithDisabled returns a copy of s with step i disabled (or re-enabled).
// It fails if i is out of range or re-enabling breaks an ordering rule.
func (s Spec) WithDisabled(i int, disabled bool) (Spec, error) {
	if i < 0 || i >= len(s.Steps) {
		return Spec{}, fmt.Errorf("no step %d (pipeline has %d)", i+1, len(s.Steps))
	}
	out := s.clone()
	out.Steps[i].Disabled = disabled
	if err := out.Check(); err != nil {
		return Spec{}, err
	}
	return out, nil
}

// WithMoved returns a copy of s with step from moved to position to (the
// other steps keep their relative order). It fails if either index is out
// of range or the new order breaks an ordering rule.
func (s Spec) WithMoved(from, to int) (Spec, error) {
	n := len(s.Steps)
	if from < 0 || from >= n || to < 0 || to >= n {
		return Spec{}, fmt.Errorf("cannot move step %d to %d (pipeline has %d)", from+1, to+1, n)
	}
	out := s.clone()
	st := out.Steps[from]
	out.Steps = append(out.Steps[:from], out.Steps[from+1:]...)
	out.Steps = append(out.Steps[:to], append([]Step{st}, out.Steps[to:]...)...)
	if err := out.Check(); err != nil {
		return Spec{}, err
	}
	return out, nil
}

// WithInserted returns a copy of s with a step parsed from text (e.g.
// "simplify" or "switch-to-if<all>") inserted at position i.
func (s Spec) WithInserted(i int, text string) (Spec, error) {
	if i < 0 || i > len(s.Steps) {
		return Spec{}, fmt.Errorf("cannot insert at step %d (pipeline has %d)", i+1, len(s.Steps))
	}
	one, err := Parse(text)
	if err != nil {
		return Spec{}, err
	}
	if len(one.Steps) != 1 {
		return Spec{}, fmt.Errorf("insert one step at a time, got %d", len(one.Steps))
	}
	if len(s.Steps) >= MaxSteps {
		return Spec{}, fmt.Errorf("a pipeline has at most %d steps", MaxSteps)
	}
	out := s.clone()
	out.Steps = append(out.Steps[:i], append([]Step{one.Steps[0]}, out.Steps[i:]...)...)
	if err := out.Check(); err != nil {
		return Spec{}, err
	}
	return out, nil
}

// WithRemoved returns a copy of s without step i.
func (s Spec) WithRemoved(i int) (Spec, error) {
	if i < 0 || i >= len(s.Steps) {
		return Spec{}, fmt.Errorf("no step %d (pipeline has %d)", i+1, len(s.Steps))
	}
	out := s.clone()
	out.Steps = append(out.Steps[:i], out.Steps[i+1:]...)
	return out, nil
}
