package serve

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for the passlens binary as the
// compile worker: the server starts os.Executable() with WorkerArg (the
// re-exec pattern), so the worker is tested without building passlens.
// PASSLENS_TEST_WORKER makes it misbehave on purpose: "panic" (an
// unrecovered panic, as a runtime fatal error ends a child), "garbage" (a
// malformed reply), "hang" (starts a grandchild, writes both pids to
// PASSLENS_TEST_WORKER_PIDS and never answers).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == WorkerArg {
		switch os.Getenv("PASSLENS_TEST_WORKER") {
		case "panic":
			_, _ = io.Copy(io.Discard, os.Stdin)
			panic("worker test: boom")
		case "garbage":
			_, _ = io.Copy(io.Discard, os.Stdin)
			_, _ = os.Stdout.WriteString(workerMagic + "\n2 5\n{}hello trailing")
			os.Exit(0)
		case "hang":
			sleep := exec.Command("/bin/sleep", "60")
			if err := sleep.Start(); err != nil {
				os.Exit(70)
			}
			pids := strconv.Itoa(os.Getpid()) + " " + strconv.Itoa(sleep.Process.Pid)
			if err := os.WriteFile(os.Getenv("PASSLENS_TEST_WORKER_PIDS"), []byte(pids), 0o644); err != nil {
				os.Exit(71)
			}
			time.Sleep(time.Hour)
		}
		os.Exit(WorkerMain(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
