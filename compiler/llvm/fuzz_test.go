package llvm

import (
	"strings"
	"testing"
)

// FuzzImport checks that Import never panics (an internal panic would be
// reported as "internal error", which also fails here) and that whatever
// imports also exports. The seeds run as a normal test.
func FuzzImport(f *testing.F) {
	seeds := []string{
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
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Import("fuzz.ll", []byte(src))
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("importer panicked: %v", err)
			}
			return
		}
		if _, err := Export(m); err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("exporter panicked: %v", err)
		}
	})
}
