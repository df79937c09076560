package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain removes the binary that binary() built for the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}
