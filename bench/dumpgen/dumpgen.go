// Package dumpgen writes large, deterministic LLVM pass logs in the shape
// `clang -O2 -mllvm -print-after-all` prints for a big module: whole-module
// dumps for module passes, function dumps for every function pass on every
// function (some of which change the function), and loop dumps, repeated in
// rounds until the log reaches the requested size. It feeds the pass-log
// benchmarks (bench/passdump.sh, compiler/passdump's BenchmarkIndex).
package dumpgen

import (
	"bufio"
	"fmt"
	"io"
)

// Options sizes the log.
type Options struct {
	Size      int64 // stop after the round that reaches this many bytes
	Funcs     int   // functions in the module (default 400)
	Blocks    int   // loop bodies per function (default 6)
	FuncPass  int   // function passes per function per round (default 40)
	LoopPass  int   // loop-pass dumps per function per round (default 5)
	ModPasses int   // module-pass dumps between rounds (default 5)
}

func (o *Options) defaults() {
	if o.Funcs == 0 {
		o.Funcs = 400
	}
	if o.Blocks == 0 {
		o.Blocks = 6
	}
	if o.FuncPass == 0 {
		o.FuncPass = 40
	}
	if o.LoopPass == 0 {
		o.LoopPass = 5
	}
	if o.ModPasses == 0 {
		o.ModPasses = 5
	}
}

var funcPasses = []string{"SROAPass", "EarlyCSEPass", "SimplifyCFGPass", "InstCombinePass", "GVNPass", "LoopSimplifyPass",
	"LCSSAPass", "ReassociatePass", "SCCPPass", "BDCEPass", "ADCEPass", "DSEPass", "MemCpyOptPass", "CorrelatedValuePropagationPass"}
var loopPasses = []string{"LoopInstSimplifyPass", "LoopRotatePass", "LICMPass", "IndVarSimplifyPass", "LoopDeletionPass"}
var modPasses = []string{"GlobalOptPass", "IPSCCPPass", "GlobalDCEPass", "DeadArgumentEliminationPass", "ConstantMergePass"}

// function prints function f in version v (versions differ in one
// constant, so that "changed" dumps really change).
func function(w *bufio.Writer, o *Options, f, v int) {
	fmt.Fprintf(w, "; Function Attrs: nounwind\ndefine amdgpu_kernel void @k%d(ptr addrspace(1) %%out, i32 %%n) #0 {\nentry:\n", f)
	fmt.Fprintf(w, "  %%id = call i32 @llvm.amdgcn.workitem.id.x()\n  %%c0 = icmp sgt i32 %%n, 0\n  br i1 %%c0, label %%loop0, label %%exit\n\n")
	for b := 0; b < o.Blocks; b++ {
		loopBlock(w, o, b, v, 1)
		w.WriteString("\n")
	}
	fmt.Fprintf(w, "exit:\n  ret void\n}\n")
}

// loopBlock prints loop body b (a self-loop) counting by step.
func loopBlock(w *bufio.Writer, o *Options, b, v, step int) {
	next := fmt.Sprintf("loop%d", b+1)
	if b == o.Blocks-1 {
		next = "exit"
	}
	pred := "entry"
	if b > 0 {
		pred = fmt.Sprintf("loop%d", b-1)
	}
	fmt.Fprintf(w, "loop%d:                                            ; preds = %%%s, %%loop%d\n", b, pred, b)
	fmt.Fprintf(w, "  %%i%d = phi i32 [ 0, %%%s ], [ %%i%d.next, %%loop%d ]\n", b, pred, b, b)
	fmt.Fprintf(w, "  %%acc%d = phi i32 [ %d, %%%s ], [ %%sum%d, %%loop%d ]\n", b, v, pred, b, b)
	fmt.Fprintf(w, "  %%x%d = mul nsw i32 %%i%d, %%id\n  %%sum%d = add nsw i32 %%acc%d, %%x%d\n", b, b, b, b, b)
	fmt.Fprintf(w, "  %%p%d = getelementptr inbounds i32, ptr addrspace(1) %%out, i32 %%i%d\n", b, b)
	fmt.Fprintf(w, "  store i32 %%sum%d, ptr addrspace(1) %%p%d, align 4\n", b, b)
	fmt.Fprintf(w, "  %%i%d.next = add nuw nsw i32 %%i%d, %d\n  %%c%d.1 = icmp slt i32 %%i%d.next, %%n\n", b, b, step, b, b)
	fmt.Fprintf(w, "  br i1 %%c%d.1, label %%loop%d, label %%%s\n", b, b, next)
}

func module(w *bufio.Writer, o *Options, versions []int) {
	fmt.Fprintf(w, "; ModuleID = 'big.cl'\nsource_filename = \"big.cl\"\ntarget triple = \"amdgcn-amd-amdhsa\"\n\n")
	for f := range versions {
		function(w, o, f, versions[f])
		w.WriteString("\n")
	}
	w.WriteString("declare i32 @llvm.amdgcn.workitem.id.x()\n\nattributes #0 = { nounwind \"target-cpu\"=\"gfx1100\" }\n")
}

// countingWriter counts bytes written.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Write writes a log of at least o.Size bytes (one round at least).
func Write(out io.Writer, o Options) error {
	o.defaults()
	cw := &countingWriter{w: out}
	w := bufio.NewWriterSize(cw, 1<<20)
	versions := make([]int, o.Funcs)
	seq := 0
	for round := 0; ; round++ {
		for p := 0; p < o.ModPasses; p++ {
			fmt.Fprintf(w, "; *** IR Dump After %s on [module] ***\n", modPasses[p%len(modPasses)])
			module(w, &o, versions)
		}
		for f := 0; f < o.Funcs; f++ {
			for p := 0; p < o.FuncPass; p++ {
				seq++
				if seq%5 == 0 {
					versions[f]++ // one function pass in five changes the function
				}
				fmt.Fprintf(w, "; *** IR Dump After %s on k%d ***\n", funcPasses[p%len(funcPasses)], f)
				function(w, &o, f, versions[f])
				if p == o.FuncPass/2 {
					// Loop passes on the first loop: alternately counting by 2
					// and by 1 again (what the function dumps print).
					for lp := 0; lp < o.LoopPass; lp++ {
						fmt.Fprintf(w, "; *** IR Dump After %s on loop %%loop0 in function k%d ***\n\n; Loop:\n", loopPasses[lp%len(loopPasses)], f)
						loopBlock(w, &o, 0, versions[f], 2-lp%2)
						w.WriteString("\n; Exit blocks\n")
						if o.Blocks > 1 {
							loopBlock(w, &o, 1, versions[f], 1)
						} else {
							w.WriteString("exit:\n  ret void\n")
						}
					}
				}
			}
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if cw.n >= o.Size {
			return nil
		}
	}
}
