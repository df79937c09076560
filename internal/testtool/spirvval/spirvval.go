// Package spirvval validates SPIR-V binaries the way `spirv-val
// --target-env ENV` does (SPIRV-Tools' validator, default options) without
// starting a process per module: a small C program (csrc/validate.c,
// embedded) linked against the SPIRV-Tools library (the spirv-tools
// package ships it with spirv-val) answers for each binary over a pipe.
//
// The helper is built on first use and cached (internal/testtool/chelper).
// Where it cannot be built, Words falls back to running spirv-val on each
// binary: the same check, slower.
//
// It is imported by tests only.
package spirvval

import (
	_ "embed"
	"encoding/binary"
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

//go:embed csrc/validate.c
var source []byte

var (
	buildOnce sync.Once
	helperBin string
	buildErr  error

	sharedOnce sync.Once
	shared     *Validator
	sharedErr  error
)

func build() (string, error) {
	buildOnce.Do(func() {
		helperBin, buildErr = chelper.Build("spirvval", source, "-lSPIRV-Tools", "-lstdc++", "-lm")
	})
	return helperBin, buildErr
}

// Validator is a running helper process, safe for concurrent use.
type Validator struct{ p *chelper.Proc }

// Start builds (or finds) the helper and starts it.
func Start() (*Validator, error) {
	bin, err := build()
	if err != nil {
		return nil, err
	}
	p, err := chelper.Start(bin)
	if err != nil {
		return nil, err
	}
	return &Validator{p}, nil
}

// Check validates one binary for target environment env (spirv-val's
// --target-env spelling, e.g. "vulkan1.1"). The error is nil when
// spirv-val would accept it, else its complaint. ioErr reports a broken
// helper.
func (v *Validator) Check(words []uint32, env string) (err, ioErr error) {
	if strings.ContainsAny(env, " \n") || env == "" {
		return fmt.Errorf("bad target environment %q", env), nil
	}
	return v.p.Ask(func(w io.Writer) error {
		if _, err := fmt.Fprintf(w, "%s %d\n", env, len(words)); err != nil {
			return err
		}
		return binary.Write(w, binary.LittleEndian, words)
	})
}

// Close stops the helper.
func (v *Validator) Close() error { return v.p.Close() }

// Words validates a SPIR-V binary as `spirv-val --target-env env` would,
// through a helper shared by the test binary, or through spirv-val itself
// when the helper cannot be built (a missing spirv-val then fails under
// CI=true and skips otherwise). It returns the complaint, "" if valid.
func Words(t testing.TB, words []uint32, env string) string {
	t.Helper()
	sharedOnce.Do(func() { shared, sharedErr = Start() })
	if sharedErr == nil {
		err, ioErr := shared.Check(words, env)
		if ioErr != nil {
			t.Fatal(ioErr)
		}
		if err != nil {
			return err.Error()
		}
		return ""
	}
	val := testtool.Require(t, "spirv-val", "spirv-tools")
	f := filepath.Join(t.TempDir(), "m.spv")
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(val, "--target-env", env, f).CombinedOutput(); err != nil {
		return strings.TrimSpace(string(out)) + " (" + err.Error() + ")"
	}
	return ""
}

// Available reports why the helper cannot be used ("" when it can).
func Available() string {
	if _, err := build(); err != nil {
		return err.Error()
	}
	return ""
}
