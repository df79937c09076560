package serve

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	"passlens/samples"
	"passlens/tui"
	"passlens/tui/backend"
)

// sampleSource is the load.Source of an embedded sample, as openModule
// builds it.
func sampleSource(t *testing.T, name string) *load.Source {
	t.Helper()
	sm, ok := samples.Lookup(name)
	if !ok {
		t.Fatalf("no sample %s", name)
	}
	kind, err := kindOf(sm.File)
	if err != nil {
		t.Fatal(err)
	}
	return &load.Source{Name: "samples/" + sm.Name, Path: "samples/" + sm.File, Kind: kind, Text: sm.Source, Input: sm.Input}
}

// workerServer is a server for calling the worker directly (no SSH).
func workerServer(t *testing.T, tweak func(*Config)) *Server {
	t.Helper()
	if !workerSupported {
		t.Skip("the compile worker runs on Linux only")
	}
	return startServer(t, tweak, nil).srv
}

// The worker's compile, sent through the child process and parsed back,
// is the in-process compile: the same steps (lines, status, messages,
// function spans), byte-identical printed IR for every pass (and
// print → parse → print is the identity on it), the same target code.
func TestWorkerRoundTripMatchesInProcess(t *testing.T) {
	s := workerServer(t, nil)
	cases := []struct{ sample, target string }{
		{"wave-switch-42", "spirv"},
		{"wave-switch-42-ir", "dxil"},
		{"sm3-loop-m", "sm3"}, // back-end stages after the IR passes
		{"structs-arrays", "spirv"},
	}
	for _, tc := range cases {
		t.Run(tc.sample+"/"+tc.target, func(t *testing.T) {
			src := sampleSource(t, tc.sample)
			m, err := load.Module(src, load.Options{})
			if err != nil {
				t.Fatal(err)
			}
			local := backend.New(src, m)
			local.NoAllocStats = true
			remote := backend.NewRemote(src, func(ctx context.Context, tgt, spec string) (*backend.Outcome, error) {
				return s.remoteCompile(ctx, src, tgt, spec)
			})
			pipe := local.DefaultPipeline(tc.target)
			lc, err := local.Compile(context.Background(), tc.target, pipe)
			if err != nil {
				t.Fatal(err)
			}
			rc, err := remote.Compile(context.Background(), tc.target, pipe)
			if err != nil {
				t.Fatal(err)
			}
			if len(rc.Steps) != len(lc.Steps) || len(lc.Steps) < 3 {
				t.Fatalf("%d steps through the worker, %d in process", len(rc.Steps), len(lc.Steps))
			}
			irSteps := 0
			for i := range lc.Steps {
				l, r := lc.Steps[i], rc.Steps[i]
				if l.Pass != r.Pass || l.Status != r.Status || l.Err != r.Err || l.Summary != r.Summary || l.Backend != r.Backend {
					t.Errorf("step %d: worker %q %v %q, in process %q %v %q", i, r.Pass, r.Status, r.Err, l.Pass, l.Status, l.Err)
				}
				if !slices.Equal(l.Lines, r.Lines) || l.Text != r.Text || !slices.Equal(l.Funcs, r.Funcs) {
					t.Errorf("step %d (%s): text differs", i, l.Pass)
				}
				if l.Backend {
					continue
				}
				irSteps++
				lm, err := local.Module(lc, i)
				if err != nil {
					t.Fatal(err)
				}
				rm, err := remote.Module(rc, i)
				if err != nil {
					t.Fatalf("step %d (%s): the worker's snapshot does not parse: %v", i, l.Pass, err)
				}
				text := rm.String()
				if text != lm.String() {
					t.Errorf("step %d (%s): printed IR differs from the in-process compile", i, l.Pass)
				}
				again, err := ir.ParseModule("again", []byte(text))
				if err != nil || again.String() != text {
					t.Errorf("step %d (%s): print → parse → print is not the identity (%v)", i, l.Pass, err)
				}
			}
			if irSteps < 3 {
				t.Errorf("only %d IR steps compared", irSteps)
			}
			lt, llang, lerr := local.TargetCode(context.Background(), lc)
			rt, rlang, rerr := remote.TargetCode(context.Background(), rc)
			if lt != rt || llang != rlang || (lerr == nil) != (rerr == nil) {
				t.Errorf("target code differs (%s %v / %s %v)", llang, lerr, rlang, rerr)
			}
			// Analyses and runs work on the worker's snapshots as in process.
			last := len(rc.Steps) - 1
			for last > 0 && rc.Steps[last].Backend {
				last--
			}
			if _, err := remote.Analyze(context.Background(), rc, last, ""); err != nil {
				t.Errorf("analysis of the worker's snapshot: %v", err)
			}
		})
	}
}

