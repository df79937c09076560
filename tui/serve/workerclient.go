package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/internal/termsafe"
	"passlens/tui/backend"
)

// Which work goes to the child process (worker.go), and why:
//
//   - Loading and compiling a module of heavyModuleSize (256 KiB) or more:
//     the work that takes the heavy slot, allocates up to ~1 GB and, in
//     process, stalled other sessions through the shared collector. The
//     module is loaded (checked) in a child when it is opened, so a load
//     error shows in the picker as before, and again in the child of every
//     compile; the server itself never holds its ir.Module.
//   - Small modules load and compile in process: a child costs a fork and
//     exec and a second load (~10 ms), more than their whole compile, and
//     their garbage is too small to stall anyone (the load test's small
//     compile: 1.01-1.06× during another session's heavy compile).
//   - Analyses, interpreter runs and target code of a large module stay in
//     process, in the heavy slot as before: they work on one snapshot's
//     text (the analysis parses one function; the target code is already
//     in the reply), and the interpreter's own limits bound a run.

// workerStderrLimit bounds what the server keeps of a worker's stderr (a
// Go fatal error prints every goroutine's stack).
const workerStderrLimit = 16 << 10

// useWorker reports whether a module of size bytes loads and compiles in
// a child process.
func (s *Server) useWorker(size int) bool {
	return workerSupported && !s.heavyInProcess && size >= heavyModuleSize
}

// workerArgv is the command that starts a worker: this executable with the
// hidden subcommand (tests run their own binary: TestMain). On Linux that
// is /proc/self/exe, the very binary the server runs even when its file
// was replaced since (an upgrade): a worker always speaks the server's
// protocol.
func (s *Server) workerArgv() ([]string, error) {
	if s.testWorkerArgv != nil {
		return s.testWorkerArgv, nil
	}
	exe, err := selfExecutable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the passlens executable to start a compile worker: %v", err)
	}
	return []string{exe, WorkerArg}, nil
}

// workerCPUSeconds is the worker's RLIMIT_CPU: the compile budget, rounded
// up (the budget is wall time; CPU time is at most that on one core).
func (s *Server) workerCPUSeconds() int {
	return int((s.cfg.CompileTimeout + time.Second - 1) / time.Second)
}

// boundedBuffer keeps the first n bytes written to it.
type boundedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	n  int
}

