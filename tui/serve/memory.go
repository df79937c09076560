package serve

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"passlens/tui"
)

// DefaultSessionMemory is the per-session memory cap (Config.SessionMemory).
// The hostile-input budget of docs/serve.md is 1 GiB for any module of at
// most 4 MiB, so a legitimate module fits; a 16-session server keeps the
// heavy work of one session at a time (the heavy slot) and the snapshots
// of every session under the cap each.
const DefaultSessionMemory = 1 << 30

// The per-session memory cap has two halves (docs/limits.md):
//
//   - Work in flight. Loading and compiling a module of heavyModuleSize or
//     more runs in a compile worker, a child process whose memory the
//     kernel limits (worker_linux.go). The heavy work that stays in process
//     (analyses, runs and target code of such a module; all heavy work
//     where there is no worker) runs alone in the heavy slot, so the
//     growth of the server's live heap while it runs is that session's.
//     A watchdog samples the live heap (runtime/metrics, no stop of the
//     world) and stops the compile (between passes, through its context)
//     when the growth passes the cap; a load that passed it is dropped.
//   - What a session keeps. After every compile the session's kept
//     compiles (snapshot text, step lines, back-end output: the backend's
//     KeptBytes) are summed; the oldest are released until the sum is
//     under the cap, and a compile that alone is over it is refused.
//
// Both end in a message naming the cap; the session and the server stay up.

// errOverMemory is the cause a watchdog cancels a compile with.
var errOverMemory = errors.New("over the server's memory limit per session")

// memoryError is the message a session sees when a job passed the cap.
func (s *Server) memoryError(what string, used int64) error {
	return fmt.Errorf("%s stopped: it needed more than %s, over the server's memory limit per session (%s)", what, mibString(used), mibString(s.cfg.SessionMemory))
}

func mibString(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }

// liveHeap is the heap the last garbage collection found live.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// heapWatchInterval is how often a watchdog samples the live heap.
const heapWatchInterval = 20 * time.Millisecond

// watchHeap starts a watchdog for one heavy job: when the live heap has
// grown by more than the session cap since the start, it calls over (once)
// with the growth. stop ends the watchdog and returns the largest growth
// it saw.
func (s *Server) watchHeap(over func(grown int64)) (stop func() int64) {
	base := liveHeap()
	var peak atomic.Int64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(heapWatchInterval)
		defer t.Stop()
		fired := false
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			// The metric is as of the last collection, so the base
			// may include garbage of earlier work that a later
			// collection frees: growth counts from the lowest value seen.
			now := liveHeap()
			base = min(base, now)
			g := now - base
			if g > peak.Load() {
				peak.Store(g)
			}
			if g > s.cfg.SessionMemory && !fired {
				fired = true
				over(g)
			}
		}
	}()
	return func() int64 {
		close(done)
		<-finished
		return peak.Load()
	}
}

// keeper is what the session's driver keeps per compile (backend.Driver).
type keeper interface {
	KeptBytes(*tui.Compiled) int64
	Release(*tui.Compiled)
}

// keptCompile is one compile a session's driver keeps, with its size.
type keptCompile struct {
	c     *tui.Compiled
	bytes int64
}

// account adds a new compile to the session's kept memory: a compile over
// the cap by itself is released and refused; otherwise the oldest compiles
// are released until the total is under the cap.
func (d *safeDriver) account(c *tui.Compiled) error {
	k, ok := d.Driver.(keeper)
	if !ok {
		return nil
	}
	limit := d.s.cfg.SessionMemory
	b := k.KeptBytes(c)
	if b > limit {
		k.Release(c)
		return fmt.Errorf("the compile's snapshots take %s, over the server's memory limit per session (%s): try fewer passes or a smaller module", mibString(b), mibString(limit))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	// Drop what the driver already let go of (it keeps a few compiles).
	live := d.kept[:0]
	var total int64
	for _, kc := range d.kept {
		if k.KeptBytes(kc.c) > 0 {
			live = append(live, kc)
			total += kc.bytes
		}
	}
	d.kept = append(live, keptCompile{c, b})
	total += b
	for total > limit && len(d.kept) > 1 {
		old := d.kept[0]
		k.Release(old.c)
		d.kept = d.kept[1:]
		total -= old.bytes
		d.s.log.Info("released an older compile (session memory cap)", "session", d.ls.info.id, "bytes", old.bytes)
	}
	d.keptBytes = total
	return nil
}

// heavyWatch runs job under the heap watchdog when the session holds the
// heavy slot (size ≥ heavyModuleSize): cancel is called with errOverMemory
// when the live heap grows past the cap. It returns the growth seen and
// whether the cap was passed.
func (s *Server) heavyWatch(size int, cancel context.CancelCauseFunc, job func()) (grown int64, over bool) {
	if size < heavyModuleSize {
		job()
		return 0, false
	}
	var fired atomic.Bool
	stop := s.watchHeap(func(int64) {
		fired.Store(true)
		if cancel != nil {
			cancel(errOverMemory)
		}
	})
	job()
	grown = stop()
	return grown, fired.Load()
}