// The reply codec alone: every snapshot's text, the sharing of unchanged
// parts, a failed step with its located message, and the back end's
// output survive writeOutcome → readReply → outcome.
func TestWorkerReplyCodec(t *testing.T) {
	src := sampleSource(t, "sm3-loop-m")
	m, err := load.Module(src, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := pipeline.Default(target.SM3)
	if err != nil {
		t.Fatal(err)
	}
	o, err := backend.CompileModule(context.Background(), src, m, target.SM3, spec, false)
	if err != nil {
		t.Fatal(err)
	}
	if o.Out == nil || len(o.Out.Stages) == 0 {
		t.Fatalf("sm3 compile without stages: %v", o.OutErr)
	}
	// Make the last step a failure, as a pass error would.
	last := o.Res.Snapshots[len(o.Res.Snapshots)-1]
	last.Err = &pipeline.StepError{Step: last.Index - 1, Pass: last.Pass, Kind: pipeline.KindVerify, Msg: "bad φ"}
	o.Res.Err = last.Err
	o.StepMsgs[len(o.StepMsgs)-1] = "samples/sm3-loop-m.hlsl:3:5: error: bad φ"

	var buf bytes.Buffer
	if err := writeOutcome(&buf, o); err != nil {
		t.Fatal(err)
	}
	meta, data, err := readReply(bytes.NewReader(buf.Bytes()), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	got, err := meta.outcome(spec, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Res.Snapshots) != len(o.Res.Snapshots) {
		t.Fatalf("%d snapshots, want %d", len(got.Res.Snapshots), len(o.Res.Snapshots))
	}
	distinct := map[*pipeline.Part]bool{}
	for i, w := range o.Res.Snapshots {
		g := got.Res.Snapshots[i]
		if g.Text() != w.Text() || g.Pass != w.Pass || g.Option != w.Option || g.Changed != w.Changed ||
			!slices.Equal(g.ChangedFuncs, w.ChangedFuncs) || g.Duration != w.Duration || g.Index != i {
			t.Errorf("snapshot %d (%s) differs", i, w.Pass)
		}
		for j, f := range g.Funcs {
			distinct[f] = true
			if f.Hash != w.Funcs[j].Hash {
				t.Errorf("snapshot %d: part %s hash differs", i, f.Name)
			}
			// Shared in process ⇔ shared after the round trip.
			if i > 0 && j < len(o.Res.Snapshots[i-1].Funcs) && j < len(got.Res.Snapshots[i-1].Funcs) {
				if (w.Funcs[j] == o.Res.Snapshots[i-1].Funcs[j]) != (f == got.Res.Snapshots[i-1].Funcs[j]) {
					t.Errorf("snapshot %d: sharing of %s changed", i, f.Name)
				}
			}
		}
	}
	if len(distinct) != len(meta.Parts)-1 && len(distinct) != len(meta.Parts) {
		t.Errorf("%d distinct function parts, %d sent", len(distinct), len(meta.Parts))
	}
	if got.Res.Err == nil || got.Res.Err.Error() != o.Res.Err.Error() || got.StepMsgs[len(got.StepMsgs)-1] != o.StepMsgs[len(o.StepMsgs)-1] {
		t.Errorf("failed step: %v %q", got.Res.Err, got.StepMsgs)
	}
	if got.Out.Text != o.Out.Text || got.Out.Lang != o.Out.Lang || len(got.Out.Stages) != len(o.Out.Stages) {
		t.Fatalf("back-end output differs")
	}
	for i, st := range o.Out.Stages {
		if got.Out.Stages[i] != st {
			t.Errorf("stage %d (%s) differs", i, st.Name)
		}
	}

	// Every truncation of the frame is an error, not a panic.
	for _, n := range []int{0, 5, 20, buf.Len() / 2, buf.Len() - 1} {
		if _, _, err := readReply(bytes.NewReader(buf.Bytes()[:n]), 1<<30); err == nil {
			t.Errorf("a reply cut at %d bytes was accepted", n)
		}
	}
	// A reply over the parent's bound is refused before it is read.
	if _, _, err := readReply(bytes.NewReader(buf.Bytes()), 16); !errors.Is(err, errReplyTooLarge) {
		t.Errorf("a reply over the bound: %v", err)
	}
}

// A child that crashes (an unrecovered panic here; a runtime fatal error
// ends it the same way) or sends garbage is a located error for that
// compile; the server keeps serving, and the next compile works.
func TestWorkerCrashIsALocatedError(t *testing.T) {
	s := workerServer(t, nil)
	src := sampleSource(t, "wave-switch-42")
	// A session's earlier compile, through its budgeted driver.
	drv := backend.NewRemote(src, func(ctx context.Context, tgt, spec string) (*backend.Outcome, error) {
		return s.remoteCompile(ctx, src, tgt, spec)
	})
	sd := &safeDriver{Driver: drv, s: s, ls: &liveSession{info: &sessionInfo{}}, size: heavyModuleSize}
	before, err := sd.Compile(context.Background(), "spirv", drv.DefaultPipeline("spirv"))
	if err != nil {
		t.Fatal(err)
	}
	for mode, want := range map[string]string{
		"panic":   "samples/wave-switch-42.hlsl: internal error: the compile worker crashed: panic: worker test: boom",
		"garbage": "samples/wave-switch-42.hlsl: internal error: the compile worker sent a malformed reply",
	} {
		s.testWorkerEnv = []string{"PASSLENS_TEST_WORKER=" + mode}
		_, err := sd.Compile(context.Background(), "spirv", drv.DefaultPipeline("spirv"))
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v\nwant %s…", mode, err, want)
		}
	}
	// The failed compiles lost nothing: the earlier one still has its
	// target code and analyses.
	if text, _, err := sd.TargetCode(context.Background(), before); err != nil || !strings.Contains(text, "OpEntryPoint") {
		t.Errorf("the earlier compile's target code after a crash: %v", err)
	}
	if _, err := sd.Analyze(context.Background(), before, 1, ""); err != nil {
		t.Errorf("the earlier compile's analysis after a crash: %v", err)
	}
	s.testWorkerEnv = nil
	if _, err := sd.Compile(context.Background(), "spirv", drv.DefaultPipeline("spirv")); err != nil {
		t.Fatalf("the next compile: %v", err)
	}
}

// gone reports whether pid has exited (and, for a child of this process,
// been reaped) within d.
func gone(pid int, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		// A zombie still answers kill 0: look at its state.
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "Z" {
				return true
			}
		}
	}
	return false
}

