// Package llvmverify checks LLVM IR text the way `llvm-as-22` does (parse,
// then the IR verifier) without starting a process per module: a small C
// program (csrc/verify.c, embedded) linked against libLLVM-22 through
// LLVM's C API reads modules from a pipe and answers for each. Tests that
// check thousands of emitted modules spent most of their time in process
// start-up otherwise (llvm-as-22 and opt-22 load libLLVM each time).
//
// The helper is built with `llvm-config-22`'s flags (package llvm-22-dev)
// on first use and cached (internal/testtool/chelper). Where it cannot be
// built, Text falls back to running llvm-as-22 on each module: the same
// check, slower.
//
// It is imported by tests only.
package llvmverify

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"passlens/internal/testtool"
	"passlens/internal/testtool/chelper"
)

//go:embed csrc/verify.c
var source []byte

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
		flags := func(args ...string) []string {
			out, e := exec.Command(cfg, args...).Output()
			err = errors.Join(err, e)
			return strings.Fields(string(out))
		}
		cflags, libdir, libs := flags("--cflags"), flags("--libdir"), flags("--libs", "core", "irreader", "analysis")
		if err != nil || len(libdir) != 1 {
			buildErr = fmt.Errorf("llvm-config-22: %v", err)
			return
		}
		args := append(append([]string(nil), cflags...), "-L"+libdir[0], "-Wl,-rpath,"+libdir[0])
		helperBin, buildErr = chelper.Build("llvmverify", source, append(args, libs...)...)
	})
	return helperBin, buildErr
}

// Verifier is a running helper process, safe for concurrent use.
type Verifier struct{ p *chelper.Proc }

// Start builds (or finds) the helper and starts it.
func Start() (*Verifier, error) {
	bin, err := build()
	if err != nil {
		return nil, err
	}
	p, err := chelper.Start(bin)
	if err != nil {
		return nil, err
	}
	return &Verifier{p}, nil
}

// Check parses and verifies one module. The error is nil when llvm-as-22
// would accept the text, else its complaint (name:line:col: error: ...,
// or the verifier's report). ioErr reports a broken helper.
func (v *Verifier) Check(name, text string) (err, ioErr error) {
	return v.p.Ask(func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%d %d\n%s%s", len(name), len(text), name, text)
		return err
	})
}

// Close stops the helper.
func (v *Verifier) Close() error { return v.p.Close() }

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
		if ioErr != nil {
			t.Fatal(ioErr)
		}
		return err
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
