package passdump

import (
	"os"
	"strings"
	"testing"
)

func TestParseHeader(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line string
		want header
	}{
		{"; *** IR Dump After SROAPass on f ***", header{kind: hAfter, pass: "SROAPass", scope: "f"}},
		{"; *** IR Dump Before LICMPass on loop %x.y in function f ***", header{kind: hBefore, pass: "LICMPass", scope: "loop %x.y in function f"}},
		{"; *** IR Dump After InlinerPass on (f, g) ***", header{kind: hAfter, pass: "InlinerPass", scope: "(f, g)"}},
		{"*** IR Dump After GlobalOptPass on [module] omitted because no change ***", header{kind: hOmitted, pass: "GlobalOptPass", scope: "[module]"}},
		{"*** IR Dump At Start ***", header{kind: hStart}},
		{"*** IR Deleted After GlobalDCEPass on g ***", header{kind: hDeleted, pass: "GlobalDCEPass", scope: "g"}},
		{"*** IR Dump After Simplify the CFG ***", header{kind: hAfter, pass: "Simplify the CFG", legacy: true}},
		{"*** IR Dump After Canonicalize natural loops (loop-simplify) ***", header{kind: hAfter, pass: "Canonicalize natural loops (loop-simplify)", legacy: true}},
		{"# *** IR Dump After Machine Sinking (machine-sink) ***:", header{kind: hAfter, pass: "Machine Sinking (machine-sink)", legacy: true, mir: true}},
		{"; IR before pass merge-return", header{kind: hSPVBefore, pass: "merge-return"}},
		{"; IR after last pass", header{kind: hSPVLast}},
		{"*** IR Dump After sroa on @main ***", header{kind: hAfter, pass: "sroa", scope: "@main"}},
		{"*** IR Dump After inline FAILED: verifier: bad ***", header{kind: hAfter, pass: "inline", failed: "verifier: bad", legacy: true}},
		{"*** SIR Dump After sir-lower ***", header{kind: hAfter, pass: "sir-lower", stage: "sir", legacy: true}},
		{"*** IR Pass PassManager<Function> on f ignored ***", header{kind: hIgnored}},
	} {
		got, ok := parseHeader(c.line)
		if !ok || got != c.want {
			t.Errorf("%q: got %+v (%v), want %+v", c.line, got, ok, c.want)
		}
	}
	for _, line := range []string{"; ModuleID = 'x'", "*** not a banner", "define void @f() {", "; *** IR Dump After  ***", "*** Foo Dump After x ***"} {
		if h, ok := parseHeader(line); ok {
			t.Errorf("%q parsed as %+v", line, h)
		}
	}
}

// TestLegacyDXC: DXC's legacy banners carry no scope; function dumps are
// merged into the module by name and the declaration after it is kept.
func TestLegacyDXC(t *testing.T) {
	t.Parallel()
	l, err := Open("testdata/dxc-legacy.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Format != "legacy pass manager" || len(l.Steps) != 4 {
		t.Fatalf("format %q, %d steps", l.Format, len(l.Steps))
	}
	want := []Status{Changed, Changed, Unchanged, Changed}
	for i, s := range l.Steps {
		if s.Status != want[i] {
			t.Errorf("step %d %s: %v, want %v", i, s.Pass, s.Status, want[i])
		}
	}
	text, funcs, err := l.Text(3)
	if err != nil {
		t.Fatal(err)
	}
	wantText := `; ModuleID = 'main.hlsl'
target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

define void @main() {
entry:
  ret void
}

declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32)
`
	if text != wantText {
		t.Errorf("step 3:\n%s\nwant:\n%s", text, wantText)
	}
	if len(funcs) != 1 || funcs[0] != (FuncSpan{"main", 4, 8}) {
		t.Errorf("funcs %+v", funcs)
	}
	if got := strings.Join(strings.Split(text, "\n")[funcs[0].Start:funcs[0].End], "\n"); !strings.HasPrefix(got, "define void @main()") || !strings.HasSuffix(got, "}") {
		t.Errorf("span covers %q", got)
	}
}

