package serve

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	"passlens/internal/guard"
	"passlens/tui/backend"
)

// WorkerArg is the hidden subcommand of the passlens binary that runs one
// heavy load or compile of an SSH session in a child process
// (`passlens __compile-worker -mem BYTES -cpu SECONDS`, request on stdin,
// reply on stdout: workerproto.go). `passlens serve` starts it
// (workerclient.go); it is not meant to be run by hand and is not listed
// in the help.
//
// Why a child process: a 4 MiB module built to be slow allocates about
// 1 GB while it loads and compiles. In the server's process that heap is
// collected by the server's collector, whose pauses and assists stalled
// other sessions' keys by up to 0.9 s (BENCHMARKS.md, issue 14). In a
// child it has its own heap and collector, runs at a lower priority on at
// most one core (GOMAXPROCS=1, nice 10), is bounded by the kernel
// (RLIMIT_DATA, RLIMIT_AS, RLIMIT_CPU) and a runtime fatal error (out of
// memory, a stack overflow) ends the child, not the server.
const WorkerArg = "__compile-worker"

// Exit statuses of the worker other than 0 (a reply was written). Go's
// runtime exits with 2 on a panic or a fatal error.
const (
	workerExitUsage = 64 // bad arguments or request: a bug in the server
	workerExitCPU   = 65 // RLIMIT_CPU reached (SIGXCPU)
)

// WorkerMain runs the worker: it limits its own process (worker_linux.go),
// reads one request from stdin, serves it and writes one reply to stdout.
// A load error or a failed step is a reply, not an exit status; the
// return value is the process's exit status.
func WorkerMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(WorkerArg, flag.ContinueOnError)
	fs.SetOutput(stderr)
	mem := fs.Int64("mem", 0, "memory limit in bytes (RLIMIT_DATA; 0: none)")
	cpu := fs.Int("cpu", 0, "CPU time limit in seconds (RLIMIT_CPU; 0: none)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		fmt.Fprintf(stderr, "%s: usage: passlens %s [-mem BYTES] [-cpu SECONDS] < request\n", WorkerArg, WorkerArg)
		return workerExitUsage
	}
	if err := limitWorker(*mem, *cpu, stderr); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", WorkerArg, err)
		return workerExitUsage
	}
	req := &workerRequest{}
	dec := json.NewDecoder(io.LimitReader(stdin, maxWorkerRequest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(req); err != nil {
		fmt.Fprintf(stderr, "%s: reading the request: %v\n", WorkerArg, err)
		return workerExitUsage
	}
	if err := serveWorker(req, stdout); err != nil {
		fmt.Fprintf(stderr, "%s: writing the reply: %v\n", WorkerArg, err)
		return workerExitUsage
	}
	return 0
}

// serveWorker loads the request's module (HLSL #include from its modules
// directory only, as in the server) and, for "compile", runs the pipeline
// and the back end exactly as the in-process driver does
// (backend.CompileModule).
func serveWorker(req *workerRequest, w io.Writer) (err error) {
	src := &load.Source{Name: req.Name, Path: req.Path, Kind: req.Kind, Text: req.Text}
	// A panic the frontends or the back end do not confine themselves is
	// this request's error, located in the module (the pipeline recovers
	// the passes' own panics per step).
	defer guard.Handle("compiling "+req.Path, func(e *guard.Error) {
		err = writeError(w, req.Path+": "+e.Error())
	})
	if req.Op != "load" && req.Op != "compile" {
		return writeError(w, fmt.Sprintf("unknown worker operation %q", req.Op))
	}
	var spec pipeline.Spec
	if req.Op == "compile" {
		if spec, err = pipeline.Parse(req.Spec); err != nil {
			return writeError(w, err.Error())
		}
	}
	includes := &Server{cfg: Config{ModulesDir: req.ModulesDir}}
	var m *ir.Module
	if m, err = load.Module(src, load.Options{ReadFile: includes.readInclude}); err != nil {
		return writeError(w, err.Error())
	}
	if req.Op == "load" {
		return writeReply(w, &workerReply{}, nil)
	}
	o, err := backend.CompileModule(context.Background(), src, m, target.Name(req.Target), spec, false)
	if err != nil {
		return writeError(w, err.Error())
	}
	return writeOutcome(w, o)
}
