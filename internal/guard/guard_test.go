package guard

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRecover(t *testing.T) {
	f := func() (err error) {
		defer Recover(&err, "dxil.Emit")
		s, i := []int{1, 2}, len("abc")
		return errors.New(string(rune(s[i]))) // runtime error: index out of range

	}
	err := f()
	want := "internal error in dxil.Emit: runtime error: index out of range [3] with length 2 (please report it)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Stack, "TestRecover") {
		t.Error("the stack of the panic is not kept")
	}
	if e.Unwrap() == nil {
		t.Error("a runtime error panic does not unwrap to the runtime error")
	}
}

func TestRecoverFileAndFirstLine(t *testing.T) {
	f := func() (err error) {
		defer RecoverFile(&err, "llvm.Import", "k.ll")
		panic("two\nlines")
	}
	if got, want := f().Error(), "k.ll:1:1: internal error in llvm.Import: two … (please report it)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestNoPanicLeavesErrorAlone(t *testing.T) {
	sentinel := errors.New("ordinary")
	f := func() (err error) {
		defer Recover(&err, "x")
		return sentinel
	}
	if err := f(); err != sentinel {
		t.Errorf("got %v", err)
	}
	called := false
	func() {
		defer Handle("y", func(*Error) { called = true })
	}()
	if called {
		t.Error("Handle called its handler without a panic")
	}
}

func TestHandleSeesValue(t *testing.T) {
	type sentinel struct{}
	var got *Error
	func() {
		defer Handle("parser", func(e *Error) { got = e })
		panic(sentinel{})
	}()
	if got == nil || got.Where != "parser" || got.Value != (sentinel{}) {
		t.Errorf("got %#v", got)
	}
}

// TestOnlyGuardRecovers fails when production code (not _test.go files)
// calls recover anywhere but in this package: every entry point that turns
// a panic into an error must use guard, so the wording stays the same.
func TestOnlyGuardRecovers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	self, _ := filepath.Abs(".")
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == self {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "recover" && id.Obj == nil {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s:%d: recover() outside internal/guard: use guard.Recover or guard.Handle", rel, fset.Position(c.Pos()).Line)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d Go files scanned; is the walk rooted at the module?", files)
	}
}