// TestLoopMerge: a loop dump replaces the blocks it prints, inserts new
// ones after their predecessor in the dump and leaves the rest alone.
func TestLoopMerge(t *testing.T) {
	t.Parallel()
	log := `; *** IR Dump After SimplifyCFGPass on f ***
define void @f(i32 %n) {
entry:
  br label %loop

loop:                                             ; preds = %entry, %loop
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit

exit:                                             ; preds = %loop
  ret void
}
; *** IR Dump After LoopRotatePass on loop %loop in function f ***

; Preheader:
entry:
  br label %loop

; Loop:
loop:                                             ; preds = %entry, %latch
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  br label %latch

latch:                                            ; preds = %loop
  %i1 = add nuw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit

; Exit blocks
exit:                                             ; preds = %latch
  ret void

exit:                                             ; preds = %latch
  ret void
; *** IR Dump After LoopRotatePass on loop %loop in function f ***

; Preheader:
entry:
  br label %loop

; Loop:
loop:                                             ; preds = %entry, %latch
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  br label %latch

latch:                                            ; preds = %loop
  %i1 = add nuw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit

; Exit blocks
exit:                                             ; preds = %latch
  ret void
`
	l, err := Parse("loop.log", []byte(log))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Steps) != 3 || !l.Steps[1].Partial || l.Steps[1].Status != Changed || l.Steps[2].Status != Unchanged {
		t.Fatalf("steps %+v", l.Steps)
	}
	text, _, _ := l.Text(1)
	want := `define void @f(i32 %n) {
entry:
  br label %loop

loop:                                             ; preds = %entry, %latch
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  br label %latch

latch:                                            ; preds = %loop
  %i1 = add nuw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit

exit:                                             ; preds = %latch
  ret void
}
`
	if text != want {
		t.Fatalf("merged:\n%s\nwant:\n%s", text, want)
	}
}

// TestPrintChangedSteps: -print-changed's own dialect (no "; ", At Start,
// omitted, ignored lines) on a hand-written log.
func TestPrintChangedSteps(t *testing.T) {
	t.Parallel()
	log := `*** IR Dump At Start ***
; ModuleID = 'm'
define i32 @f() {
  ret i32 1
}

define i32 @g() {
  ret i32 2
}
*** IR Dump After InstCombinePass on f omitted because no change ***
*** IR Pass PassManager<Function> on f ignored ***
*** IR Dump After InstCombinePass on g ***
define i32 @g() {
  ret i32 3
}
*** IR Deleted After GlobalDCEPass on f ***
`
	l, err := Parse("pc.log", []byte(log))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Steps) != 4 {
		t.Fatalf("%d steps", len(l.Steps))
	}
	if l.Steps[0].Status != Input || l.Steps[1].Status != Unchanged || l.Steps[2].Status != Changed || !l.Steps[2].ChangedFunc("g") || l.Steps[2].ChangedFunc("f") {
		t.Fatalf("statuses %+v", l.Steps)
	}
	text, _, _ := l.Text(2)
	if !strings.Contains(text, "ret i32 1") || !strings.Contains(text, "ret i32 3") || strings.Contains(text, "ret i32 2") {
		t.Fatalf("step 2:\n%s", text)
	}
	if fs := l.Functions(3); len(fs) != 1 || fs[0] != "g" {
		t.Fatalf("after deletion: %v", fs)
	}
}

func TestSniff(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]bool{
		"testdata/dxc-legacy.txt":          true,
		"testdata/loops.cl":                false,
		"../../samples/irreducible.ll":     false,
		"../../samples/divergent-loop.pir": false,
		"testdata/missing":                 false,
	} {
		if got := SniffFile(path); got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
	if _, err := Parse("x", []byte("define void @f() {\n}\n")); err == nil {
		t.Errorf("a module without banners indexed")
	}
}

// TestStdin: "-" spools standard input.
func TestStdin(t *testing.T) {
	f, err := os.Open("testdata/dxc-legacy.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	l, err := Open("-")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Name != "<stdin>" || len(l.Steps) != 4 {
		t.Fatalf("%s: %d steps", l.Name, len(l.Steps))
	}
}

// TestFuncHash: the hash of a merged text equals the scan's hash of the
// same text printed as a function dump.
func TestFuncHash(t *testing.T) {
	t.Parallel()
	fn := "; Function Attrs: nounwind\ndefine void @f() {\nentry:\n  ret void\n}\n"
	l, err := Parse("h", []byte("; *** IR Dump After A on f ***\n"+fn))
	if err != nil {
		t.Fatal(err)
	}
	var got uint64
	for _, sg := range l.segs {
		if sg.name == "f" {
			got = sg.hash
		}
	}
	if got == 0 || got != funcHash(fn) {
		t.Fatalf("scan hash %x, funcHash %x", got, funcHash(fn))
	}
}