func (w *boundedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := w.n - w.b.Len(); room > 0 {
		w.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (w *boundedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// workerError is a worker that ended without a reply (or with a
// malformed one): what the session sees and what the log keeps.
type workerError struct {
	msg    string // for the session: one line, located in the module
	detail string // for the server log: exit status and stderr
}

func (e *workerError) Error() string { return e.msg }

// runWorker runs req in a new child process under the session's limits
// and returns its reply. Cancelling ctx (the compile budget's deadline,
// the user's cancel, the session's end) kills the child's process group.
func (s *Server) runWorker(ctx context.Context, req *workerRequest) (*workerReply, string, error) {
	argv, err := s.workerArgv()
	if err != nil {
		return nil, "", err
	}
	if req.ModulesDir != "" {
		if abs, err := filepath.Abs(req.ModulesDir); err == nil {
			req.ModulesDir = abs
		}
	}
	js, err := json.Marshal(req)
	if err != nil {
		return nil, "", err
	}
	args := append(append([]string(nil), argv[1:]...),
		"-mem", strconv.FormatInt(s.cfg.SessionMemory, 10), "-cpu", strconv.Itoa(s.workerCPUSeconds()))
	cmd := exec.Command(argv[0], args...)
	workerProcAttr(cmd)
	// GOMAXPROCS=1: the heavy work (and its collector) keeps to one core,
	// as the single heavy slot did in process. No PATH: it starts nothing.
	cmd.Env = append([]string{"PATH=", "LC_ALL=C", "GOMAXPROCS=1", "GOTRACEBACK=single"}, s.testWorkerEnv...)
	cmd.Dir = "/"
	cmd.Stdin = bytes.NewReader(js)
	stderr := &boundedBuffer{n: workerStderrLimit}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		s.log.Error("cannot start the compile worker", "argv", strings.Join(argv, " "), "err", err)
		return nil, "", fmt.Errorf("%s: cannot start the compile worker", req.Path)
	}
	stopKill := context.AfterFunc(ctx, func() { _ = killGroup(cmd) })
	meta, data, rerr := readReply(stdout, s.cfg.SessionMemory)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var werr error
	garbage := false
	if rerr != nil {
		// A child that crashed has exited already; one that sends
		// garbage (and may block writing more) is killed.
		select {
		case werr = <-waited:
		case <-time.After(time.Second):
			garbage = true
			_ = killGroup(cmd)
			werr = <-waited
		}
	} else {
		werr = <-waited
	}
	stopKill()
	s.log.Info("compile worker", "op", req.Op, "module", req.Path, "pid", cmd.Process.Pid,
		"duration", time.Since(start).Round(time.Millisecond), "status", cmd.ProcessState.String())
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	if rerr == nil && werr == nil {
		return meta, data, nil
	}
	return nil, "", s.workerFailure(req, cmd.ProcessState, stderr.String(), rerr, garbage)
}

// workerFailure explains a worker that ended without a proper reply.
func (s *Server) workerFailure(req *workerRequest, st *os.ProcessState, stderr string, rerr error, garbage bool) error {
	// "loading M stopped: ..." as openModule says in process; a compile
	// error names the module first.
	what, at := "loading "+req.Path, ""
	if req.Op != "load" {
		what, at = req.Op, req.Path+": "
	}
	detail := fmt.Sprintf("%s; reply: %v; stderr: %s", st, rerr, stderr)
	e := &workerError{detail: detail}
	switch {
	case errors.Is(rerr, errReplyTooLarge):
		e.msg = fmt.Sprintf("%s: the compile's snapshots are over the server's memory limit per session (%s): try fewer passes or a smaller module", req.Path, mibString(s.cfg.SessionMemory))
	case garbage:
		e.msg = fmt.Sprintf("%s: internal error: the compile worker sent a malformed reply (%s)", req.Path, termsafe.Escape(clip(fmt.Sprint(rerr), 200)))
	case st.ExitCode() == workerExitCPU || signalOf(st) == syscall.SIGXCPU || signalOf(st) == syscall.SIGKILL:
		// SIGKILL that the server did not send: RLIMIT_CPU's hard limit
		// (or the kernel's OOM killer).
		e.msg = fmt.Sprintf("%s%s stopped: it used more than %d s of CPU time, over the server's CPU budget per compile", at, what, s.workerCPUSeconds())
	case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate memory") ||
		strings.Contains(stderr, "failed to create new OS thread"): // a thread's stack counts in RLIMIT_DATA
		e.msg = at + s.memoryError(what, s.cfg.SessionMemory).Error()
	case st.Success():
		e.msg = fmt.Sprintf("%s: internal error: the compile worker sent a malformed reply (%s)", req.Path, termsafe.Escape(clip(fmt.Sprint(rerr), 200)))
	default:
		first := firstLine(strings.TrimSpace(stderr))
		if first == "" {
			first = st.String()
		}
		e.msg = fmt.Sprintf("%s: internal error: the compile worker crashed: %s", req.Path, termsafe.Escape(clip(first, 200)))
	}
	s.log.Error("compile worker failed", "op", req.Op, "module", req.Path, "message", e.msg, "detail", detail)
	return e
}

// workerRequestFor is the request for src (op "load" or "compile").
func (s *Server) workerRequestFor(op string, src *load.Source) *workerRequest {
	return &workerRequest{Op: op, Name: src.Name, Path: src.Path, Kind: src.Kind, Text: src.Text, ModulesDir: s.cfg.ModulesDir}
}

// openRemote checks in a child process that src loads (in the heavy slot,
// within the compile budget) and returns a driver whose compiles run in
// child processes.
func (s *Server) openRemote(ctx context.Context, src *load.Source) (*backend.Driver, error) {
	release, err := s.heavySlot(ctx, len(src.Text))
	if err != nil {
		return nil, err
	}
	defer release()
	lctx, cancel := context.WithTimeout(ctx, s.cfg.CompileTimeout)
	defer cancel()
	meta, _, err := s.runWorker(lctx, s.workerRequestFor("load", src))
	if err != nil {
		if ctx.Err() == nil && errors.Is(lctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("%s: loading stopped after %v: over the server's time budget per compile", src.Path, s.cfg.CompileTimeout)
		}
		return nil, err
	}
	if meta.Err != "" {
		return nil, errors.New(meta.Err)
	}
	drv := backend.NewRemote(src, func(ctx context.Context, tgt, spec string) (*backend.Outcome, error) {
		return s.remoteCompile(ctx, src, tgt, spec)
	})
	drv.MaxRunSteps = s.cfg.MaxRunSteps
	drv.NoAllocStats = true
	return drv, nil
}

// remoteCompile is backend.RemoteCompile for src: one child process per
// compile (safeDriver.Compile holds the heavy slot and the budget).
func (s *Server) remoteCompile(ctx context.Context, src *load.Source, tgt, specText string) (*backend.Outcome, error) {
	spec, err := pipeline.Parse(specText)
	if err != nil {
		return nil, err
	}
	req := s.workerRequestFor("compile", src)
	req.Target, req.Spec = tgt, specText
	meta, data, err := s.runWorker(ctx, req)
	if err != nil {
		return nil, err
	}
	if meta.Err != "" {
		return nil, errors.New(meta.Err)
	}
	o, err := meta.outcome(spec, data)
	if err != nil {
		s.log.Error("compile worker failed", "op", "compile", "module", src.Path, "detail", "malformed reply: "+err.Error())
		return nil, fmt.Errorf("%s: internal error: the compile worker sent a malformed reply (%s)", src.Path, termsafe.Escape(clip(err.Error(), 200)))
	}
	return o, nil
}
