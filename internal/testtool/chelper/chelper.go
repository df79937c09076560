// Package chelper builds and runs the small C programs that let tests call
// an external library (libLLVM, SPIRV-Tools) many times in one process
// instead of starting a tool per check: Build compiles an embedded source
// once (cached in the user cache directory by a hash of the source and
// the flags), and Proc talks to the running program over a pipe, one
// request and one answer at a time. Answers are "OK\n", or "FAIL <n>\n"
// followed by n bytes of message.
//
// It is imported by tests only (through internal/testtool/llvmverify and
// internal/testtool/spirvval).
package chelper

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Build compiles the C source src with the system C compiler and the given
// flags (after the source file: -l and -L options) into a binary named
// after name and a hash of src and flags, and returns its path. A binary
// built before (by any process) is reused.
func Build(name string, src []byte, flags ...string) (string, error) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			return "", errors.New("no C compiler (gcc/cc)")
		}
	}
	sum := sha256.New()
	sum.Write(src)
	fmt.Fprint(sum, flags)
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "passlens-chelper")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, name+"-"+hex.EncodeToString(sum.Sum(nil)[:8]))
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	file := bin + ".c"
	if err := os.WriteFile(file, src, 0o644); err != nil {
		return "", err
	}
	tmp := fmt.Sprintf("%s.%d.tmp", bin, os.Getpid())
	args := append([]string{"-O1", "-o", tmp, file}, flags...)
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("compiling %s: %v\n%s", name, err, out)
	}
	return bin, os.Rename(tmp, bin)
}

// Proc is a running helper. Ask is safe for concurrent use; requests are
// answered one at a time.
type Proc struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// Start runs the helper binary bin.
func Start(bin string) (*Proc, error) {
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &Proc{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// Ask sends one request (written by write) and reads the answer: the
// check's complaint (nil when it passed), or ioErr when the helper broke.
func (p *Proc) Ask(write func(io.Writer) error) (complaint, ioErr error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := write(p.in); err != nil {
		return nil, err
	}
	line, err := p.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("helper %s: %v", filepath.Base(p.cmd.Path), err)
	}
	line = strings.TrimSpace(line)
	if line == "OK" {
		return nil, nil
	}
	n, perr := strconv.Atoi(strings.TrimPrefix(line, "FAIL "))
	if !strings.HasPrefix(line, "FAIL ") || perr != nil {
		return nil, fmt.Errorf("helper %s: unexpected answer %q", filepath.Base(p.cmd.Path), line)
	}
	msg := make([]byte, n)
	if _, err := io.ReadFull(p.out, msg); err != nil {
		return nil, fmt.Errorf("helper %s: %v", filepath.Base(p.cmd.Path), err)
	}
	return errors.New(strings.TrimSpace(string(msg))), nil
}

// Close stops the helper.
func (p *Proc) Close() error {
	p.in.Close()
	return p.cmd.Wait()
}
