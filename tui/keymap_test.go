package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A config can never make the explorer impossible to leave.
func TestConfigKeepsQuit(t *testing.T) {
	for _, remap := range []map[string][]string{
		{"quit": {}},
		{"quit": nil},
		{"cancel": {}},
		{"help": {}},
		{"run-lanes": {"ctrl+c"}},
	} {
		k := DefaultKeyMap()
		if err := k.Apply(remap); err == nil {
			t.Errorf("Apply(%v) accepted", remap)
		}
	}
	k := DefaultKeyMap()
	if err := k.Apply(map[string][]string{"quit": {"Q"}}); err != nil {
		t.Fatal(err)
	}
	if keys := k.Quit.Keys(); !slices.Contains(keys, "ctrl+c") || !slices.Contains(keys, "Q") || slices.Contains(keys, "q") {
		t.Errorf("quit remapped to Q has keys %v, want Q and ctrl+c", keys)
	}
}

// The config file is read with the shared bound: a link to /dev/zero is an
// error naming the file, not an endless read.
func TestLoadConfigRefusesDevices(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("LoadConfig(link to /dev/zero) = %v", err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"keys":{"quit":[]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	k := DefaultKeyMap()
	if err := k.Apply(c.Keys); err == nil || !strings.Contains(err.Error(), "quit") {
		t.Fatalf(`{"keys":{"quit":[]}} applied: %v`, err)
	}
}
