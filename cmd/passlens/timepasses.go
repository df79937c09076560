package main

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"passlens/compiler/pipeline"
)

// passTimer collects the phases of one `compile --time-passes` run (read,
// frontend, every pipeline step, snapshot capture, emit, write) and prints
// them as a table on standard error, like LLVM's -time-passes. Times are
// wall clock; allocations are runtime.MemStats deltas (the CLI is
// single-threaded, so they belong to the phase).
type passTimer struct {
	rows []timeRow
}

type timeRow struct {
	name   string
	wall   time.Duration
	verify time.Duration // verifier after a pipeline step (VerifyEach)
	allocs uint64
	bytes  uint64
}

// phase runs f as one named row, measuring wall time and allocations.
func (t *passTimer) phase(name string, f func() error) error {
	if t == nil {
		return f()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	err := f()
	wall := time.Since(t0)
	runtime.ReadMemStats(&after)
	t.rows = append(t.rows, timeRow{name: name, wall: wall, allocs: after.Mallocs - before.Mallocs, bytes: after.TotalAlloc - before.TotalAlloc})
	return err
}

// pipeline runs the pipeline as one row per step (with Options.MeasureAllocs)
// plus a row for the rest of the run's time: input verification and
// snapshot capture (printing and hashing each function after every step).
// Step rows count the pass's allocations only, so the verifier's
// allocations land in that last row too.
func (t *passTimer) pipeline(run func(opts pipeline.Options) *pipeline.Result, opts pipeline.Options) *pipeline.Result {
	if t == nil {
		return run(opts)
	}
	opts.MeasureAllocs = true
	var res *pipeline.Result
	var whole timeRow
	t.phase("pipeline", func() error { res = run(opts); return nil })
	whole, t.rows = t.rows[len(t.rows)-1], t.rows[:len(t.rows)-1]
	rest := whole
	rest.name = "snapshots, input verify"
	for _, s := range res.Snapshots {
		if s.Index == 0 {
			continue
		}
		name := fmt.Sprintf("%d %s", s.Index, s.Pass)
		if s.Option != "" {
			name += "<" + s.Option + ">"
		}
		if s.Skipped {
			name += " (disabled)"
		}
		t.rows = append(t.rows, timeRow{name: name, wall: s.Duration, verify: s.VerifyTime, allocs: s.Allocs, bytes: s.AllocBytes})
		rest.wall -= s.Duration + s.VerifyTime
		if rest.allocs >= s.Allocs && rest.bytes >= s.AllocBytes {
			rest.allocs -= s.Allocs
			rest.bytes -= s.AllocBytes
		}
	}
	t.rows = append(t.rows, rest)
	return res
}

// print writes the table to w.
func (t *passTimer) print(w io.Writer) {
	if t == nil {
		return
	}
	var total timeRow
	for _, r := range t.rows {
		total.wall += r.wall + r.verify
		total.allocs += r.allocs
		total.bytes += r.bytes
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintln(w, "===-----------------------------------------------------------------------===")
	fmt.Fprintln(w, "                      passlens compile: time per pass")
	fmt.Fprintln(w, "===-----------------------------------------------------------------------===")
	fmt.Fprintf(w, "  Total: %s wall, %d allocations, %.1f MB allocated, %.1f MB heap obtained from the OS\n\n",
		fmtDur(total.wall), total.allocs, mb(total.bytes), mb(ms.HeapSys))
	fmt.Fprintf(w, "  %10s %6s %10s %12s %10s  %s\n", "time", "%", "verify", "allocs", "alloc MB", "phase")
	for _, r := range append(t.rows, timeRow{name: "total", wall: total.wall, allocs: total.allocs, bytes: total.bytes}) {
		pct := 0.0
		if total.wall > 0 {
			pct = 100 * float64(r.wall+r.verify) / float64(total.wall)
		}
		verify := "-"
		if r.verify > 0 {
			verify = fmtDur(r.verify)
		}
		fmt.Fprintf(w, "  %10s %5.1f%% %10s %12d %10.1f  %s\n", fmtDur(r.wall), pct, verify, r.allocs, mb(r.bytes), r.name)
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// fmtDur prints a duration with 3 significant digits in ms or s.
func fmtDur(d time.Duration) string {
	switch {
	case d < 0:
		return "0ms"
	case d >= time.Second:
		return fmt.Sprintf("%.3fs", d.Seconds())
	default:
		return fmt.Sprintf("%.3fms", float64(d)/float64(time.Millisecond))
	}
}
