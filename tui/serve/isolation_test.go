package serve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// slowModule is a compute shader of plain statements just under the
// 4 MiB module limit: the slowest input of internal/hostile that is
// accepted (seconds of frontend and pipeline, ~1 GB allocated).
func slowModule() string {
	var b strings.Builder
	b.WriteString("RWStructuredBuffer<uint> b;\n[numthreads(1,1,1)] void main(uint3 tid : SV_DispatchThreadID) {\nuint x = tid.x;\n")
	for i := 0; b.Len() < MaxModuleSize-200; i++ {
		fmt.Fprintf(&b, "x = x + %d;\n", i%1000)
	}
	b.WriteString("if (x > 7) { b[0] = x; }\n}\n")
	return b.String()
}

// Len is the number of bytes written so far.
func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

// latencyStats summarises durations.
type latencyStats struct {
	n                  int
	p50, p90, p99, max time.Duration
}

func statsOf(d []time.Duration) latencyStats {
	if len(d) == 0 {
		return latencyStats{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return latencyStats{n: len(s), p50: s[len(s)/2], p90: s[len(s)*9/10], p99: s[len(s)*99/100], max: s[len(s)-1]}
}

func (l latencyStats) String() string {
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	return fmt.Sprintf("n=%d p50=%v p90=%v p99=%v max=%v", l.n, r(l.p50), r(l.p90), r(l.p99), r(l.max))
}

// keyLatency presses key in tm and returns the time until the session's
// next output (the frame that answers the key).
func keyLatency(tm *loadTerm, key string) (time.Duration, error) {
	before := tm.out.Len()
	start := time.Now()
	if _, err := tm.in.Write([]byte(key)); err != nil {
		return 0, err
	}
	for tm.out.Len() == before {
		if time.Since(start) > 10*time.Second {
			return 0, fmt.Errorf("no frame 10 s after %q", key)
		}
		time.Sleep(200 * time.Microsecond)
	}
	return time.Since(start), nil
}

// TestHeavyCompileIsolation is the load test of issue 14: a runaway
// compile in one session (a 4 MiB module built to be slow, which takes the
// heavy-work slot) must not slow the other sessions by more than 2×. A
// normal session steps through passes (key → frame latency over SSH) and
// compiles a sample in process (compile time), first alone, then while
// the heavy session loads and compiles its module, then alone again;
// the medians and the 90th percentiles of the loaded phase are compared
// with the unloaded phases.
//
// PASSLENS_ISOLATION_LOG=1 prints the figures recorded in BENCHMARKS.md.
func TestHeavyCompileIsolation(t *testing.T) {
	// A ratio of latencies is a measurement, not a pass/fail property on a
	// shared CI machine: the load test runs when asked (bench/ssh-isolation.sh)
	// and its numbers are kept in BENCHMARKS.md.
	if os.Getenv("PASSLENS_LOADTEST") == "" {
		t.Skip("load test: set PASSLENS_LOADTEST=1 (bench/ssh-isolation.sh)")
	}
	// PASSLENS_ISOLATION_INPROCESS=1 measures the server as it was before
	// the compile worker: the heavy session's load and compile in process.
	inProcess := os.Getenv("PASSLENS_ISOLATION_INPROCESS") != ""
	ts := startServer(t, nil, func(s *Server) { s.heavyInProcess = inProcess })
	if err := os.WriteFile(filepath.Join(ts.dir, "slow.hlsl"), []byte(slowModule()), 0o644); err != nil {
		t.Fatal(err)
	}

	// The normal session: the explorer on a small sample.
	c, err := ts.dial("normal", gossh.PublicKeys(ts.client))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	normal := &loadTerm{}
	sess, err := normal.open(c)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if !normal.waitFor("define void @main", 60*time.Second, func() error { return normal.pick(ts) }) {
		t.Fatal("the normal session's explorer did not appear")
	}
	// Its compiles, measured in process through the same budgeted driver.
	drv, err := ts.srv.openModule(moduleRef{sample: "wave-switch-42-ir"})
	if err != nil {
		t.Fatal(err)
	}
	sd := &safeDriver{Driver: drv, s: ts.srv, ls: &liveSession{info: &sessionInfo{}}, size: drv.SourceBytes()}
	pipe := drv.DefaultPipeline("spirv")

	keys := []string{"h", "l"} // the explorer opens on the last step
	var k int
	type slowKey struct{ at, took time.Duration }
	var slowKeys []slowKey // keys over 50 ms, with their time since the start
	testStart := time.Now()
	measure := func(phase string, keyLat, compLat *[]time.Duration, until func() bool) {
		t.Helper()
		for i := 0; until(); i++ {
			d, err := keyLatency(normal, keys[k%len(keys)])
			k++
			if err != nil {
				t.Fatalf("%s: %v", phase, err)
			}
			*keyLat = append(*keyLat, d)
			if d > 50*time.Millisecond {
				slowKeys = append(slowKeys, slowKey{time.Since(testStart) - d, d})
			}
			if i%4 == 3 {
				start := time.Now()
				if _, err := sd.Compile(context.Background(), "spirv", pipe); err != nil {
					t.Fatalf("%s: compile: %v", phase, err)
				}
				*compLat = append(*compLat, time.Since(start))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	count := func(n int, keyLat *[]time.Duration) func() bool {
		return func() bool { return len(*keyLat) < n }
	}

	var aloneKeys, aloneComp, heavyKeys, heavyComp []time.Duration
	measure("alone", &aloneKeys, &aloneComp, count(60, &aloneKeys))

	// The heavy session opens slow.hlsl (the only file: last in the picker).
	hc, err := ts.dial("heavy", gossh.PublicKeys(ts.client))
	if err != nil {
		t.Fatal(err)
	}
	defer hc.Close()
	heavy := &loadTerm{}
	hsess, err := heavy.open(hc)
	if err != nil {
		t.Fatal(err)
	}
	defer hsess.Close()
	if !heavy.waitFor(PickerTitle, 30*time.Second, func() error { return nil }) {
		t.Fatal("no picker for the heavy session")
	}
	heavyStart := time.Now()
	if _, err := heavy.in.Write([]byte("G\r")); err != nil {
		t.Fatal(err)
	}
	// Wait until it holds the heavy slot, then measure while it does.
	for len(ts.srv.heavy) == 0 {
		if time.Since(heavyStart) > 30*time.Second {
			t.Fatal("the heavy session never took the heavy slot")
		}
		time.Sleep(time.Millisecond)
	}
	// Busy while the heavy session holds the slot: for its load, then for
	// its first compile. The gap between the two (the explorer opening)
	// is a few ms; 300 ms of grace keep it inside one phase.
	lastBusy := time.Now()
	busy := func() bool {
		if len(ts.srv.heavy) > 0 {
			lastBusy = time.Now()
			return true
		}
		return time.Since(lastBusy) < 300*time.Millisecond
	}
	measure("heavy", &heavyKeys, &heavyComp, busy)
	heavyWall := time.Since(heavyStart)
	if len(heavyKeys) < 20 {
		t.Fatalf("the heavy compile ended after %v, %d keys: too short to measure", heavyWall, len(heavyKeys))
	}
	// The heavy session ends in its module or in a budget message (time
	// or memory, depending on the machine's load), never in a crash.
	outcome := ""
	for end := time.Now().Add(2 * time.Minute); outcome == "" && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		out := squash(heavy.out.String())
		for _, w := range []string{"define", "budget", "memorylimit"} {
			if strings.Contains(out, w) {
				outcome = w
			}
		}
	}
	if outcome == "" {
		t.Errorf("the heavy session shows neither its module nor a budget message")
	}

	measure("alone again", &aloneKeys, &aloneComp, count(120, &aloneKeys))

	ak, hk := statsOf(aloneKeys), statsOf(heavyKeys)
	ac, hcs := statsOf(aloneComp), statsOf(heavyComp)
	mode := "worker (child process)"
	if inProcess {
		mode = "in process"
	}
	load, _ := os.ReadFile("/proc/loadavg")
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
	msg := fmt.Sprintf("heavy work: %s; heavy session busy for %v, ended in %q; load average at the end: %s\nkey→frame alone: %v\nkey→frame during the heavy compile: %v (ratios p50 %.2f p90 %.2f p99 %.2f max %.2f)\ncompile alone: %v\ncompile during the heavy compile: %v (ratios p50 %.2f p90 %.2f)",
		mode, heavyWall.Round(100*time.Millisecond), outcome, strings.Join(strings.Fields(string(load))[:3], " "),
		ak, hk, ratio(hk.p50, ak.p50), ratio(hk.p90, ak.p90), ratio(hk.p99, ak.p99), ratio(hk.max, ak.max),
		ac, hcs, ratio(hcs.p50, ac.p50), ratio(hcs.p90, ac.p90))
	if os.Getenv("PASSLENS_ISOLATION_LOG") != "" {
		fmt.Println(msg)
		// Where the slow keys fell, against the heavy session's work.
		fmt.Printf("heavy session: from %v to %v\n", heavyStart.Sub(testStart).Round(10*time.Millisecond), (heavyStart.Sub(testStart) + heavyWall).Round(10*time.Millisecond))
		for _, l := range strings.Split(ts.log.String(), "\n") {
			if strings.Contains(l, "compile worker") {
				fmt.Println("  " + l)
			}
		}
		for _, sk := range slowKeys {
			fmt.Printf("  key of %v at %v\n", sk.took.Round(time.Millisecond), sk.at.Round(10*time.Millisecond))
		}
	}
	t.Log(msg)
	// 2× the unloaded figure, with 2 ms of slack for timer and scheduler
	// granularity on sub-millisecond keys: the median and the tail (p90).
	// The maximum is one sample on a shared machine; it is reported.
	for _, c := range []struct {
		what        string
		alone, busy time.Duration
	}{
		{"key → frame median", ak.p50, hk.p50},
		{"key → frame p90", ak.p90, hk.p90},
		{"small compile median", ac.p50, hcs.p50},
		{"small compile p90", ac.p90, hcs.p90},
	} {
		if c.busy > 2*c.alone+2*time.Millisecond {
			t.Errorf("%s slowed by more than 2× during another session's heavy compile (%v alone, %v)", c.what, c.alone, c.busy)
		}
	}
}
