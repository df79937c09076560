// Package testtool is the one rule for tests that need an external tool
// (opt-22, spirv-val, glslangValidator, tmux, a Vulkan device): with
// CI=true a missing tool fails the test; elsewhere the test is skipped
// with a message saying what to install.
package testtool

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// Require returns the path of the named tool, failing (CI=true) or
// skipping the test when it is not installed. pkg is the Debian package
// that provides it.
func Require(t testing.TB, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Unavailable(t, fmt.Sprintf("%s is not installed (apt-get install -y %s)", name, pkg))
	}
	return p
}

// Unavailable fails the test under CI=true and skips it otherwise.
func Unavailable(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s; CI=true requires it", why)
	}
	t.Skipf("skipping: %s", why)
}
