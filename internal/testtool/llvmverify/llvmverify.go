// Package llvmverify checks LLVM IR text the way `llvm-as-22` does (parse,
// then the IR verifier) without starting a process per module: a small C
// program (csrc/verify.c, embedded) linked against libLLVM-22 through
// LLVM's C API reads modules from a pipe and answers for each. Tests that
// check thousands of emitted modules spend most of their time in process
// start-up otherwise (llvm-as-22 and opt-22 load libLLVM each time).
//
// The helper is compiled with the system C compiler and `llvm-config-22`
// (package llvm-22-dev) on first use and cached in the user cache
// directory by content hash, as compiler/target/spirv/vkrun does with its
// Vulkan runner. Where it cannot be built, Text falls back to running
// llvm-as-22 on each module: the same check, slower.
//
// It is imported by tests only.
package llvmverify

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
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
	"testing"

	"passlens/internal/testtool"
)

//go:embed csrc/verify.c
var source []byte

// Verifier is a running helper process. Check is safe for concurrent use;
// modules are checked one at a time.
type Verifier struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

var (
	buildOnce sync.Once
	helperBin string
	buildErr  error

	sharedOnce sync.Once
	shared     *Verifier
	sharedErr  error
)

// build compiles the helper once per process (cached across processes).
func build() (string, error) {
	buildOnce.Do(func() {
		cfg, err := exec.LookPath("llvm-config-22")
		if err != nil {
			buildErr = errors.New("llvm-config-22 not found (apt-get install -y llvm-22-dev)")
			return
		}
		cc, err := exec.LookPath("gcc")
		if err != nil {
			if cc, err = exec.LookPath("cc"); err != nil {
				buildErr = errors.New("no C compiler (gcc/cc)")
				return
			}
		}
		flags := func(args ...string) ([]string, error) {
			out, err := exec.Command(cfg, args...).Output()
			return strings.Fields(string(out)), err
		}
		cflags, err1 := flags("--cflags")
		libdir, err2 := flags("--libdir")
		libs, err3 := flags("--libs", "core", "irreader", "analysis")
		if err := errors.Join(err1, err2, err3); err != nil || len(libdir) != 1 {
			buildErr = fmt.Errorf("llvm-config-22: %v", err)
			return
		}
		sum := sha256.New()
		sum.Write(source)
		fmt.Fprint(sum, cflags, libdir, libs)
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		dir = filepath.Join(dir, "passlens-llvmverify")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			buildErr = err
			return
		}
		bin := filepath.Join(dir, "verify-"+hex.EncodeToString(sum.Sum(nil)[:8]))
		if _, err := os.Stat(bin); err == nil {
			helperBin = bin
			return
		}
		src := bin + ".c"
		if err := os.WriteFile(src, source, 0o644); err != nil {
			buildErr = err
			return
		}
		tmp := fmt.Sprintf("%s.%d.tmp", bin, os.Getpid())
		args := append(append([]string{"-O1"}, cflags...), "-o", tmp, src, "-L"+libdir[0], "-Wl,-rpath,"+libdir[0])
		args = append(args, libs...)
		if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("compiling the helper: %v\n%s", err, out)
			return
		}
		if err := os.Rename(tmp, bin); err != nil {
			buildErr = err
			return
		}
		helperBin = bin
	})
	return helperBin, buildErr
}

// Start builds (or finds) the helper and starts it.
func Start() (*Verifier, error) {
	bin, err := build()
	if err != nil {
		return nil, err
	}
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
	return &Verifier{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// Check parses and verifies one module. The error is nil when llvm-as-22
// would accept the text, else llvm-as-22's complaint (name:line:col:
// error: ..., or the verifier's report). ioErr reports a broken helper.
func (v *Verifier) Check(name, text string) (err, ioErr error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, err := fmt.Fprintf(v.in, "%d %d\n%s%s", len(name), len(text), name, text); err != nil {
		return nil, err
	}
	line, err := v.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("llvmverify helper: %v", err)
	}
	line = strings.TrimSpace(line)
	if line == "OK" {
		return nil, nil
	}
	n, perr := strconv.Atoi(strings.TrimPrefix(line, "FAIL "))
	if !strings.HasPrefix(line, "FAIL ") || perr != nil {
		return nil, fmt.Errorf("llvmverify helper: unexpected answer %q", line)
	}
	msg := make([]byte, n)
	if _, err := io.ReadFull(v.out, msg); err != nil {
		return nil, fmt.Errorf("llvmverify helper: %v", err)
	}
	return errors.New(strings.TrimSpace(string(msg))), nil
}

// Close stops the helper.
func (v *Verifier) Close() error {
	v.in.Close()
	return v.cmd.Wait()
}

// Text checks LLVM IR text as `llvm-as-22` would, through a helper shared
// by the test binary (started on first use), or through llvm-as-22 itself
// when the helper cannot be built. A missing llvm-as-22 then fails the
// test under CI=true and skips it otherwise (testtool). name labels the
// module in messages.
func Text(t testing.TB, name, text string) error {
	t.Helper()
	sharedOnce.Do(func() { shared, sharedErr = Start() })
	if sharedErr == nil {
		err, ioErr := shared.Check(name, text)
		if ioErr == nil {
			return err
		}
		t.Fatalf("%v", ioErr)
	}
	as := testtool.Require(t, "llvm-as-22", "llvm-22")
	f := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(as, "-o", os.DevNull, f).CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Available reports why the helper cannot be used ("" when it can).
func Available() string {
	if _, err := build(); err != nil {
		return err.Error()
	}
	return ""
}
