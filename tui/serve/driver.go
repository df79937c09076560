package serve

import (
	"context"
	"fmt"
	"runtime/debug"

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
}

func (d *safeDriver) guard(op string, err *error) {
	if r := recover(); r != nil {
		d.s.log.Error("session panic", "session", d.ls.info.id, "op", op, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		d.ls.info.setCrash(r)
		d.ls.prog.send(crashMsg{})
		if err != nil {
			*err = fmt.Errorf("internal error in %s: %v", op, r)
		}
	}
}

// Compile runs under the session's compile budget (budget.go).
func (d *safeDriver) Compile(ctx context.Context, target string, p []tui.PassSlot) (c *tui.Compiled, err error) {
	defer d.guard("compile", &err)
	err = d.s.compileBudget(ctx, d.size, func(ctx context.Context) error {
		var err error
		c, err = d.Driver.Compile(ctx, target, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func (d *safeDriver) Analyze(ctx context.Context, c *tui.Compiled, step int, fn string) (a *tui.Analysis, err error) {
	defer d.guard("analyze", &err)
	return d.Driver.Analyze(ctx, c, step, fn)
}

func (d *safeDriver) Run(ctx context.Context, c *tui.Compiled, step int, o tui.RunOptions) (r *tui.LanesResult, err error) {
	defer d.guard("run", &err)
	o.Input = ""
	return d.Driver.Run(ctx, c, step, o)
}

func (d *safeDriver) TargetCode(ctx context.Context, c *tui.Compiled) (text, lang string, err error) {
	defer d.guard("target code", &err)
	return d.Driver.TargetCode(ctx, c)
}
