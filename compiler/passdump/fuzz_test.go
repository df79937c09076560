package passdump

import (
	"strings"
	"testing"
)

// FuzzSplit feeds arbitrary logs to the indexer: it must never panic, and
// every step it finds must compose (pieces inside the log, function spans
// inside the text, patches applied).
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"; *** IR Dump After SROAPass on f ***\ndefine void @f() {\nentry:\n  ret void\n}\n",
		"*** IR Dump At Start ***\n; ModuleID = 'a'\ndefine void @f() {\n  ret void\n}\n*** IR Dump After X on f omitted because no change ***\n",
		"; *** IR Dump After LICMPass on loop %l in function f ***\n\n; Preheader:\nentry:\n  br label %l\n\n; Loop:\nl:\n  br label %l\n",
		"*** IR Dump After Simplify the CFG ***\n; Function Attrs: nounwind\ndefine i32 @main() {\n  ret i32 0\n}\n",
		"# *** IR Dump After Machine Sinking (machine-sink) ***:\n# Machine code for function f: IsSSA\nbb.0:\n  successors: %bb.1(0x80000000); %bb.1(100.00%)\n\nbb.1:\n  S_ENDPGM 0\n\n# End machine code for function f.\n\n",
		"; IR before pass merge-return\nOpCapability Shader\n%main = OpFunction %void None %3\nOpFunctionEnd\n; IR after last pass\nOpCapability Shader\n",
		"; IR before pass ccp\n%main = OpFunction %void None %3\n%5 = OpLabel\nOpSelectionMerge %7 None\nOpBranchConditional %c %6 %7\n%6 = OpLabel\nOpSwitch %s %7 1 %6 2 %5\n%7 = OpLabel\nOpReturn\nOpFunctionEnd\n",
		"*** IR Dump After inline ***\nmodule \"a\"\n\ndefine void @main() compute {\nentry:\n  ret\n}\n*** SIR Dump After sir-lower ***\nmov r0, r1\n",
		"*** IR Deleted After GlobalDCEPass on g ***\n; *** IR Dump After X on (f, g) ***\ndefine void @g() {\n}\n",
		"*** IR Dump After DummyCGSCCPass (DummyCGSCCPass) ***; Function Attrs: x\ndefine void @f() {\n}\n",
		"*** IR Dump At Start ***\n; ModuleID = 'm'\ndefine i32 @a(i32 %x) {\n  ret i32 %x\n}\n*** IR Dump After P on [module] ***\n\n*** IR for function [module] ***\n \n-  ret i32 %x\n+  ret i32 0\n\n*** IR Dump After Q on a ***\n \n-  ret i32 0\n+  ret i32 1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse("fuzz", data)
		if err != nil {
			return
		}
		for i := range l.Steps {
			text, funcs, err := l.Text(i)
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			n := strings.Count(text, "\n") + 1
			for _, fs := range funcs {
				if fs.Start < 0 || fs.End < fs.Start || fs.Start > n {
					t.Fatalf("step %d: span %+v outside %d lines", i, fs, n)
				}
			}
			for _, fn := range l.Functions(i) {
				if _, err := l.FuncText(i, fn); err != nil {
					t.Fatal(err)
				}
			}
			for _, fn := range l.Functions(i) {
				ft, _ := l.FuncText(i, fn)
				switch l.Steps[i].Lang {
				case LangMIR:
					MIRCFG(ft) // errors are fine; panics are not
				case LangSPIRV:
					SPIRVCFG(ft)
				}
			}
		}
	})
}
