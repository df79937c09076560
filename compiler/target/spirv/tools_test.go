package spirv

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"passlens/internal/testtool"
	"path/filepath"
	"sync"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/pipeline"
	"passlens/internal/testtool/spirvval"
)

// Helpers shared by the tests: the external SPIRV-Tools oracles and the
// spirv pipeline.

// needTool returns the path of an external tool, skipping the test when it
// is missing (failing under CI=true).
func needTool(t testing.TB, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	testtool.Unavailable(t, fmt.Sprintf("%s is not installed (apt-get install -y spirv-tools)", name))
	return ""
}

// spirvVal validates words as spirv-val --target-env env does and returns
// its complaint ("" if valid). One helper process validates every module
// of the test binary (internal/testtool/spirvval), not a process each.
func spirvVal(t testing.TB, words []uint32, env string) string {
	t.Helper()
	return spirvval.Words(t, words, env)
}

// spirvDis runs spirv-dis on words.
func spirvDis(t testing.TB, words []uint32) string {
	t.Helper()
	dis := needTool(t, "spirv-dis")
	f := writeTemp(t, words)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(dis, "--no-color", f)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("spirv-dis: %v\n%s", err, stderr.String())
	}
	return stdout.String()
}

var tempMu sync.Mutex

func writeTemp(t testing.TB, words []uint32) string {
	t.Helper()
	tempMu.Lock()
	defer tempMu.Unlock()
	f, err := os.CreateTemp(t.TempDir(), "m*.spv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(Bytes(words)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return f.Name()
}

// runSpirvPipeline runs the default spirv pipeline on m in place.
func runSpirvPipeline(m *ir.Module) error {
	spec, err := pipeline.Default("spirv")
	if err != nil {
		return err
	}
	r := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: "spirv", VerifyEach: true})
	if r.Err != nil {
		return r.Err
	}
	return nil
}

// parseFile parses a .pir file.
func parseFile(t testing.TB, path string) *ir.Module {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.ParseModule(filepath.Base(path), src)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}
