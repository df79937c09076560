package vkd3d

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// TestLoadChild is the child of TestMissingData: it only calls Load.
func TestLoadChild(t *testing.T) {
	if os.Getenv("PASSLENS_VKD3D_CHILD") != "1" {
		t.Skip("run by TestMissingData")
	}
	Load(t)
}

func TestLoadChild2(t *testing.T) {
	if os.Getenv("PASSLENS_VKD3D_CHILD") != "1" {
		t.Skip("run by TestMissingData")
	}
	Load(t)
}

// Missing conformance data fails under CI=true; otherwise the tests skip
// and one summary line says how many and why.
func TestMissingData(t *testing.T) {
	run := func(ci string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLoadChild")
		cmd.Env = append(os.Environ(), "PASSLENS_VKD3D_CHILD=1", "PASSLENS_CONFORMANCE="+t.TempDir(), "CI="+ci)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("true")
	if err == nil || !strings.Contains(out, "CI=true requires it") || !strings.Contains(out, "../shared/conformance") {
		t.Errorf("CI=true without data: err %v, output:\n%s", err, out)
	}
	out, err = run("")
	if err != nil {
		t.Fatalf("without CI: %v\n%s", err, out)
	}
	if n := strings.Count(out, "conformance tests skipped"); n != 1 || !strings.Contains(out, "vkd3d: 2 conformance tests skipped") {
		t.Errorf("want one summary line for the two skipped tests, got:\n%s", out)
	}
}
