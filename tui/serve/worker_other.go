//go:build !linux

package serve

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"
)

// workerSupported: without Linux's per-process limits the server keeps
// heavy work in process (budget.go).
const workerSupported = false

func limitWorker(mem int64, cpu int, stderr io.Writer) error {
	return errors.New("the compile worker runs on Linux only")
}

func selfExecutable() (string, error) { return os.Executable() }

func workerProcAttr(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

func signalOf(st *os.ProcessState) syscall.Signal { return 0 }
