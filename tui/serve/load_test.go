package serve

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// loadShape reads PASSLENS_SERVE_LOAD ("SESSIONSxSECONDS", e.g. 50x60 for
// the full run recorded in BENCHMARKS.md); the default keeps `go test`
// short.
func loadShape(t *testing.T) (sessions int, d time.Duration) {
	sessions, secs := 8, 3
	if v := os.Getenv("PASSLENS_SERVE_LOAD"); v != "" {
		if _, err := fmt.Sscanf(v, "%dx%d", &sessions, &secs); err != nil || sessions < 1 || sessions > 500 || secs < 1 || secs > 600 {
			t.Fatalf("PASSLENS_SERVE_LOAD=%q: want SESSIONSxSECONDS (at most 500x600)", v)
		}
	}
	return sessions, time.Duration(secs) * time.Second
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestLoad runs many concurrent sessions that step through the passes and
// switch views (running the interpreter) until the deadline, then checks
// that no session failed and that the heap returns near its baseline once
// they have closed.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	n, d := loadShape(t)
	ts := startServer(t, func(c *Config) { c.MaxSessions = n }, nil)
	// Warm up once so lazily built tables do not count as growth.
	warm := openTerm(t, ts.mustDial(t, "warm"), 120, 40, nil)
	warm.waitFor(PickerTitle, wait)
	warm.openSample(ts, "wave-switch-42-ir")
	warm.waitFor("define void @main", wait)
	warm.send("q")
	warm.exit(wait)
	warm.sess.Close()
	for ts.srv.Sessions() > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	base := heapInUse()

	var keys, errs atomic.Int64
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() { // sample the heap while the sessions run
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	fail := func(i int, err error) {
		errs.Add(1)
		mu.Lock()
		failures = append(failures, fmt.Sprintf("session %d: %v", i, err))
		mu.Unlock()
	}
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c, err := ts.dial(fmt.Sprintf("load%d", i), gossh.PublicKeys(ts.client))
			if err != nil {
				fail(i, err)
				return
			}
			defer c.Close()
			tm := &loadTerm{}
			sess, err := tm.open(c)
			if err != nil {
				fail(i, err)
				return
			}
			defer sess.Close()
			if !tm.waitFor("define void @main", 60*time.Second, func() error {
				return tm.pick(ts)
			}) {
				fail(i, fmt.Errorf("explorer did not appear"))
				return
			}
			seq := []string{"l", "l", "l", "2", "h", "5", "l", "1", "h", "h"}
			for k := 0; time.Now().Before(deadline); k++ {
				if _, err := tm.in.Write([]byte(seq[k%len(seq)])); err != nil {
					fail(i, err)
					return
				}
				keys.Add(1)
				time.Sleep(keyInterval)
			}
			if strings.Contains(tm.out.String(), "internal error") {
				fail(i, fmt.Errorf("internal error on screen"))
			}
			tm.in.Write([]byte("q"))
			exited := make(chan error, 1)
			go func() { exited <- sess.Wait() }()
			select {
			case err := <-exited:
				if err != nil {
					fail(i, fmt.Errorf("exit: %v", err))
				}
			case <-time.After(60 * time.Second):
				fail(i, fmt.Errorf("no exit 60 s after q (input backlog)"))
			}
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stop)
	for w := time.Now(); ts.srv.Sessions() > 0 && time.Since(w) < 10*time.Second; {
		time.Sleep(10 * time.Millisecond)
	}
	if s := ts.srv.Sessions(); s != 0 {
		t.Errorf("%d sessions still live after the clients closed", s)
	}
	time.Sleep(200 * time.Millisecond) // let connection goroutines unwind
	after := heapInUse()
	t.Logf("load: %d sessions for %v: %d keys, %d errors; HeapInuse baseline %.1f MiB, peak %.1f MiB, after close %.1f MiB; goroutines %d",
		n, elapsed.Round(time.Second), keys.Load(), errs.Load(), mib(base), mib(peak.Load()), mib(after), runtime.NumGoroutine())
	if errs.Load() > 0 {
		t.Fatalf("%d failures:\n%s", errs.Load(), strings.Join(failures, "\n"))
	}
	// "Near the baseline": within 8 MiB or 50%, whichever is larger.
	slack := max(base/2, 8<<20)
	if after > base+slack {
		t.Errorf("HeapInuse after close %.1f MiB, baseline %.1f MiB: sessions leak", mib(after), mib(base))
	}
}

// keyInterval paces each load session like a fast human (4 keys a
// second); every key re-renders the explorer.
const keyInterval = 250 * time.Millisecond

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// loadTerm is a minimal PTY session for the load test (term needs a
// testing.TB per goroutine for Fatal, which load sessions must not call).
type loadTerm struct {
	in  interface{ Write([]byte) (int, error) }
	out *syncBuffer
}

func (l *loadTerm) open(c *gossh.Client) (*gossh.Session, error) {
	sess, err := c.NewSession()
	if err != nil {
		return nil, err
	}
	l.out = &syncBuffer{}
	sess.Stdout, sess.Stderr = l.out, l.out
	in, err := sess.StdinPipe()
	if err != nil {
		return nil, err
	}
	l.in = in
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		return nil, err
	}
	return sess, sess.Shell()
}

// pick opens wave-switch-42-ir once the picker is on screen.
func (l *loadTerm) pick(ts *testServer) error {
	if !strings.Contains(squash(l.out.String()), squash(PickerTitle)) {
		return nil
	}
	idx := -1
	for i, it := range newSessionModel(ts.srv, &liveSession{info: &sessionInfo{}}, nil).items {
		if it.ref.sample == "wave-switch-42-ir" {
			idx = i
		}
	}
	_, err := l.in.Write([]byte(strings.Repeat("j", idx) + "\r"))
	return err
}

// waitFor polls for want, running once() the first time the picker shows.
func (l *loadTerm) waitFor(want string, d time.Duration, once func() error) bool {
	picked := false
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		s := squash(l.out.String())
		if strings.Contains(s, squash(want)) {
			return true
		}
		if !picked && strings.Contains(s, squash(PickerTitle)) {
			picked = true
			if once() != nil {
				return false
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}
