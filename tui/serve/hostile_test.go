package serve

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"passlens/tui"
)

// A client claiming a huge terminal (in its PTY request, then in a window
// change) gets a clamped one: the renderer's cell buffer is sized from it.
func TestHugeWindowClamped(t *testing.T) {
	var mu sync.Mutex
	var sizes []tea.WindowSizeMsg
	ts := startServer(t, nil, func(s *Server) {
		s.testUpdateHook = func(msg tea.Msg) {
			if m, ok := msg.(tea.WindowSizeMsg); ok {
				mu.Lock()
				sizes = append(sizes, m)
				mu.Unlock()
			}
		}
	})
	tm := openTerm(t, ts.mustDial(t, "alice"), 10000, 10000, nil)
	tm.waitFor(PickerTitle, wait)
	if err := tm.sess.WindowChange(65535, 65535); err != nil {
		t.Fatal(err)
	}
	if err := tm.sess.WindowChange(40, 120); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(wait)
	for {
		mu.Lock()
		n := len(sizes)
		last := tea.WindowSizeMsg{}
		if n > 0 {
			last = sizes[n-1]
		}
		mu.Unlock()
		if last.Width == 120 && last.Height == 40 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("window sizes seen: %v", sizes)
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range sizes {
		if s.Width > maxWindowWidth || s.Height > maxWindowHeight {
			t.Errorf("the session saw a %dx%d window (the limit is %dx%d)", s.Width, s.Height, maxWindowWidth, maxWindowHeight)
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > 512<<20 {
		t.Errorf("heap %d MiB after a huge window request", ms.HeapAlloc>>20)
	}
}

// Module file names are shown escaped in the picker; the help screen does
// not show the server's config path.
func TestPickerEscapesNamesAndHelpHidesServerPaths(t *testing.T) {
	ts := startServer(t, nil, nil)
	src, err := os.ReadFile("../../samples/divergent-loop.pir")
	if err != nil {
		t.Fatal(err)
	}
	evil := "evil\x1b]0;pwned\x07.pir"
	if err := os.WriteFile(filepath.Join(ts.dir, evil), src, 0o644); err != nil {
		t.Fatal(err)
	}
	tm := openTerm(t, ts.mustDial(t, "alice"), 160, 50, nil)
	tm.waitFor(`evil\x1b]0;pwned\x07.pir`, wait)
	if strings.Contains(tm.out.String(), "\x1b]0;pwned") {
		t.Fatalf("the picker sent the file name's escape sequence to the client")
	}
	tm.send("G\r")
	tm.waitFor("define", wait)
	tm.send("?")
	tm.waitFor("clipboard", wait)
	home, _ := os.UserHomeDir()
	out := squash(tm.out.String())
	if strings.Contains(out, squash(tui.ConfigPath())) || (home != "" && home != "/" && strings.Contains(out, squash(home))) {
		t.Fatalf("the help screen over SSH shows the server's paths (%s)", tui.ConfigPath())
	}
	if strings.Contains(tm.out.String(), "\x1b]0;pwned") {
		t.Fatalf("the explorer sent the file name's escape sequence to the client")
	}
}

// A compile over its time budget ends with an error naming the budget; a
// large module's compile waits for the heavy-work slot.
func TestCompileBudget(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.CompileTimeout = time.Nanosecond }, nil)
	drv, err := ts.srv.openModule(moduleRef{sample: "wave-switch-42-ir"})
	if err != nil {
		t.Fatal(err)
	}
	d := &safeDriver{Driver: drv, s: ts.srv, ls: &liveSession{info: &sessionInfo{}}, size: drv.SourceBytes()}
	_, err = d.Compile(context.Background(), "spirv", []tui.PassSlot{{Name: "inline", Enabled: true}, {Name: "sroa", Enabled: true}})
	if err == nil || !strings.Contains(err.Error(), "time budget") {
		t.Fatalf("Compile over budget: %v", err)
	}

	release, err := ts.srv.heavySlot(context.Background(), heavyModuleSize)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := ts.srv.heavySlot(ctx, heavyModuleSize); err == nil {
		t.Fatal("two heavy compiles ran at once")
	}
	small, err := ts.srv.heavySlot(ctx, heavyModuleSize-1)
	if err != nil {
		t.Fatalf("a small module waited for the heavy slot: %v", err)
	}
	small()
	release()
	again, err := ts.srv.heavySlot(context.Background(), heavyModuleSize)
	if err != nil {
		t.Fatal(err)
	}
	again()
}
