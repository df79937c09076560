// Package spirv is passlens's SPIR-V back end: it turns a module that went
// through the "spirv" pipeline into a SPIR-V 1.3 binary for Vulkan 1.1
// (Assemble, registered as target "spirv" by Emit) and turns binaries back
// into text exactly as spirv-dis prints them (Disassemble).
//
// The translation, file by file:
//
//   - emit.go: entry points (GLCompute with LocalSize, Fragment with
//     OriginUpperLeft and DepthReplacing, Vertex), capabilities, the
//     module layout;
//   - types.go, layout.go: types per layout rule (plain, std140 for
//     Uniform, std430 for StorageBuffer, both vector-relaxed), constants;
//   - globals.go: buffers as Block structs with DescriptorSet/Binding and
//     NonWritable, groupshared as Workgroup, stage I/O as built-ins or
//     Locations (Flat for integer pixel inputs);
//   - cfg.go: block order (reverse postorder), merges from the IR's
//     selection_merge/loop_merge annotations, derived merges where an
//     annotation is missing, loud errors for unstructured control flow;
//   - func.go, ops.go, intrinsics.go: instructions (accesses used only
//     as bases of other accesses fold into one OpAccessChain), including
//     GLSL.std.450 math, OpGroupNonUniform* wave operations, atomics,
//     barriers and OpKill for discard, with the IR's definitions of
//     shifts (masked amounts) and division by zero (all ones);
//   - matrix.go: transpose and mul of matrices OpTypeMatrix cannot hold
//     (integer, one row or column), element by element; f16tof32/f32tof16;
//   - decode.go, grammar.go, disasm.go, spec.go: the binary format.
//
// Errors (*Error) name the function, block and instruction and, where the
// IR records one, the source position.
//
// Correctness is checked externally: every test module, sample, supported
// vkd3d shader and generated program must pass spirv-val --target-env
// vulkan1.1, the disassembly must equal spirv-dis byte for byte, and
// compute shaders (dispatched) and pixel shaders (drawn) are run on
// Mesa's lavapipe (package vkrun) and compared with the interpreter (see
// docs/conformance.md).
package spirv
