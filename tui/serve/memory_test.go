package serve

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The per-session limits test (issue 14): a session over its memory cap
// gets a message naming the cap, and the server keeps serving others.

// A load whose live heap passes the cap (the frontend of a 4 MiB module
// of statements holds hundreds of MiB) is refused with the cap in the
// message; over SSH the session shows it and another session still opens
// a sample.
func TestSessionMemoryCapOnLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 4 MiB module")
	}
	ts := startServer(t, func(c *Config) { c.SessionMemory = 64 << 20 }, nil)
	if err := os.WriteFile(filepath.Join(ts.dir, "slow.hlsl"), []byte(slowModule()), 0o644); err != nil {
		t.Fatal(err)
	}
	heavy := openTerm(t, ts.mustDial(t, "heavy"), 160, 40, nil)
	heavy.waitFor(PickerTitle, wait)
	heavy.send("G\r")
	heavy.waitFor("memory limit per session (64 MiB)", 2*time.Minute)
	heavy.waitFor("loading slow.hlsl stopped", wait)

	other := openTerm(t, ts.mustDial(t, "other"), 120, 40, nil)
	other.waitFor(PickerTitle, wait)
	other.openSample(ts, "wave-switch-42-ir")
	other.waitFor("define void @main", wait)
	if n := ts.srv.Sessions(); n != 2 {
		t.Fatalf("%d sessions live, want both", n)
	}
}

// A compile whose live heap passes the cap is stopped through its context
// and reported with the cap; the heavy slot is free again afterwards.
func TestSessionMemoryCapOnCompile(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.SessionMemory = 32 << 20 }, nil)
	var hold [][]byte
	err := ts.srv.compileBudget(context.Background(), heavyModuleSize, func(ctx context.Context) error {
		// A pass that keeps allocating until it is stopped (the pipeline
		// checks its context between passes).
		for ctx.Err() == nil {
			hold = append(hold, make([]byte, 1<<20))
			time.Sleep(time.Millisecond) // ~1 GB/s at most, as a real pass
			if len(hold)%16 == 0 {
				runtime.GC() // let the live heap metric see it
			}
			if len(hold) > 1024 {
				return nil // 1 GiB held and never stopped
			}
		}
		return ctx.Err()
	})
	held := len(hold)
	hold = nil
	if err == nil || !strings.Contains(err.Error(), "over the server's memory limit per session (32 MiB)") {
		t.Fatalf("compile over the cap: %v (held %d MiB)", err, held)
	}
	if held > 512 {
		t.Errorf("stopped only after %d MiB (cap 32 MiB)", held)
	}
	// A small module is not watched, and the slot is free.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := ts.srv.compileBudget(ctx, heavyModuleSize, func(context.Context) error { return nil }); err != nil {
		t.Fatalf("the heavy slot was not released: %v", err)
	}
}

// What a session keeps is capped: older compiles are released to stay
// under the cap, and a compile over it by itself is refused.
func TestSessionMemoryCapOnKeptCompiles(t *testing.T) {
	ts := startServer(t, nil, nil)
	drv, err := ts.srv.openModule(moduleRef{sample: "wave-switch-42-ir"})
	if err != nil {
		t.Fatal(err)
	}
	sd := &safeDriver{Driver: drv, s: ts.srv, ls: &liveSession{info: &sessionInfo{}}, size: drv.SourceBytes()}
	pipe := drv.DefaultPipeline("spirv")
	first, err := sd.Compile(context.Background(), "spirv", pipe)
	if err != nil {
		t.Fatal(err)
	}
	one := drv.KeptBytes(first)
	if one <= 0 {
		t.Fatalf("KeptBytes of a compile: %d", one)
	}
	// Room for two compiles and a half: the third releases the first.
	ts.srv.cfg.SessionMemory = one*5/2 + 1
	second, err := sd.Compile(context.Background(), "spirv", pipe)
	if err != nil {
		t.Fatal(err)
	}
	if drv.KeptBytes(first) == 0 {
		t.Fatal("the first compile was released while two fit")
	}
	third, err := sd.Compile(context.Background(), "spirv", pipe)
	if err != nil {
		t.Fatal(err)
	}
	if drv.KeptBytes(first) != 0 {
		t.Error("the oldest compile was kept over the cap")
	}
	if drv.KeptBytes(second) == 0 || drv.KeptBytes(third) == 0 {
		t.Error("a compile under the cap was released")
	}
	if _, err := drv.Analyze(context.Background(), first, 1, "main"); err == nil {
		t.Error("Analyze on a released compile succeeded")
	}
	if _, err := drv.Analyze(context.Background(), third, 1, "main"); err != nil {
		t.Errorf("Analyze on the kept compile: %v", err)
	}
	if sd.keptBytes > ts.srv.cfg.SessionMemory {
		t.Errorf("the session keeps %d bytes, cap %d", sd.keptBytes, ts.srv.cfg.SessionMemory)
	}

	// A cap below one compile: refused with the cap named, nothing kept.
	ts.srv.cfg.SessionMemory = one / 2
	c, err := sd.Compile(context.Background(), "spirv", pipe)
	if err == nil || !strings.Contains(err.Error(), "over the server's memory limit per session") {
		t.Fatalf("a compile over the cap by itself: %v", err)
	}
	if c != nil {
		t.Fatal("a refused compile returned steps")
	}
}

// Analyses of a large module take the heavy slot: while another session
// holds it, one waits (here until its context ends); a small module's
// analysis never waits.
func TestHeavyAnalysisWaitsForTheSlot(t *testing.T) {
	ts := startServer(t, nil, nil)
	drv, err := ts.srv.openModule(moduleRef{sample: "wave-switch-42-ir"})
	if err != nil {
		t.Fatal(err)
	}
	small := &safeDriver{Driver: drv, s: ts.srv, ls: &liveSession{info: &sessionInfo{}}, size: drv.SourceBytes()}
	c, err := small.Compile(context.Background(), "spirv", drv.DefaultPipeline("spirv"))
	if err != nil {
		t.Fatal(err)
	}
	release, err := ts.srv.heavySlot(context.Background(), heavyModuleSize)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := small.Analyze(ctx, c, 1, "main"); err != nil {
		t.Fatalf("a small module's analysis: %v", err)
	}
	big := &safeDriver{Driver: drv, s: ts.srv, ls: small.ls, size: heavyModuleSize}
	if _, err := big.Analyze(ctx, c, 1, "main"); err == nil {
		t.Fatal("a large module's analysis ran while another held the heavy slot")
	}
}
