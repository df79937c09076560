package ir

import (
	"testing"
	"unsafe"
)

// TestInstrSize keeps Instr in the 224-byte allocation class: a module
// imported from a large .ll file holds an Instr per LLVM instruction, and
// the one-byte fields are grouped for this (instr.go). A field added to
// Instr should go to a side structure or be weighed against this bound.
func TestInstrSize(t *testing.T) {
	if n := unsafe.Sizeof(Instr{}); n > 224 {
		t.Fatalf("ir.Instr is %d bytes, want at most 224 (see the field order in instr.go)", n)
	}
}
