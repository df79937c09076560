//go:build linux

package serve

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"syscall"
)

// workerSupported: heavy work runs in a child process on Linux, where the
// kernel limits below exist; elsewhere it stays in process (budget.go).
const workerSupported = true

// workerAddressSlack is RLIMIT_AS above the memory cap. Go reserves
// 1.5-2.5 GB of address space that it never touches (arena index,
// heap hints), so RLIMIT_AS cannot be the cap itself; RLIMIT_DATA, which
// counts the writable memory actually mapped, is. RLIMIT_AS is a backstop.
const workerAddressSlack = 4 << 30

// workerNice is the worker's scheduling priority: the server's sessions
// (nice 0) get about 10× its share of a contended core.
const workerNice = 10

// limitWorker applies the worker's limits to its own process, before the
// request is read: memory, CPU seconds (SIGXCPU at cpu, SIGKILL 2 s
// later), no core files, no file writes, and nice 10.
//
// Memory: mem (the session cap) is the collector's soft limit
// (debug.SetMemoryLimit), which keeps the heap collected down to about
// what is live, as the in-process watchdog bounded the growth of the live
// heap; RLIMIT_DATA at 1.5× mem is the hard ceiling the kernel enforces
// on what the process maps (it counts garbage not yet collected, freed
// pages not yet unmapped and the collector's metadata, so it cannot be
// the cap itself: a 4 MiB module of statements with ~600 MB live maps
// more than 1 GiB under a 768 MiB soft limit). RLIMIT_AS is a backstop
// (workerAddressSlack).
func limitWorker(mem int64, cpu int, stderr io.Writer) error {
	set := func(what string, res int, cur, max uint64) error {
		if err := syscall.Setrlimit(res, &syscall.Rlimit{Cur: cur, Max: max}); err != nil {
			return fmt.Errorf("setting %s: %v", what, err)
		}
		return nil
	}
	if err := set("RLIMIT_CORE", syscall.RLIMIT_CORE, 0, 0); err != nil {
		return err
	}
	if err := set("RLIMIT_FSIZE", syscall.RLIMIT_FSIZE, 0, 0); err != nil {
		return err
	}
	if mem > 0 {
		debug.SetMemoryLimit(mem)
		data := uint64(mem) / 2 * 3
		if err := set("RLIMIT_DATA", syscall.RLIMIT_DATA, data, data); err != nil {
			return err
		}
		as := data + workerAddressSlack
		if err := set("RLIMIT_AS", syscall.RLIMIT_AS, as, as); err != nil {
			return err
		}
	}
	if cpu > 0 {
		// Go ignores SIGXCPU unless asked: report it and exit; the hard
		// limit's SIGKILL is the backstop.
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGXCPU)
		go func() {
			<-c
			fmt.Fprintf(stderr, "%s: CPU time limit (%d s) reached\n", WorkerArg, cpu)
			os.Exit(workerExitCPU)
		}()
		if err := set("RLIMIT_CPU", syscall.RLIMIT_CPU, uint64(cpu), uint64(cpu)+2); err != nil {
			return err
		}
	}
	niceThreads()
	return nil
}

// niceThreads sets every thread of the process to workerNice. Linux keeps
// a nice value per thread and a new thread inherits its creator's, so
// once the existing threads are set (twice, for one created meanwhile),
// every later one is too.
func niceThreads() {
	for range 2 {
		tids, _ := filepath.Glob("/proc/self/task/*")
		for _, t := range tids {
			if tid, err := strconv.Atoi(filepath.Base(t)); err == nil {
				_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, workerNice)
			}
		}
	}
}

// selfExecutable is the server's own binary as a child will exec it.
func selfExecutable() (string, error) { return "/proc/self/exe", nil }

// workerProcAttr puts the worker in its own process group (killGroup ends
// it and anything it started) and has the kernel kill it if the server
// dies first.
func workerProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the worker's process group.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
		return cmd.Process.Kill()
	}
	return nil
}

// signalOf is the signal that ended the worker (0 for an exit).
func signalOf(st *os.ProcessState) syscall.Signal {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal()
	}
	return 0
}
