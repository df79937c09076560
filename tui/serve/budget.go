package serve

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Per-session budgets. Every module is at most MaxModuleSize bytes and the
// frontends and passes are linear in it, which bounds one compile's memory;
// the budgets below bound its time and keep large modules from piling up.
const (
	// DefaultCompileTimeout bounds one compile (the pipeline and the back
	// end) of one session; the explorer shows the error and stays usable.
	DefaultCompileTimeout = 30 * time.Second
	// heavyModuleSize is the source size from which loading and compiling
	// a module takes the server's single heavy-work slot: two sessions
	// opening 4 MiB modules at once run one after the other instead of
	// doubling the server's peak memory, while small modules never wait.
	heavyModuleSize = 256 << 10
)

// heavySlot waits for the heavy-work slot when size calls for it and
// returns its release function (a no-op for small modules).
func (s *Server) heavySlot(ctx context.Context, size int) (func(), error) {
	if size < heavyModuleSize {
		return func() {}, nil
	}
	select {
	case s.heavy <- struct{}{}:
		return func() { <-s.heavy }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// compileBudget runs compile under the session's compile budget: a
// deadline of cfg.CompileTimeout and, for large modules, the heavy slot
// and the memory watchdog (memory.go).
func (s *Server) compileBudget(ctx context.Context, size int, compile func(context.Context) error) error {
	release, err := s.heavySlot(ctx, size)
	if err != nil {
		return err
	}
	defer release()
	mctx, cancelMem := context.WithCancelCause(ctx)
	defer cancelMem(nil)
	cctx, cancel := context.WithTimeout(mctx, s.cfg.CompileTimeout)
	defer cancel()
	grown, over := s.heavyWatch(size, cancelMem, func() { err = compile(cctx) })
	if over {
		return s.memoryError("compile", grown)
	}
	if err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("compile stopped after %v: over the server's time budget per compile", s.cfg.CompileTimeout)
	}
	return err
}

// heavyJob runs job (an analysis, an interpreter run, target code) in the
// heavy slot when size calls for it, under the memory watchdog: a job
// whose live-heap growth passed the session cap is reported as stopped
// (its result is dropped; these jobs cannot be stopped half-way).
func (s *Server) heavyJob(ctx context.Context, size int, what string, job func() error) error {
	release, err := s.heavySlot(ctx, size)
	if err != nil {
		return err
	}
	defer release()
	var jerr error
	grown, over := s.heavyWatch(size, nil, func() { jerr = job() })
	if over {
		return s.memoryError(what, grown)
	}
	return jerr
}
