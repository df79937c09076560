// Package passdump reads the pass logs real compilers print and turns them
// into a list of steps, each the whole module after one pass, for the
// explorer (tui/backend), `passlens dump` and replay scripts.
//
// Supported logs (docs/pass-dumps.md has examples of each):
//
//   - LLVM's new pass manager: "; *** IR Dump After P on S ***" (and Before),
//     with -print-module-scope, -print-changed[=quiet] ("*** IR Dump At
//     Start ***", "… omitted because no change"), -filter-print-funcs;
//   - the legacy pass manager as DXC, llc's IR passes and older tools print
//     it: "*** IR Dump After Pass Name ***" or "… (pass-arg) ***";
//   - llc's machine IR: "# *** IR Dump After P (arg) ***:" followed by
//     "# Machine code for function f" blocks;
//   - spirv-opt --print-all: "; IR before pass P" blocks of SPIR-V assembly;
//   - passlens's own `compile --print-after-all` and --print-changed output,
//     including the back end's "*** SIR Dump After … ***" stages.
//
// A log is indexed by one sequential scan that records, for every dump,
// where its header and body are and where the functions of the body start
// and end, with a hash of every piece (so that a step knows whether it
// changed anything without reading the log again). A step's text is
// composed on demand with ReadAt from the pieces that make up the module at
// that step: function-level dumps replace the function of that name in a
// running module state, module-level dumps replace the whole state, and loop
// dumps replace the printed blocks inside their function (such steps are
// marked Partial: the blocks outside the loop are as of the previous step).
// Memory is proportional to the number of pieces, not to the size of the log.
package passdump
