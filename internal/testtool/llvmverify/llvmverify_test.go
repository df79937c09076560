package llvmverify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/internal/testtool"
)

// The helper must agree with llvm-as-22 on every kind of input: valid
// modules, syntax errors, and modules that parse but fail the verifier
// (which llvm-as-22 runs by default).
func TestAgreesWithLLVMAs(t *testing.T) {
	if why := Available(); why != "" {
		testtool.Unavailable(t, "llvmverify helper: "+why)
	}
	as := testtool.Require(t, "llvm-as-22", "llvm-22")
	v, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	cases := map[string]struct {
		text, want string // want: "" valid, else a substring of the error
	}{
		"valid":     {"define i32 @f(i32 %a) {\nentry:\n  %b = add i32 %a, 1\n  ret i32 %b\n}\n", ""},
		"syntax":    {"define i32 @f(i32 %a) {\nentry:\n  %b = add i32 %a,\n  ret i32 %b\n}\n", "syntax.ll:4:"},
		"type":      {"define i32 @f(i64 %a) {\nentry:\n  ret i32 %a\n}\n", "error:"},
		"dominance": {"define i32 @g(i32 %a) {\nentry:\n  br label %x\nx:\n  %e = add i32 %d, 1\n  ret i32 %e\nz:\n  %d = add i32 %a, 1\n  br label %x\n}\n", "does not dominate all uses"},
		"empty":     {"", ""},
	}
	dir := t.TempDir()
	for name, c := range cases {
		err, ioErr := v.Check(name+".ll", c.text)
		if ioErr != nil {
			t.Fatal(ioErr)
		}
		f := filepath.Join(dir, name+".ll")
		if err := os.WriteFile(f, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, asErr := exec.Command(as, "-o", os.DevNull, f).CombinedOutput()
		if (err == nil) != (asErr == nil) {
			t.Errorf("%s: helper says %v, llvm-as-22 says %v: %s", name, err, asErr, out)
		}
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: helper error %v, want %q", name, err, c.want)
		}
	}
	// Text uses the shared helper; many modules in a row keep working.
	for i := 0; i < 50; i++ {
		if err := Text(t, "valid.ll", cases["valid"].text); err != nil {
			t.Fatal(err)
		}
	}
}
