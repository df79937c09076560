package serve

import (
	"context"
	"errors"
	"sync"

	"passlens/internal/guard"
	"passlens/tui"
)

// safeDriver wraps a session's driver so that a panic in the compiler
// ends that session with a message instead of reaching bubbletea (whose
// own recovery would print to the server's stderr and give the user no
// explanation). It also drops RunOptions.Input: a session never names
// server files.
type safeDriver struct {
	tui.Driver
	s    *Server
	ls   *liveSession
	size int // source bytes of the module, for the compile budget

	mu        sync.Mutex    // guards kept and keptBytes
	kept      []keptCompile // compiles the driver keeps, oldest first (memory.go)
	keptBytes int64
}

// onPanic is what a driver call does with a panic (deferred through
// guard.Handle): log it, end the session, and return the error if the call
// has one.
func (d *safeDriver) onPanic(err *error) func(*guard.Error) {
	return func(e *guard.Error) {
		d.s.log.Error("session panic", "session", d.ls.info.id, "op", e.Where, "panic", e.Error(), "stack", e.Stack)
		d.ls.info.setCrash(e)
		d.ls.prog.send(crashMsg{})
		if err != nil {
			*err = e
		}
	}
}

// Compile runs under the session's compile budget (budget.go).
func (d *safeDriver) Compile(ctx context.Context, target string, p []tui.PassSlot) (c *tui.Compiled, err error) {
	defer guard.Handle("compile", d.onPanic(&err))
	// The session's end cancels its compile (and kills its worker).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(d.ls.context(), cancel)()
	err = d.s.compileBudget(ctx, d.size, func(ctx context.Context) error {
		var err error
		c, err = d.Driver.Compile(ctx, target, p)
		return err
	})
	if err != nil {
		if k, ok := d.Driver.(keeper); ok && c != nil {
			k.Release(c) // stopped after the driver kept it (memory cap)
		}
		return nil, err
	}
	if err := d.account(c); err != nil {
		return nil, err
	}
	return c, nil
}

// Analyze, Run and TargetCode of a large module take the heavy slot too:
// two sessions analysing 4 MiB modules run one after the other, and the
// memory watchdog watches them (they cannot be stopped half-way, so a job
// over the cap is reported after it ends and its result dropped).
func (d *safeDriver) Analyze(ctx context.Context, c *tui.Compiled, step int, fn string) (a *tui.Analysis, err error) {
	defer guard.Handle("analyze", d.onPanic(&err))
	err = d.s.heavyJob(ctx, d.size, "analysis", func() error {
		a, err = d.Driver.Analyze(ctx, c, step, fn)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

func (d *safeDriver) Run(ctx context.Context, c *tui.Compiled, step int, o tui.RunOptions) (r *tui.LanesResult, err error) {
	defer guard.Handle("run", d.onPanic(&err))
	o.Input = ""
	err = d.s.heavyJob(ctx, d.size, "run", func() error {
		r, err = d.Driver.Run(ctx, c, step, o)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (d *safeDriver) TargetCode(ctx context.Context, c *tui.Compiled) (text, lang string, err error) {
	defer guard.Handle("target code", d.onPanic(&err))
	err = d.s.heavyJob(ctx, d.size, "target code", func() error {
		text, lang, err = d.Driver.TargetCode(ctx, c)
		return err
	})
	if err != nil {
		return "", "", err
	}
	return text, lang, nil
}

// SetInput is refused: the interpreter input of a session comes with the
// module (a sample's bundled input); a session never names server files.
func (d *safeDriver) SetInput(string) error {
	return errors.New("the server reads no files for a session: the interpreter uses the module's bundled input")
}

// safeLogDriver is safeDriver for a pass log (a tool run, tools.go): the
// explorer loads the log's steps lazily through it.
type safeLogDriver struct {
	*safeDriver
	log interface {
		tui.StepLoader
		tui.FuncStepper
	}
}

func (d *safeLogDriver) LoadStep(c *tui.Compiled, i int) (err error) {
	defer guard.Handle("loading a step", d.onPanic(&err))
	return d.log.LoadStep(c, i)
}

func (d *safeLogDriver) StepChangedFunc(c *tui.Compiled, i int, fn string) (changed bool) {
	defer guard.Handle("step filter", d.onPanic(nil))
	return d.log.StepChangedFunc(c, i, fn)
}

// wrapDriver is the session's budgeted, panic-confined driver for drv.
func wrapDriver(s *Server, ls *liveSession, drv tui.Driver, size int) tui.Driver {
	sd := &safeDriver{Driver: drv, s: s, ls: ls, size: size}
	if l, ok := drv.(interface {
		tui.StepLoader
		tui.FuncStepper
	}); ok {
		return &safeLogDriver{safeDriver: sd, log: l}
	}
	return sd
}
