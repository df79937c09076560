package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"passlens/internal/testtool"
)

// `passlens analyze --print=domtree,postdomtree,cycles FILE.ll` imports the
// file CFG-only (only blocks and terminators are built): its output equals
// opt-22's byte for byte on the construct modules (invoke, callbr,
// indirectbr, switch, inline asm, constant expressions, ...), and each
// single CFG analysis equals its part of it.
func TestAnalyzeCFGOnlyMatchesOpt(t *testing.T) {
	t.Parallel()
	opt := testtool.Require(t, "opt-22", "llvm-22")
	files, err := filepath.Glob(filepath.Join("..", "..", "compiler", "llvm", "testdata", "constructs", "*.ll"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no construct modules: %v", err)
	}
	for _, f := range files {
		want, err := exec.Command(opt, "-mtriple=amdgcn--", "-passes=print<domtree>,print<postdomtree>,print<cycles>",
			"-disable-output", f).CombinedOutput()
		if err != nil {
			t.Fatalf("opt-22 %s: %v\n%s", f, err, want)
		}
		code, got, stderr := run("analyze", "--print=domtree,postdomtree,cycles", f)
		if code != 0 {
			t.Fatalf("analyze %s: exit %d: %s", f, code, stderr)
		}
		if got != string(want) {
			t.Errorf("%s: CFG-only analyze differs from opt-22:\n--- opt-22\n%s--- passlens\n%s", f, want, got)
		}
	}
}

// An invalid .ll file fails the same way whether analyze imports it
// CFG-only (--print=domtree) or fully (--print=uniformity, --explain).
func TestAnalyzeCFGOnlySameErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, src := range []string{
		"define void @f() {\n  %x = add i32 %y, 1\n  ret void\n}\n",
		"define void @f() {\n  br label %nowhere\n}\n",
		"define void @f() {\n  %x = add i32 1, 1\n}\n",
		"define void @f() {\n  call void @nope()\n  ret void\n}\n",
		"define void @f() {\n  %x = fadd float 0.1, 1.0\n  ret void\n}\n",
		"define void @f() {\n  ret void\n  %x = add i32 1, 1\n}\n",
		"define void @f() {\nentry:\n  br label %b\nb:\n  %x = add i32 1, 1\n  %p = phi i32 [ 0, %entry ]\n  ret void\n}\n",
	} {
		f := filepath.Join(dir, "bad"+string(rune('a'+i))+".ll")
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		c1, o1, e1 := run("analyze", "--print=domtree", f)
		c2, o2, e2 := run("analyze", "--print=uniformity", f)
		c3, _, e3 := run("analyze", "--explain=%x", f)
		if c1 == 0 || e1 == "" || o1 != "" {
			t.Errorf("%q: CFG-only analyze: exit %d, stdout %q, stderr %q; want an error", src, c1, o1, e1)
		}
		if c1 != c2 || e1 != e2 || o1 != o2 || c1 != c3 || e1 != e3 {
			t.Errorf("%q: the import modes fail differently:\n  CFG-only: %d %q\n  full:     %d %q\n  explain:  %d %q", src, c1, e1, c2, e2, c3, e3)
		}
	}
}
