package pipeline

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"passlens/compiler/ir"
	"passlens/compiler/passes"
	"passlens/compiler/target"
	"passlens/internal/guard"
)

// Options control a pipeline run.
type Options struct {
	// Target is passed to every pass ("" for none).
	Target target.Name
	// VerifyEach runs the verifier on the input and after every pass; a
	// verifier error fails that step.
	VerifyEach bool
	// Verify is the verifier to use (nil: ir.Verify).
	Verify func(*ir.Module) error
	// MeasureAllocs records allocation counts per pass from
	// runtime.MemStats deltas. The counters are process-wide: allocations
	// made concurrently by other goroutines (a TUI redrawing) are counted
	// too, so numbers are exact only for headless runs. Reading MemStats
	// briefly stops the world (~tens of µs per pass).
	MeasureAllocs bool
}

// Result is the outcome of a run: one snapshot for the input and one per
// step, up to and including a failed step.
type Result struct {
	Spec      Spec
	Snapshots []*Snapshot
	// Err is the first failed step's error (nil if every step ran).
	Err *StepError
}

// Final returns the last snapshot (the failed one if a step failed).
func (r *Result) Final() *Snapshot {
	if len(r.Snapshots) == 0 {
		return nil
	}
	return r.Snapshots[len(r.Snapshots)-1]
}

// LastGood returns the last snapshot that did not fail.
func (r *Result) LastGood() *Snapshot {
	for i := len(r.Snapshots) - 1; i >= 0; i-- {
		if !r.Snapshots[i].Failed() {
			return r.Snapshots[i]
		}
	}
	return nil
}

// ErrorKind says how a step failed.
type ErrorKind string

const (
	KindError     ErrorKind = "error"     // the pass returned an error
	KindPanic     ErrorKind = "panic"     // the pass panicked (recovered)
	KindVerify    ErrorKind = "verify"    // the verifier rejected the pass's output
	KindCancelled ErrorKind = "cancelled" // the context was cancelled before the step
)

// StepError is why a step failed. Error() is one line naming the pass; the
// panic stack trace is kept in Stack for --debug output, not in the message.
type StepError struct {
	Step  int    // index in the spec (-1 for the input)
	Pass  string // pass name ("input" for the input)
	Kind  ErrorKind
	Msg   string // one line
	Stack string // goroutine stack of a panic
	Err   error  // underlying error, if any
}

func (e *StepError) Error() string {
	switch e.Kind {
	case KindPanic:
		return guard.Message("pass "+e.Pass, e.Msg)
	case KindVerify:
		return fmt.Sprintf("verifier failed after %s: %s", e.Pass, e.Msg)
	case KindCancelled:
		return fmt.Sprintf("cancelled before %s: %s", e.Pass, e.Msg)
	}
	return fmt.Sprintf("pass %s failed: %s", e.Pass, e.Msg)
}

func (e *StepError) Unwrap() error { return e.Err }

// firstLine shortens a message to its first line.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// Run runs spec over m, mutating m in place (callers that need the input
// afterwards pass a clone, as the explorer's backend does), and returns the snapshots. A
// pass error, a recovered panic or (with VerifyEach) a verifier failure
// fails that step: its snapshot records the error and the module as the
// pass left it, later steps do not run, and the earlier snapshots stay
// valid. Cancelling ctx stops the run before the next step.
func Run(ctx context.Context, m *ir.Module, spec Spec, opts Options) *Result {
	res := &Result{Spec: spec}
	verify := opts.Verify
	if verify == nil {
		verify = defaultVerify
	}
	in := capture(m, nil)
	in.Pass = "input"
	res.Snapshots = append(res.Snapshots, in)
	if opts.VerifyEach {
		t0 := time.Now()
		err := verify(m)
		in.VerifyTime = time.Since(t0)
		if err != nil {
			in.Err = &StepError{Step: -1, Pass: "input", Kind: KindVerify, Msg: firstLine(err.Error()), Err: err}
			res.Err = in.Err
			return res
		}
	}
	prev := in
	for i, st := range spec.Steps {
		if err := ctx.Err(); err != nil {
			res.Err = &StepError{Step: i, Pass: st.Name, Kind: KindCancelled, Msg: err.Error(), Err: err}
			return res
		}
		var snap *Snapshot
		if st.Disabled {
			snap = repeat(prev)
			snap.Skipped = true
		} else {
			snap = runStep(m, prev, i, st, opts, verify)
		}
		snap.Index, snap.Pass, snap.Option = i+1, st.Name, st.Option
		res.Snapshots = append(res.Snapshots, snap)
		if snap.Err != nil {
			res.Err = snap.Err
			return res
		}
		prev = snap
	}
	return res
}

// runStep runs one enabled step and captures its snapshot.
func runStep(m *ir.Module, prev *Snapshot, i int, st Step, opts Options, verify func(*ir.Module) error) *Snapshot {
	pctx := &passes.Context{Target: opts.Target}
	if st.Option != "" {
		pctx.Options = map[string]string{st.Name: st.Option}
	}
	var before, after runtime.MemStats
	if opts.MeasureAllocs {
		runtime.ReadMemStats(&before)
	}
	t0 := time.Now()
	reported, stepErr := callPass(st.Pass, m, pctx)
	dur := time.Since(t0)
	if opts.MeasureAllocs {
		runtime.ReadMemStats(&after)
	}
	if stepErr != nil {
		stepErr.Step = i
	}
	var vdur time.Duration
	if stepErr == nil && opts.VerifyEach {
		t1 := time.Now()
		if err := callVerify(verify, m); err != nil {
			stepErr = &StepError{Step: i, Pass: st.Name, Kind: KindVerify, Msg: firstLine(err.Error()), Err: err}
		}
		vdur = time.Since(t1)
	}
	snap, perr := safeCapture(m, prev)
	if perr != nil && stepErr == nil {
		stepErr = &StepError{Step: i, Pass: st.Name, Kind: KindPanic, Msg: "printing its output: " + perr.Error()}
	}
	snap.Reported = reported
	snap.Duration, snap.VerifyTime = dur, vdur
	if opts.MeasureAllocs {
		snap.AllocBytes = after.TotalAlloc - before.TotalAlloc
		snap.Allocs = after.Mallocs - before.Mallocs
	}
	snap.Err = stepErr
	return snap
}

// callPass runs the pass, converting a panic into a StepError.
func callPass(p *passes.Pass, m *ir.Module, pctx *passes.Context) (changed bool, serr *StepError) {
	defer guard.Handle("pass "+p.Name, func(e *guard.Error) {
		serr = &StepError{Pass: p.Name, Kind: KindPanic, Msg: firstLine(fmt.Sprint(e.Value)), Stack: e.Stack, Err: e}
	})
	changed, err := p.Run(m, pctx)
	if err != nil {
		return changed, &StepError{Pass: p.Name, Kind: KindError, Msg: firstLine(err.Error()), Err: err}
	}
	return changed, nil
}

// callVerify runs the verifier, treating a verifier panic as a failure.
func callVerify(verify func(*ir.Module) error, m *ir.Module) (err error) {
	defer guard.Recover(&err, "the verifier")
	return verify(m)
}

// safeCapture captures a snapshot; if printing panics (a pass left the IR
// malformed), it returns a copy of prev's state and the panic as an error.
func safeCapture(m *ir.Module, prev *Snapshot) (snap *Snapshot, err error) {
	// The step's error says "internal error in pass X"; err is the detail.
	defer guard.Handle("printing the IR", func(e *guard.Error) {
		snap, err = repeat(prev), errors.New(firstLine(fmt.Sprint(e.Value)))
	})
	return capture(m, prev), nil
}
