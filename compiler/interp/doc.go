// Package interp is a SIMT interpreter for passlens modules. It runs any
// snapshot of the pipeline (allocas or SSA, vectors and structs or
// scalarized, with or without structured merge annotations) the way a GPU
// runs a shader: in waves of N lanes (Options.WaveSize, 4 to 64), each
// lane an invocation (a compute thread, a pixel or a vertex), with
// per-lane values, execution masks, wave operations that see exactly the
// lanes executing them together, groupshared memory and barriers.
//
// # Dispatch
//
// Compute shaders run Input.Dispatch workgroups of NumThreads threads, one
// group after another; the threads of a group fill waves in SV_GroupIndex
// order (thread i is lane i%N of wave i/N); the waves of a group run in
// turn, each until it finishes or reaches a barrier. Pixel shaders run one
// invocation per pixel (row-major over Input.Rect, or Input.Pixels), vertex
// shaders one per vertex, in waves of N in that order. See docs/run.md for
// inputs, outputs and defaults.
//
// LLVM kernels (compute entry points with parameters, imported from .ll
// by compiler/llvm) get their pointer arguments as buffers and their
// scalars from Input.Args (kernelargs.go); the AMDGPU dispatch packet and
// hidden arguments are byte objects (llvmintr.go); LLVM intrinsics are
// looked up without their overload suffixes (llvmintr.go, wave.go); OpenCL
// built-ins left as declarations run by their demangled names (opencl*.go).
//
// # Reconvergence
//
// Within a wave, lanes that take different branches form lane groups. The
// interpreter implements maximal convergence as defined by LLVM (the
// "maximal converged-with" relation of its Convergence And Uniformity
// document, seed convergence-and-uniformity.rst): two lanes execute a block
// together exactly when they are at the same block in the same iteration
// of every cycle containing it. Precisely, a lane's execution of block X is
// identified by X and, for each region (below) containing X, the number of
// times the lane has executed that region's header since it last entered
// the region; the lanes of a wave with equal identities execute X together
// (random_test.go checks exactly this on random reducible and irreducible
// CFGs). Outside cycles that means lanes reconverge at the first block both
// reach (the earliest join: the immediate post-dominator of the divergent
// branch, or earlier in unstructured code); inside a cycle, lanes
// reconverge within the same iteration; lanes leaving a cycle in different
// iterations reconverge after it.
//
// Regions. The cycles are those of the cycle hierarchy (LLVM
// GenericCycleInfo: maximal strongly connected components, each headed by
// the block through which DFS first enters it, children found with the
// header removed; irreducible cycles included). Structured annotations
// refine them: when a cycle's header carries a loop_merge annotation, its
// region is the whole SPIR-V loop construct (the blocks the header
// dominates, minus those the merge block dominates), so lanes that break
// out in the same iteration stay together until the merge (HLSL and
// SPV_KHR_maximal_reconvergence semantics); an annotated header that heads
// no cycle (do { } while (false)) gets its construct as a region too. An
// annotation whose construct does not contain its cycle is ignored.
// Without annotations (LLVM IR input), a block that only exits the loop is
// outside the cycle, and lanes breaking in different iterations reconverge
// there, exactly as maximal convergence says.
//
// Scheduling. Regions are numbered depth first: within each region (child
// regions collapsed to one node, edges into the region's own header
// ignored), nodes are ordered topologically, ties broken by reverse
// post-order, so every region's blocks are contiguous; after them comes
// the region's end number. A lane group carries one iteration token per
// region it is in. The wave always runs the group with the smallest
// number; before running, it merges every group at the same block with the
// same tokens. A group that reaches a region's header (from inside the
// region: a back edge; or entering it) waits at the region's end number;
// when it runs, the header starts a new iteration with a fresh token.
// Every other edge leads to a larger number (the order is topological), so
// a group never runs a block while another group that could still reach
// that block in the same iteration is behind it: merges are never missed.
// Tokens are fresh per header execution, so lanes in different iterations
// never merge. Calls run the callee for the calling group to completion
// (lanes that diverge inside reconverge at its return); discarded lanes
// leave their group.
//
// Policies. PolicyMaximal is the rule above. PolicySwitchSeparate differs
// only at switch instructions: lanes that enter a switch through different
// case label groups are tagged apart and do not merge until they leave the
// switch's construct (the blocks the switch block dominates, minus those
// its merge dominates; the merge is the selection_merge annotation, else
// the immediate post-dominator: without an annotation a case reached by
// fallthrough cannot be told from code after the switch, and as it
// post-dominates the switch it is taken as the merge, where lanes rejoin).
// This is what SPIR-V permits for OpSwitch
// (maximal reconvergence only promises one tangle per case construct) and
// what some drivers do; it exposes the fallthrough hazard of seed
// switch-to-if-lowering.md: testdata/switch42.hlsl gives [42, 42, 40, 40]
// under maximal and [22, 22, 20, 20] under switch-separate, and its
// switch-to-if lowering gives [42, 42, 40, 40] under both.
//
// # Semantics
//
// Values are flat runs of 64-bit cells (layout.go). Integers wrap; division
// by zero gives all ones (D3D's udiv rule, applied to signed division too);
// shift amounts use their low log2(width) bits; float-to-int conversions
// truncate and saturate, NaN giving 0 (ops.go). Float operations round to
// their width after every step, IEEE, denormals kept, nothing fused;
// transcendental intrinsics are computed in float64 and rounded once
// (float.go, intrinsics.go). Wave reductions combine lanes in ascending
// lane order (wave.go). Out-of-bounds or invalid accesses read zero and
// drop stores in every address space, like D3D robust buffer access
// (memory.go); undefined values read as zero. Nothing the program does can
// crash the interpreter: malformed IR, unsupported operations, unreachable,
// divergent barriers, writes to read-only memory, runaway loops
// (Options.MaxSteps) and runaway memory (MaxMemoryCells) are reported as
// *Error values, located at the
// function, block and instruction, and matching the Err* sentinels with
// errors.Is.
package interp
