// Package dxil is the DXIL-style back end: it turns a module that went
// through the "dxil" pipeline (inline, sroa, simplify, scalarize, simplify)
// into scalar LLVM IR in the shape DXIL expects, following the project's
// DXIL scalarization design:
//
//   - no vector values or vector types: the scalarize pass has split vector
//     arithmetic, calls, loads and stores per element; the back end's
//     legalization (legalize.go) retypes what remains in memory (globals,
//     struct fields, pointer types) from <N x T> to [N x T] and rejects any
//     vector-typed value that survived, naming the instruction;
//   - value conversions stay explicit sitofp/uitofp/fptosi/fptoui; bitcast
//     only for asfloat/asuint reinterpretation, one scalar at a time;
//   - HLSL intrinsics become dx.op calls with DXIL's opcode numbers
//     (dxop.go), e.g. "call float @dx.op.unary.f32(i32 13, float %x)" for
//     sin, and system values (SV_DispatchThreadID, ...) become
//     dx.op.threadId and friends (sysvalue.go);
//   - functions no entry point calls are dropped (prune.go) and external
//     declarations get scalar signatures (flatten.go);
//   - the text is written by the LLVM bridge (compiler/llvm.Export) and
//     adjusted for the dxil target (retarget in dxil.go).
//
// See docs/dxil.md for the full mapping and what is not produced.
package dxil
