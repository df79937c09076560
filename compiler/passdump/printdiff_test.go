package passdump

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// body is a function's text without its header (the "; Function Attrs:"
// comment and the define line, whose attributes a diff log never shows)
// and its closing brace, with attribute-group and metadata numbers
// written #N and !N (LLVM numbers them per printed unit).
func body(fn string) string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(fn, "\n"), "\n") {
		if strings.HasPrefix(l, "; Function Attrs:") || strings.HasPrefix(l, "define ") || l == "}" {
			continue
		}
		out = append(out, numbered.ReplaceAllString(l, "$1N"))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

var (
	numbered   = regexp.MustCompile(`([#!])[0-9]+`)
	defineLine = regexp.MustCompile(`\ndefine [^\n]*`)
)

// TestOptPrintChangedDiff runs opt-22 -O3 on the OpenCL corpus (and
// irreducible.ll) with -print-changed=diff, =diff-quiet and
// -print-changed, and checks the reconstruction of the diff logs against
// the full log: the step lists name the same passes; at every step where
// the full log prints a function, the rebuilt function's body equals the
// printed one; and the last step's bodies equal opt's output.
func TestOptPrintChangedDiff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	irr, _ := filepath.Abs("../../samples/irreducible.ll")
	for _, in := range []string{clangLL(t, dir, "sync.cl"), clangLL(t, dir, "loops.cl"), irr} {
		t.Run(filepath.Base(in), func(t *testing.T) {
			full, out := optLog(t, dir, in, "-print-changed")
			loadAll(t, full)
			var diffLog *Log
			for _, mode := range []string{"-print-changed=diff", "-print-changed=diff-quiet"} {
				l, out2 := optLog(t, dir, in, mode)
				if out2 != out {
					t.Fatalf("%s: opt's output differs from -print-changed's", mode)
				}
				texts := loadAll(t, l)
				last := len(l.Steps) - 1
				if mode == "-print-changed=diff" {
					diffLog = l
				} else {
					// The quiet log's steps are the diff log's changed
					// steps, with the same function bodies.
					var changed []int
					for i, s := range diffLog.Steps {
						if s.Status == Changed {
							changed = append(changed, i)
						}
					}
					if len(changed) != len(l.Steps) {
						t.Fatalf("%s: %d steps, the diff log has %d changed steps", mode, len(l.Steps), len(changed))
					}
					for i, j := range changed {
						for _, fn := range l.Functions(i) {
							a, _ := l.FuncText(i, fn)
							b, _ := diffLog.FuncText(j, fn)
							if body(a) != body(b) {
								t.Errorf("%s: step %d @%s differs from the diff log's step %d", mode, i, fn, j)
							}
						}
					}
				}
				if mode == "-print-changed=diff" {
					if len(l.Steps) != len(full.Steps) {
						t.Fatalf("%s: %d steps, -print-changed has %d", mode, len(l.Steps), len(full.Steps))
					}
					// A loop pass's full dump prints the loop only: the
					// full log's function is exact again at its next
					// whole-function dump (docs/pass-dumps.md), while the
					// diff log's loop steps diff the whole function.
					compared, inexact := 0, map[string]bool{}
					for i := range l.Steps {
						if l.Steps[i].Pass != full.Steps[i].Pass || l.Steps[i].Scope != full.Steps[i].Scope {
							t.Fatalf("step %d: %s on %s vs %s on %s", i, l.Steps[i].Pass, l.Steps[i].Scope, full.Steps[i].Pass, full.Steps[i].Scope)
						}
						if full.Steps[i].Status != Changed {
							continue
						}
						for _, fn := range full.Functions(i) {
							if !full.Steps[i].ChangedFunc(fn) {
								continue
							}
							if full.Steps[i].Partial {
								inexact[fn] = true
								continue
							}
							if inexact[fn] && strings.Contains(full.Steps[i].Scope, "loop ") {
								continue
							}
							inexact[fn] = false
							want, _ := full.FuncText(i, fn)
							got, _ := l.FuncText(i, fn)
							if body(got) != body(want) {
								// A function the full log printed only
								// as attributes changed has the same body.
								t.Errorf("step %d (%s on %s) @%s:\n%s\n---- want\n%s", i, l.Steps[i].Pass, l.Steps[i].Scope, fn, body(got), body(want))
								continue
							}
							compared++
						}
					}
					if compared == 0 {
						t.Errorf("no function compared")
					}
					t.Logf("%d steps, %d function snapshots equal to -print-changed's", len(l.Steps), compared)
					// The rebuilt steps are whole modules opt reads:
					// their analyses are available and right.
					if n, _ := checkDomtrees(t, l, texts); n == 0 {
						t.Errorf("no rebuilt step compared with opt-22")
					}
				}
				// The last step holds opt's result for every function
				// in the output.
				nfinal := 0
				for _, fn := range l.Functions(last) {
					got, _ := l.FuncText(last, fn)
					start := -1
					for _, d := range defineLine.FindAllStringIndex(out, -1) {
						if strings.Contains(out[d[0]:d[1]], " @"+fn+"(") {
							start = d[0] + 1
						}
					}
					if start < 0 {
						continue // deleted later by a pass that does not say so
					}
					end := start + strings.Index(out[start:], "\n}\n") + 3
					nfinal++
					if body(got) != body(out[start:end]) {
						t.Errorf("%s: last step @%s:\n%s\n---- opt's output\n%s", mode, fn, body(got), body(out[start:end]))
					}
				}
				if nfinal == 0 {
					t.Errorf("%s: no function of the last step compared with opt's output", mode)
				}
			}
		})
	}
}

// TestRebuildDiffModule: a module pass's per-function diffs apply to the
// module's functions in order, skipping a function the pass added; an
// emptied function is deleted; blank lines left by a renamed block
// collapse.
func TestRebuildDiffModule(t *testing.T) {
	t.Parallel()
	log := `*** IR Dump At Start ***
; ModuleID = 'm'

define i32 @a(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}

define internal i32 @b() {
entry:
  ret i32 0
}
*** IR Dump After GlobalDCEPass on [module] omitted because no change ***
*** IR Dump After SomeModulePass on [module] ***

*** IR for function [module] ***
 
-  %y = add i32 %x, 1
-  ret i32 %y
+  br label %next
 
-old:
-  ret i32 0
 
+next:
+  ret i32 %x

*** IR for function [module] ***
 
+  ret void

*** IR for function [module] ***
 
-entry:
-  ret i32 0

*** IR Dump After InstCombinePass on a ***
 
   br label %next
 
 next:
-  ret i32 %x
+  ret i32 7
`
	if !IsDiffLog([]byte(log)) {
		t.Fatal("not recognised as a diff log")
	}
	l, err := Parse("d.log", []byte(log))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Steps) != 4 {
		t.Fatalf("%d steps", len(l.Steps))
	}
	want := []string{"", "", "  br label %next\n\nnext:\n  ret i32 %x", "  br label %next\n\nnext:\n  ret i32 7"}
	for i, w := range want {
		if w == "" {
			continue
		}
		got, _ := l.FuncText(i, "a")
		if body(got) != w {
			t.Errorf("step %d @a:\n%s\nwant\n%s", i, body(got), w)
		}
		if fs := l.Functions(i); len(fs) != 1 || fs[0] != "a" {
			t.Errorf("step %d: functions %v, want [a] (@b deleted)", i, fs)
		}
	}
	if IsDiffLog([]byte("*** IR Dump After P on f ***\ndefine void @f() {\n  ret void\n}\n")) {
		t.Error("a full -print-changed log taken for a diff log")
	}
}
