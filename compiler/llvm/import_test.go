package llvm

import (
	"strings"
	"testing"

	"passlens/compiler/ir"
)

// TestImportConstructs imports one small function per supported construct
// and compares the passlens text.
func TestImportConstructs(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"params and inreg",
			"define amdgpu_ps void @f(i32 inreg %u, float %d) {\n  ret void\n}\n",
			"define void @f(i32 uniform %u, f32 %d) {\n0:\n  ret\n}\n"},
		{"kernel args are uniform, kernels are compute entry points",
			"define amdgpu_kernel void @k(i32 %a) {\nentry:\n  ret void\n}\n",
			"define void @k(i32 uniform %a) compute numthreads(64, 1, 1) {\nentry:\n  ret\n}\n"},
		{"reqd_work_group_size gives numthreads",
			"define spir_kernel void @k() !reqd_work_group_size !0 {\nentry:\n  ret void\n}\n!0 = !{i32 8, i32 4, i32 2}\n",
			"define void @k() compute numthreads(8, 4, 2) {\nentry:\n  ret\n}\n"},
		{"amdgpu_cs is a compute entry point, amdgpu_ps is not",
			"define amdgpu_cs void @c() {\nentry:\n  ret void\n}\ndefine amdgpu_ps void @p() {\nentry:\n  ret void\n}\n",
			"define void @c() compute numthreads(64, 1, 1) {\nentry:\n  ret\n}\n\ndefine void @p() {\nentry:\n  ret\n}\n"},
		{"numbered values and implicit entry",
			"define i32 @f(i32) {\n  %2 = add nsw i32 %0, 1\n  br label %3\n3:\n  ret i32 %2\n}\n",
			"define i32 @f(i32 %0) {\n1:\n  %2 = add i32 %0, 1\n  br %3\n3:\n  ret i32 %2\n}\n"},
		{"switch and phi",
			"define i32 @f(i32 %x) {\nentry:\n  switch i32 %x, label %d [ i32 0, label %a\n i32 1, label %a ]\na:\n  br label %d\nd:\n  %p = phi i32 [ 1, %a ], [ 2, %entry ]\n  ret i32 %p\n}\n",
			"define i32 @f(i32 %x) {\nentry:\n  switch i32 %x [default: %d] [case 0: %a] [case 1: %a]\na:\n  br %d\nd:\n  %p = phi i32 [1, %a], [2, %entry]\n  ret i32 %p\n}\n"},
		{"select, compares, casts",
			"define float @f(i32 %x, float %y) {\n  %c = icmp ult i32 %x, 3\n  %d = fcmp fast olt float %y, 0.5\n  %e = and i1 %c, %d\n  %z = zext i1 %e to i32\n  %w = sitofp i32 %z to float\n  %s = select i1 %e, float %w, float 1.0\n  ret float %s\n}\n",
			"define f32 @f(i32 %x, f32 %y) {\n0:\n  %c = icmp ult i32 %x, 3\n  %d = fcmp olt f32 %y, 0.5\n  %e = and bool %c, %d\n  %z = zext bool %e to i32\n  %w = sitofp i32 %z to f32\n  %s = select bool %e, f32 %w, 1.0\n  ret f32 %s\n}\n"},
		{"other widths",
			"define i64 @f(i16 %a, double %b, half %h) {\n  %x = sext i16 %a to i64\n  %y = add i64 %x, -5000000000\n  ret i64 %y\n}\n",
			"define i64 @f(i16 %a, f64 %b, f16 %h) {\n0:\n  %x = sext i16 %a to i64\n  %y = add i64 %x, -5000000000\n  ret i64 %y\n}\n"},
		{"memory and address spaces",
			"define void @f(ptr addrspace(1) %g, ptr addrspace(3) %l, ptr addrspace(4) %c) {\n  %a = alloca i32, addrspace(5)\n  %v = load i32, ptr addrspace(4) %c, align 4\n  store i32 %v, ptr addrspace(5) %a\n  %e = getelementptr inbounds i32, ptr addrspace(1) %g, i64 2\n  store i32 %v, ptr addrspace(1) %e\n  store i32 %v, ptr addrspace(3) %l\n  ret void\n}\n",
			"define void @f(ptr<storage, [? x i32]> %g, ptr<groupshared, i32> %l, ptr<uniform, i32> %c) {\n0:\n  %a = alloca i32\n  %v = load ptr<uniform, i32> %c\n  store i32 %v, ptr<function, i32> %a\n  %e = access ptr<storage, [? x i32]> %g, i64 2\n  store i32 %v, ptr<storage, i32> %e\n  store i32 %v, ptr<groupshared, i32> %l\n  ret\n}\n"},
		{"pointer used at two pointees gets a cast",
			"define void @f(ptr addrspace(1) %p) {\n  store i32 1, ptr addrspace(1) %p\n  store float 1.0, ptr addrspace(1) %p\n  ret void\n}\n",
			"define void @f(ptr<storage, i32> %p) {\n0:\n  store i32 1, ptr<storage, i32> %p\n  %p.cast = bitcast ptr<storage, i32> %p to ptr<storage, f32>\n  store f32 1.0, ptr<storage, f32> %p.cast\n  ret\n}\n"},
		{"vectors and aggregates",
			"define i32 @f(<2 x i32> %v, { i32, i1 } %s) {\n  %a = extractelement <2 x i32> %v, i32 1\n  %b = insertelement <2 x i32> %v, i32 %a, i32 0\n  %c = shufflevector <2 x i32> %b, <2 x i32> %v, <2 x i32> <i32 3, i32 0>\n  %d = extractvalue { i32, i1 } %s, 0\n  ret i32 %d\n}\n",
			"define i32 @f(<2 x i32> %v, %\"{i32,bool}\" %s) {\n0:\n  %a = extractelement <2 x i32> %v, i32 1\n  %b = insertelement <2 x i32> %v, i32 %a, i32 0\n  %c = shuffle <2 x i32> %b, <2 x i32> %v, [3, 0]\n  %d = extractvalue %\"{i32,bool}\" %s, 0\n  ret i32 %d\n}\n"},
		{"intrinsic calls",
			"declare i32 @llvm.amdgcn.workitem.id.x()\ndeclare i32 @llvm.amdgcn.readfirstlane.i32(i32)\ndefine i32 @f() {\n  %t = call i32 @llvm.amdgcn.workitem.id.x()\n  %r = tail call i32 @llvm.amdgcn.readfirstlane.i32(i32 %t)\n  ret i32 %r\n}\n",
			"define i32 @f() {\n0:\n  %t = intr i32 llvm.amdgcn.workitem.id.x()\n  %r = intr i32 llvm.amdgcn.readfirstlane.i32(i32 %t)\n  ret i32 %r\n}\n"},
		{"calls of functions",
			"declare i32 @ext(i32)\ndefine i32 @f(i32 %x) {\n  %r = call i32 @ext(i32 %x)\n  call void @g()\n  ret i32 %r\n}\ndefine void @g() {\n  unreachable\n}\n",
			"declare i32 @ext(i32 %0)\n\ndefine i32 @f(i32 %x) {\n0:\n  %r = call i32 @ext(i32 %x)\n  call void @g()\n  ret i32 %r\n}\n\ndefine void @g() {\n0:\n  unreachable\n}\n"},
		{"zero-length arrays and scratch globals",
			"@buf = external addrspace(1) global [0 x i32]\n@s = internal addrspace(5) global i32 0\ndefine i32 @f(i32 %i) {\n  %p = getelementptr [0 x i32], ptr addrspace(1) @buf, i32 0, i32 %i\n  %v = load i32, ptr addrspace(1) %p\n  %w = load i32, ptr addrspace(5) @s\n  %r = add i32 %v, %w\n  ret i32 %r\n}\n",
			"@buf = global storage [? x i32]\n@s = global private i32 = 0\n\ndefine i32 @f(i32 %i) {\n0:\n  %p = access ptr<storage, [? x i32]> @buf, i32 %i\n  %v = load ptr<storage, i32> %p\n  %w = load ptr<private, i32> @s\n  %r = add i32 %v, %w\n  ret i32 %r\n}\n"},
		{"quoted names",
			"define void @\"a b\"(i32 %\"x y\") {\n\"my block\":\n  ret void\n}\n",
			"define void @\"a b\"(i32 %\"x y\") {\n\"my block\":\n  ret\n}\n"},
		{"skipped module lines",
			"target triple = \"amdgcn--\"\ntarget datalayout = \"e\"\nsource_filename = \"x\"\n!llvm.module.flags = !{!0}\n!0 = !{i32 1, !\"x\", i32 2}\ndefine void @f() #0 {\n  ret void, !dbg !0\n}\nattributes #0 = { nounwind \"a\"=\"b\" }\n",
			"define void @f() {\n0:\n  ret\n}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Import("t.ll", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			got := m.String()
			got = got[strings.Index(got, "\n")+1:] // drop the module line
			got = strings.TrimLeft(got, "\n")
			if i := strings.Index(got, "define"); i > 0 && strings.HasPrefix(got, "type ") {
				got = got[i:]
			}
			if got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// importErrorCases are invalid inputs with their error message and
// position (TestImportErrors; TestCFGOnlyMatchesFull runs them in both
// import modes).
var importErrorCases = []struct{ src, want string }{
	{"define void @f() {\n  %x = add i32 1, 2 [ \"b\"() ]\n}\n", "t.ll:2:21: expected an instruction"},
	{"define void @f(<vscale x 2 x i32> %x) {\n  ret void\n}\n", "t.ll:1:17: unsupported scalable vector type"},
	{"define void @f() {\n  %x = add i32 %y, 1\n  ret void\n}\n", "t.ll:2:16: use of undefined value '%y'"},
	{"define void @f() {\n  br label %nowhere\n}\n", "t.ll:2:12: use of undefined block '%nowhere'"},
	{"define void @f() {\n  %2 = add i32 1, 1\n  ret void\n}\n", "t.ll:2:3: value or block numbered '2' should be numbered '1'"},
	{"define void @f() {\n  %x = add i32 1, 1\n}\n", "t.ll:2:8: block '%0' does not end with a terminator"},
	{"define void @f() {\n  call void @nope()\n  ret void\n}\n", "t.ll:2:13: call of undefined function @nope"},
	{"define void @f() {\n  %x = fadd float 0.1, 1.0\n  ret void\n}\n", "t.ll:2:19: floating point constant 0.1 is invalid for type float"},
	{"define void @f() {\n  ret void\n", "t.ll:1:13: unterminated body of @f"},
	{"define void @f() {\n  %x = bogus i32 1\n}\n", "t.ll:2:8: unknown instruction 'bogus'"},
	{"define void @f() {\n  ret void\n}\n@@\n", "t.ll:4:1: expected a name after the sigil"},
	{"define void @f() {\n  %x = freeze i32 \"s\"\n  ret void\n}\n", "t.ll:2:19: unsupported string constant"},
	{"define void @f() {\n  callbr void @g() to label %a [label %b]\n}\n", "t.ll:2:15: use of undefined value '@g'"},
	{"define void @f() {\n  %x = catchswitch within none [label %a] unwind to caller\n}\n", "t.ll:2:8: unsupported instruction 'catchswitch' (funclet exception handling)"},
	{"define void @f(<vscale x 4 x i32> %v) {\n  ret void\n}\n", "t.ll:1:17: unsupported scalable vector type"},
	{"define void @f() {\n  %x = add i33 %y, 1\n  ret void\n}\n", "t.ll:2:16: use of undefined value '%y'"},
	{"define void @f() {\n  %x = call i32 @nope(i32 1)\n  ret void\n}\n", "t.ll:2:17: call of undefined function @nope"},
	// Tokens are lexed on demand, but a lexical error anywhere in the
	// file still wins over an earlier parse error (tokstream.go).
	{"define void @f() {\n  %x = bogus i32 1\n}\n@\"open\n", "t.ll:4:1: unterminated string"},
	// Messages about a body instruction after parsing name its opcode,
	// which the instruction stub does not keep (stubs.go).
	{"define void @f() {\n  %x = store i32 1, ptr null\n  ret void\n}\n", "t.ll:2:3: instruction 'store' does not produce a value and cannot be named"},
}

// TestImportErrors checks each error message and its position.
func TestImportErrors(t *testing.T) {
	t.Parallel()
	for _, c := range importErrorCases {
		_, err := Import("t.ll", []byte(c.src))
		if err == nil {
			t.Errorf("%q: no error, want %q", c.src, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %q\nwant %q", c.src, err.Error(), c.want)
		}
	}
}

// TestImportIntrinsicAttrs checks the divergence attributes imported calls
// carry (DivergenceFacts).
func TestImportIntrinsicAttrs(t *testing.T) {
	t.Parallel()
	src := `declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i32 @nds(i32) #0
declare float @llvm.sqrt.f32(float)
define void @f(float %x) {
  %a = call i32 @llvm.amdgcn.workitem.id.x()
  %b = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %a)
  %c = call i64 @llvm.amdgcn.ballot.i64(i1 true)
  %d = call i32 @nds(i32 %a)
  %e = call float @llvm.sqrt.f32(float %x)
  ret void
}
attributes #0 = { nodivergencesource }
`
	m, err := Import("t.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Divergence{"a": Source, "b": AlwaysUniform, "c": AlwaysUniform, "d": AlwaysUniform, "e": Propagates}
	for _, in := range m.Func("f").Blocks[0].Instrs {
		w, ok := want[in.Name()]
		if !ok {
			continue
		}
		got := Propagates
		switch {
		case in.Intr.Attrs.Has(ir.AttrDivergenceSource):
			got = Source
		case in.Intr.Attrs.Has(ir.AttrAlwaysUniform):
			got = AlwaysUniform
		}
		if got != w {
			t.Errorf("%%%s = %s: %v, want %v", in.Name(), in.Intr.Name, got, w)
		}
	}
}

// TestImportOpaque checks what constructs outside passlens IR become: an
// opaque type named after the LLVM type, or an opaque operation named after
// the LLVM opcode with the right divergence class, and located positions.
func TestImportOpaque(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"odd widths", "define i32 @f(i33 %a) {\n  %b = add i33 %a, 1\n  %c = trunc i33 %b to i32\n  ret i32 %c\n}\n",
			"define i32 @f(%\"llvm:i33\" %a) {\n0:\n  %const = intr %\"llvm:i33\" llvm.opaque.int(i64 1)\n  %b = intr %\"llvm:i33\" llvm.opaque.add(%\"llvm:i33\" %a, %\"llvm:i33\" %const)\n  %c = intr i32 llvm.opaque.trunc(%\"llvm:i33\" %b)\n  ret i32 %c\n}\n"},
		{"inline asm", "define i32 @f(i32 %a) {\n  %v = call i32 asm \"\", \"=v,v\"(i32 %a)\n  %s = call i32 asm \"\", \"=s\"()\n  %r = add i32 %v, %s\n  ret i32 %r\n}\n",
			"define i32 @f(i32 %a) {\n0:\n  %v = intr i32 llvm.opaque.asm.divergent(i32 %a)\n  %s = intr i32 llvm.opaque.asm.uniform()\n  %r = add i32 %v, %s\n  ret i32 %r\n}\n"},
		{"float atomic", "define float @f(ptr addrspace(1) %p) {\n  %x = atomicrmw fadd ptr addrspace(1) %p, float 1.0 syncscope(\"agent\") monotonic, align 4\n  ret float %x\n}\n",
			"define f32 @f(ptr<storage, f32> %p) {\n0:\n  %x = intr f32 llvm.opaque.atomicrmw.fadd.divergent(ptr<storage, f32> %p, f32 1.0)\n  ret f32 %x\n}\n"},
		{"constant expression", "@g = addrspace(3) global i32 0\ndefine i32 @f() {\n  %x = add i32 1, ptrtoint (ptr addrspace(3) @g to i32)\n  ret i32 %x\n}\n",
			"define i32 @f() {\n0:\n  %const.ptrtoint = intr i32 llvm.opaque.ptrtoint(ptr<groupshared, i32> @g)\n  %x = add i32 1, %const.ptrtoint\n  ret i32 %x\n}\n"},
		{"wide vectors and bool conversions", "define float @f(<8 x i32> %v, i1 %b) {\n  %e = extractelement <8 x i32> %v, i32 7\n  %c = uitofp i1 %b to float\n  ret float %c\n}\n",
			"define f32 @f(%\"llvm:<8 x i32>\" %v, bool %b) {\n0:\n  %e = intr i32 llvm.opaque.extractelement(%\"llvm:<8 x i32>\" %v, i32 7)\n  %c = intr f32 llvm.opaque.uitofp(bool %b)\n  ret f32 %c\n}\n"},
		{"callbr", "define void @f(i32 %a) {\n  callbr void asm \"\", \"r,!i\"(i32 %a) to label %x [label %y]\nx:\n  ret void\ny:\n  ret void\n}\n",
			"define void @f(i32 %a) {\n0:\n  %dest = intr i32 llvm.opaque.callbr.dest(i32 %a)\n  switch i32 %dest [default: %x] [case 1: %y]\nx:\n  ret\ny:\n  ret\n}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Import("t.ll", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			got := m.Func("f").String()
			if got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}