// The compile budget's deadline kills the worker's whole process group
// (the worker and anything it started), and the session sees the budget
// message; ending the session does the same.
func TestWorkerTimeoutKillsTheChild(t *testing.T) {
	s := workerServer(t, func(c *Config) { c.CompileTimeout = 500 * time.Millisecond })
	src := sampleSource(t, "wave-switch-42")
	for _, how := range []string{"budget", "session end"} {
		pidFile := filepath.Join(t.TempDir(), "pids")
		s.testWorkerEnv = []string{"PASSLENS_TEST_WORKER=hang", "PASSLENS_TEST_WORKER_PIDS=" + pidFile}
		drv := backend.NewRemote(src, func(ctx context.Context, tgt, spec string) (*backend.Outcome, error) {
			return s.remoteCompile(ctx, src, tgt, spec)
		})
		ls := &liveSession{info: &sessionInfo{}}
		sd := &safeDriver{Driver: drv, s: s, ls: ls, size: heavyModuleSize}
		start := time.Now()
		if how == "session end" {
			go func() {
				for time.Since(start) < 5*time.Second {
					if _, err := os.Stat(pidFile); err == nil {
						break
					}
					time.Sleep(5 * time.Millisecond)
				}
				ls.end()
			}()
		}
		_, err := sd.Compile(context.Background(), "spirv", []tui.PassSlot{{Name: "sroa", Enabled: true}})
		took := time.Since(start)
		switch how {
		case "budget":
			if err == nil || !strings.Contains(err.Error(), "over the server's time budget per compile") {
				t.Errorf("%s: %v", how, err)
			}
		default:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v", how, err)
			}
		}
		if took > 5*time.Second {
			t.Errorf("%s: the compile returned after %v", how, took)
		}
		b, rerr := os.ReadFile(pidFile)
		if rerr != nil {
			t.Fatalf("%s: the worker never started: %v", how, rerr)
		}
		for _, f := range strings.Fields(string(b)) {
			pid, _ := strconv.Atoi(f)
			if !gone(pid, 3*time.Second) {
				t.Errorf("%s: process %d is still running", how, pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if len(s.heavy) != 0 {
			t.Errorf("%s: the heavy slot is still held", how)
		}
	}
}

// The kernel's limits on the worker fire and are reported with the limit:
// RLIMIT_DATA (the session memory cap) and RLIMIT_CPU (the compile budget
// in CPU seconds). Neither takes the server down.
func TestWorkerRlimitBreachReported(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a 4 MiB module in a child")
	}
	big := &load.Source{Name: "slow.hlsl", Path: "slow.hlsl", Kind: "hlsl", Text: []byte(slowModule())}

	t.Run("memory", func(t *testing.T) {
		s := workerServer(t, func(c *Config) { c.SessionMemory = 96 << 20 })
		_, err := s.remoteCompile(context.Background(), big, "spirv", "inline,sroa,simplify")
		want := "slow.hlsl: compile stopped: it needed more than 96 MiB, over the server's memory limit per session (96 MiB)"
		if err == nil || err.Error() != want {
			t.Fatalf("got %v\nwant %s", err, want)
		}
	})
	t.Run("cpu", func(t *testing.T) {
		// The budget's wall-clock deadline is not applied here (remoteCompile
		// is called directly), so only RLIMIT_CPU (1 s) can stop it.
		s := workerServer(t, func(c *Config) { c.CompileTimeout = time.Second })
		start := time.Now()
		_, err := s.remoteCompile(context.Background(), big, "spirv", "inline,sroa,simplify")
		want := "slow.hlsl: compile stopped: it used more than 1 s of CPU time, over the server's CPU budget per compile"
		if err == nil || err.Error() != want {
			t.Fatalf("got %v\nwant %s", err, want)
		}
		t.Logf("stopped after %v of wall time", time.Since(start).Round(time.Millisecond))
	})
}

// A module of heavyModuleSize or more opens through the worker: a load
// error is located as in process, and a good module compiles over SSH.
func TestHeavyModuleOpensThroughTheWorker(t *testing.T) {
	s := workerServer(t, nil)
	if !s.useWorker(heavyModuleSize) || s.useWorker(heavyModuleSize-1) {
		t.Fatal("useWorker does not follow heavyModuleSize")
	}
	ts := startServer(t, nil, nil)
	var b strings.Builder
	b.WriteString("RWStructuredBuffer<uint> b;\n[numthreads(1,1,1)] void main(uint3 tid : SV_DispatchThreadID) {\nuint x = tid.x;\n")
	for b.Len() < heavyModuleSize+1000 {
		b.WriteString("x = x * 3 + 1;\n")
	}
	good := b.String() + "b[0] = x;\n}\n"
	bad := b.String() + "b[0] = y;\n}\n"
	if err := os.WriteFile(filepath.Join(ts.dir, "good.hlsl"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ts.dir, "bad.hlsl"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ts.srv.openModule(moduleRef{path: "bad.hlsl"})
	if err == nil || !strings.HasPrefix(err.Error(), "bad.hlsl:") || !strings.Contains(err.Error(), "undeclared identifier") {
		t.Fatalf("bad module: %v", err)
	}
	line := strings.Count(bad, "\n") - 1 // the line before the closing brace
	if !strings.Contains(err.Error(), "bad.hlsl:"+strconv.Itoa(line)+":") {
		t.Errorf("bad module: %v, want line %d", err, line)
	}
	term := openTerm(t, ts.mustDial(t, "heavy"), 120, 40, nil)
	term.waitFor(PickerTitle, wait)
	term.send("G\r") // good.hlsl is last in the picker
	term.waitFor("define void @main", 2*time.Minute)
	if !strings.Contains(ts.log.String(), `compile worker" op=compile module=good.hlsl`) {
		t.Errorf("the compile did not run in a worker; log:\n%s", ts.log.String())
	}
}

// FuzzWorkerReply: whatever a (broken or hostile) child writes, reading
// and rebuilding its reply ends in an error or in snapshots whose texts
// are within the frame; it never panics or allocates beyond the frame.
func FuzzWorkerReply(f *testing.F) {
	src := &load.Source{Name: "a.pir", Path: "a.pir", Kind: "pir", Text: []byte(
		"define void @main() {\nentry:\n  ret\n}\n")}
	m, err := load.Module(src, load.Options{})
	if err != nil {
		f.Fatal(err)
	}
	spec := pipeline.MustParse("simplify,simplify")
	o, err := backend.CompileModule(context.Background(), src, m, "", spec, false)
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writeOutcome(&buf, o); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	buf.Reset()
	_ = writeError(&buf, "a.pir:1:1: error: x")
	f.Add(buf.Bytes())
	f.Add([]byte(workerMagic + "\n2 5\n{}hello"))
	f.Add([]byte(workerMagic + "\n40 3\n{\"parts\":[{\"name\":\"\",\"len\":3}],\"snapshots\":[{\"pass\":\"input\",\"header\":0,\"funcs\":[0,1]}]}abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		meta, data, err := readReply(bytes.NewReader(b), 1<<20)
		if err != nil {
			return
		}
		if len(data) > len(b) {
			t.Fatalf("%d bytes of texts from a %d-byte frame", len(data), len(b))
		}
		got, err := meta.outcome(spec, data)
		if err != nil {
			return
		}
		for _, s := range got.Res.Snapshots {
			if len(s.Text()) > len(data)*len(got.Res.Snapshots)+len(b) {
				t.Fatalf("a snapshot longer than its texts")
			}
		}
	})
}

// HLSL #include in a worker reads from the modules directory only, as in
// process: a header next to the module is found, a server path is refused
// with a located error.
func TestWorkerIncludesFromTheModulesDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a 256 KiB module in a child")
	}
	ts := startServer(t, nil, nil)
	if !workerSupported {
		t.Skip("the compile worker runs on Linux only")
	}
	if err := os.Mkdir(filepath.Join(ts.dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ts.dir, "lib", "f.hlsli"), []byte("uint f(uint v) { return v * 7 + 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	body := func(include string) string {
		var b strings.Builder
		b.WriteString("#include \"" + include + "\"\nRWStructuredBuffer<uint> b;\n[numthreads(1,1,1)] void main(uint3 tid : SV_DispatchThreadID) {\nuint x = tid.x;\n")
		for b.Len() < heavyModuleSize+1000 {
			b.WriteString("x = x * 3 + 1;\n")
		}
		return b.String() + "b[0] = f(x);\n}\n"
	}
	for name, text := range map[string]string{"inc.hlsl": body("lib/f.hlsli"), "etc.hlsl": body("/etc/passwd")} {
		if err := os.WriteFile(filepath.Join(ts.dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	drv, err := ts.srv.openModule(moduleRef{path: "inc.hlsl"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := drv.Compile(context.Background(), "spirv", drv.DefaultPipeline("spirv"))
	if err != nil {
		t.Fatal(err)
	}
	if last := c.Steps[len(c.Steps)-1]; last.Status == tui.StepFailed {
		t.Fatalf("compile failed at %s: %s", last.Pass, last.Err)
	}
	_, err = ts.srv.openModule(moduleRef{path: "etc.hlsl"})
	if err == nil || !strings.HasPrefix(err.Error(), "etc.hlsl:1:") || !strings.Contains(err.Error(), "'/etc/passwd' file not found") {
		t.Fatalf("an include of a server path: %v", err)
	}
}
