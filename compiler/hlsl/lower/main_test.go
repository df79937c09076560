package lower

import (
	"testing"

	"passlens/internal/vkd3d"
)

// TestMain prints one line saying how many conformance tests were skipped
// and why when ../shared/conformance is missing (vkd3d.Main).
func TestMain(m *testing.M) { vkd3d.Main(m) }
