// Package spvread reads SPIR-V into passlens IR: assembly text as
// spirv-dis prints it (and spirv-opt --print-all logs contain) and binary
// .spv modules. It exists so that SPIR-V — spirv-opt pass steps, or a
// shader compiled by glslangValidator or DXC — gets what passlens's own
// modules get: dominator, post-dominator and cycle trees, the uniformity
// overlay with reasons and, where the module uses only what the
// interpreter runs, lanes.
//
// The mapping is the inverse of the SPIR-V back end (compiler/target/spirv):
// storage classes become address spaces, a buffer whose Block struct has
// one non-struct member becomes a global of that member, built-ins become
// semantics (GlobalInvocationId is SV_DispatchThreadID), the subgroup
// built-ins become WaveGetLaneIndex/WaveGetLaneCount, OpGroupNonUniform*
// at Subgroup scope become wave intrinsics, GLSL.std.450 becomes HLSL
// math intrinsics, OpControlBarrier becomes the HLSL barrier with the
// same memory semantics, and structured merges become merge annotations.
// Instructions with no IR counterpart become opaque operations
// (spirv.opaque.<Op> intrinsics) on their value operands, so the CFG and
// def-use edges — and with them the analyses — stay exact; such a module
// cannot run. Errors are located: file:line:col with a caret for text,
// the word offset for binary input.
package spvread

import (
	"bytes"
	"strings"

	"passlens/compiler/ir"
	"passlens/internal/guard"
)

// Options configure a read.
type Options struct {
	// IDNames names values, blocks and functions by their SPIR-V ids
	// (the assembly's %names) instead of their OpName, so that the IR's
	// names are the ones a reader of the assembly sees: the pass-dump
	// driver's trees, uniformity overlay and lanes then name the lines of
	// the step's SPIR-V text.
	IDNames bool
}

// Read reads a module in either form: binary when data starts with the
// SPIR-V magic number, assembly otherwise. Values are named by their
// OpName where they have one.
func Read(file string, data []byte) (*ir.Module, error) { return ReadWith(file, data, Options{}) }

// ReadWith is Read with options.
func ReadWith(file string, data []byte, opts Options) (m *ir.Module, err error) {
	defer guard.Recover(&err, "the SPIR-V reader")
	var insts []inst
	if IsBinary(data) {
		insts, err = decodeBinary(file, data)
	} else {
		insts, err = parseText(file, data)
	}
	if err != nil {
		return nil, err
	}
	r := &reader{file: file, insts: insts, idNames: opts.IDNames}
	m, err = r.build()
	if le, ok := err.(*locErr); ok {
		return nil, located(file, strings.Split(string(data), "\n"), le)
	}
	return m, err
}

// LooksLikeAssembly reports whether text is SPIR-V assembly: it has an
// OpCapability, OpEntryPoint or OpFunction line.
func LooksLikeAssembly(data []byte) bool {
	for _, k := range [][]byte{[]byte("OpCapability "), []byte("OpEntryPoint "), []byte("= OpFunction ")} {
		if bytes.Contains(data, k) {
			return true
		}
	}
	return false
}
