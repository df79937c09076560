package llvm

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"passlens/compiler/ir"
)

// locatedErr matches "file:line:col: message" with a position inside the
// input (line and column from 1).
var locatedErr = regexp.MustCompile(`^fuzz\.ll:[1-9][0-9]*:[1-9][0-9]*: `)

// FuzzImport checks that Import never panics (an internal panic would be
// reported as "internal error", which also fails here), that its errors
// are located, that whatever imports prints as passlens text that parses
// back to the same text, that its LLVM listing is complete, that Export
// does not panic on it, and that the CFG-only import agrees with the full
// one (compareImportModes). The seeds run as a normal test.
func FuzzImport(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	// The construct modules (odd widths, constant expressions, asm,
	// callbr, invoke, bundles, debug records, ...) seed the opaque fallback.
	files, _ := filepath.Glob(filepath.Join("testdata", "constructs", "*.ll"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(string(src))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		// A small input must not hang the reader: the work runs beside
		// a watchdog so that a hang becomes a recorded failure.
		done := make(chan string, 1)
		go func() { done <- checkImport(src) }()
		select {
		case msg := <-done:
			if msg != "" {
				t.Fatal(msg)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("Import, print, parse or Export did not finish in 20 s on a %d-byte input", len(src))
		}
	})
}

// fuzzSeeds are FuzzImport's own seeds (TestCFGOnlyMatchesFull reads them
// too).
var fuzzSeeds = []string{
	"define void @f() {\n  ret void\n}\n",
	"define amdgpu_ps float @f(float inreg %a, i32 %b) {\nentry:\n  %c = icmp eq i32 %b, 0\n  br i1 %c, label %t, label %e\nt:\n  br label %e\ne:\n  %p = phi float [ %a, %t ], [ 0.0, %entry ]\n  ret float %p\n}\n",
	"declare i32 @llvm.amdgcn.workitem.id.x()\ndefine void @k(ptr addrspace(1) %o) {\n  %t = call i32 @llvm.amdgcn.workitem.id.x()\n  %g = getelementptr i32, ptr addrspace(1) %o, i32 %t\n  store i32 %t, ptr addrspace(1) %g, align 4\n  ret void\n}\n",
	"define i32 @f(i32) {\n  switch i32 %0, label %2 [ i32 1, label %3 ]\n2:\n  ret i32 0\n3:\n  ret i32 1\n}\n",
	"define void @f(ptr %p) {\n  %o = cmpxchg ptr %p, i32 0, i32 1 seq_cst seq_cst\n  %v = extractvalue { i32, i1 } %o, 0\n  %a = atomicrmw add ptr %p, i32 %v seq_cst\n  ret void\n}\n",
	"%S = type { i32, <2 x float> }\n@g = addrspace(4) global %S zeroinitializer\ndefine float @f() {\n  %p = getelementptr %S, ptr addrspace(4) @g, i32 0, i32 1\n  %v = load <2 x float>, ptr addrspace(4) %p\n  %e = extractelement <2 x float> %v, i32 1\n  ret float %e\n}\n",
	"define void @f() {\n  %x = call i32 asm \"\", \"=v\"()\n  ret void\n}\n",
	"define void @f( {",
	"@\"\\41\" = global i32 0x3FF",
	"define <2 x i1> @f(<2 x i32> %a) {\n  %c = icmp slt <2 x i32> %a, zeroinitializer\n  ret <2 x i1> %c\n}\n",
}

// checkImport runs FuzzImport's checks on one input and describes the
// first failure ("" if none).
func checkImport(src string) string {
	// The CFG-only import (analyze --print=domtree,...) fails exactly when
	// the full one does, with the same error, and gives the same trees.
	if msg := compareImportModes("fuzz.ll", src); msg != "" {
		return msg
	}
	m, lst, err := ImportListing("fuzz.ll", []byte(src))
	if err != nil {
		if strings.Contains(err.Error(), "internal error") {
			return fmt.Sprintf("importer panicked: %v", err)
		}
		if !locatedErr.MatchString(err.Error()) {
			return fmt.Sprintf("error without a position: %v", err)
		}
		return ""
	}
	// The listing (LLVM text for analyze) covers every defined function;
	// each listed instruction belongs to it and its text can be read.
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		fl := lst.Func(f)
		if fl == nil {
			return fmt.Sprintf("no listing for @%s", f.Name())
		}
		for i := range f.Params {
			_ = fl.ParamText(i)
		}
		for _, b := range fl.Blocks {
			for _, li := range append(b.Defs, b.Term) {
				if li.Instr == nil || li.Instr.Block == nil || li.Instr.Block.Func != f {
					return fmt.Sprintf("@%s: a listed instruction is not in the function: %q", f.Name(), fl.Text(li))
				}
				_ = fl.Text(li)
			}
		}
	}
	// What imports prints as passlens text that reads back the same.
	text := m.String()
	m2, err := ir.ParseModule("fuzz.pir", []byte(text))
	if err != nil {
		return fmt.Sprintf("passlens text of the import does not parse: %v\n%s", err, text)
	}
	if m2.String() != text {
		return fmt.Sprintf("print -> parse -> print changed the text:\n%s\n---\n%s", text, m2.String())
	}
	if _, err := Export(m); err != nil && strings.Contains(err.Error(), "internal error") {
		return fmt.Sprintf("exporter panicked: %v", err)
	}
	return ""
}
