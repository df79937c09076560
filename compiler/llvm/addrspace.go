package llvm

import (
	"sort"
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// AMDGPU address spaces (AMDGPUAS) that the bridge maps to passlens spaces.
const (
	ASFlat     = 0 // generic pointer: may address global, LDS or scratch
	ASGlobal   = 1
	ASLocal    = 3 // LDS, HLSL groupshared
	ASConstant = 4 // read-only, uniform-address loads are scalar
	ASPrivate  = 5 // scratch: per-lane memory, allocas
)

// spaceMap is the bijection between the LLVM address spaces the importer
// accepts and passlens spaces. Every passlens space has an LLVM address
// space on export; import accepts only the five AMDGPU spaces above, so
// LLVMAddrSpace(SpaceForLLVM(n)) == n for them and the original number is
// never lost.
//
// flat (0) has no passlens counterpart; it maps to "private" because both
// name memory that may be per-lane (a flat pointer may point into scratch),
// which is what matters to uniformity: AMDGPU treats loads from flat and
// private memory as divergent.
var spaceMap = map[int]ir.AddrSpace{
	ASFlat:     ir.SpacePrivate,
	ASGlobal:   ir.SpaceStorage,
	ASLocal:    ir.SpaceGroupshared,
	ASConstant: ir.SpaceUniform,
	ASPrivate:  ir.SpaceFunction,
}

// SpaceForLLVM maps an LLVM address space number to its passlens space.
func SpaceForLLVM(as int) (ir.AddrSpace, bool) {
	s, ok := spaceMap[as]
	return s, ok
}

// LLVMAddrSpace maps a passlens space to the LLVM address space the
// exporter uses. Stage inputs and outputs have no AMDGPU address space of
// their own: inputs are exported as private (divergent) or constant
// (uniform) memory by the exporter according to their semantic, and both
// map to private here.
func LLVMAddrSpace(s ir.AddrSpace) int {
	switch s {
	case ir.SpaceFunction:
		return ASPrivate
	case ir.SpacePrivate:
		return ASFlat
	case ir.SpaceUniform:
		return ASConstant
	case ir.SpaceGroupshared:
		return ASLocal
	case ir.SpaceStorage:
		return ASGlobal
	}
	return ASPrivate
}

func supportedSpaces() string {
	var ns []int
	for n := range spaceMap {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	var parts []string
	for _, n := range ns {
		parts = append(parts, strconv.Itoa(n)+" "+spaceMap[n].String())
	}
	return strings.Join(parts, ", ")
}
