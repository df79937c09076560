package passes

import (
	"strings"
	"testing"

	"passlens/compiler/interp"
)

func TestSROA(t *testing.T) {
	t.Parallel()
	runCases(t, []passCase{{
		name:   "structs vectors arrays and a loop",
		passes: "sroa",
		run:    &interp.Input{},
		in: `
			module "t"

			type %S = { <3 x f32> pos, f32 w, [2 x i32] k }

			@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %f = uitofp u32 %i to f32
			  %s = alloca %S
			  %v = alloca <4 x f32>
			  %c = alloca <2 x f32>
			  %acc = alloca f32
			  %n = alloca u32
			  %arr = alloca [4 x f32]
			  %pp = access ptr<function, %S> %s, i32 0
			  %v0 = construct <3 x f32> (f32 %f, f32 1.0, f32 2.0)
			  store <3 x f32> %v0, ptr<function, <3 x f32>> %pp
			  %wp = access ptr<function, %S> %s, i32 1
			  store f32 3.0, ptr<function, f32> %wp
			  %sv = load ptr<function, %S> %s
			  %cx = access ptr<function, <2 x f32>> %c, i32 0
			  store f32 %f, ptr<function, f32> %cx
			  %cy = access ptr<function, <2 x f32>> %c, i32 1
			  store f32 5.0, ptr<function, f32> %cy
			  %vv = construct <4 x f32> (f32 %f, f32 %f, f32 %f, f32 %f)
			  store <4 x f32> %vv, ptr<function, <4 x f32>> %v
			  %vz = access ptr<function, <4 x f32>> %v, i32 2
			  store f32 7.0, ptr<function, f32> %vz
			  %dyn = access ptr<function, <4 x f32>> %v, u32 %i
			  %vd = load ptr<function, f32> %dyn
			  store f32 0.0, ptr<function, f32> %acc
			  store u32 0, ptr<function, u32> %n
			  %a0 = access ptr<function, [4 x f32]> %arr, u32 %i
			  store f32 1.0, ptr<function, f32> %a0
			  br %loop
			loop:
			  %nv = load ptr<function, u32> %n
			  %done = icmp uge u32 %nv, 4
			  loop_merge %exit, %cont
			  condbr bool %done, %exit, %body
			body:
			  %old = load ptr<function, f32> %acc
			  %ax = load ptr<function, f32> %cx
			  %new = fadd f32 %old, %ax
			  store f32 %new, ptr<function, f32> %acc
			  br %cont
			cont:
			  %n2 = load ptr<function, u32> %n
			  %n3 = add u32 %n2, 1
			  store u32 %n3, ptr<function, u32> %n
			  br %loop
			exit:
			  %r = load ptr<function, f32> %acc
			  %sw = extractvalue %S %sv, 1
			  %t1 = fadd f32 %r, %sw
			  %t2 = fadd f32 %t1, %vd
			  %cyv = load ptr<function, f32> %cy
			  %t3 = fadd f32 %t2, %cyv
			  %a1 = access ptr<function, [4 x f32]> %arr, u32 0
			  %a1v = load ptr<function, f32> %a1
			  %t4 = fadd f32 %t3, %a1v
			  %p = access ptr<storage, [? x f32]> @Out, u32 %i
			  store f32 %t4, ptr<storage, f32> %p
			  ret
			}`,
		want: `
			module "t"

			type %S = { <3 x f32> pos, f32 w, [2 x i32] k }

			@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %f = uitofp u32 %i to f32
			  %arr = alloca [4 x f32]
			  %v0 = construct <3 x f32> (f32 %f, f32 1.0, f32 2.0)
			  %s.k = construct [2 x i32] (i32 undef, i32 undef)
			  %sv = construct %S (<3 x f32> %v0, f32 3.0, [2 x i32] %s.k)
			  %vv = construct <4 x f32> (f32 %f, f32 %f, f32 %f, f32 %f)
			  %v.1 = insertvalue <4 x f32> %vv, f32 7.0, 2
			  %vd = extractelement <4 x f32> %v.1, u32 %i
			  %a0 = access ptr<function, [4 x f32]> %arr, u32 %i
			  store f32 1.0, ptr<function, f32> %a0
			  br %loop
			loop:
			  %acc = phi f32 [0.0, %entry], [%new, %cont]
			  %n = phi u32 [0, %entry], [%n3, %cont]
			  %done = icmp uge u32 %n, 4
			  loop_merge %exit, %cont
			  condbr bool %done, %exit, %body
			body:
			  %new = fadd f32 %acc, %f
			  br %cont
			cont:
			  %n3 = add u32 %n, 1
			  br %loop
			exit:
			  %sw = extractvalue %S %sv, 1
			  %t1 = fadd f32 %acc, %sw
			  %t2 = fadd f32 %t1, %vd
			  %t3 = fadd f32 %t2, 5.0
			  %a1 = access ptr<function, [4 x f32]> %arr, u32 0
			  %a1v = load ptr<function, f32> %a1
			  %t4 = fadd f32 %t3, %a1v
			  %p = access ptr<storage, [? x f32]> @Out, u32 %i
			  store f32 %t4, ptr<storage, f32> %p
			  ret
			}`,
	}, {
		name:   "diamond phis, pruning and undef",
		passes: "sroa",
		run:    &interp.Input{},
		in: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %x = alloca u32
			  %y = alloca u32
			  %u = alloca u32
			  %c = icmp ult u32 %i, 2
			  store u32 %i, ptr<function, u32> %y
			  selection_merge %m
			  condbr bool %c, %a, %b
			a:
			  store u32 10, ptr<function, u32> %x
			  %y1 = load ptr<function, u32> %y
			  %y2 = add u32 %y1, 1
			  store u32 %y2, ptr<function, u32> %y
			  br %m
			b:
			  store u32 20, ptr<function, u32> %x
			  br %m
			m:
			  %xv = load ptr<function, u32> %x
			  %uv = load ptr<function, u32> %u
			  %s = add u32 %xv, %uv
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %s, ptr<storage, u32> %p
			  ret
			}`,
		want: `
			module "t"

			@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %c = icmp ult u32 %i, 2
			  selection_merge %m
			  condbr bool %c, %a, %b
			a:
			  %y2 = add u32 %i, 1
			  br %m
			b:
			  br %m
			m:
			  %x = phi u32 [10, %a], [20, %b]
			  %s = add u32 %x, undef
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %s, ptr<storage, u32> %p
			  ret
			}`,
	}, {
		name:   "escaping allocas stay; memcpy is split",
		passes: "sroa",
		run:    &interp.Input{},
		in: `
			module "t"

			type %P = { u32 a, u32 b }

			@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @bump(ptr<function, u32> %p) {
			entry:
			  %v = load ptr<function, u32> %p
			  %w = mul u32 %v, 3
			  store u32 %w, ptr<function, u32> %p
			  ret
			}

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %cnt = alloca u32
			  store u32 %i, ptr<function, u32> %cnt
			  call void @bump(ptr<function, u32> %cnt)
			  %old = load ptr<function, u32> %cnt
			  %src = alloca %P
			  %dst = alloca %P
			  %sa = access ptr<function, %P> %src, i32 0
			  store u32 %i, ptr<function, u32> %sa
			  %sb = access ptr<function, %P> %src, i32 1
			  store u32 %old, ptr<function, u32> %sb
			  memcpy ptr<function, %P> %dst, ptr<function, %P> %src
			  %db = access ptr<function, %P> %dst, i32 1
			  %v = load ptr<function, u32> %db
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %v, ptr<storage, u32> %p
			  ret
			}`,
		want: `
			module "t"

			type %P = { u32 a, u32 b }

			@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @bump(ptr<function, u32> %p) {
			entry:
			  %v = load ptr<function, u32> %p
			  %w = mul u32 %v, 3
			  store u32 %w, ptr<function, u32> %p
			  ret
			}

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %cnt = alloca u32
			  store u32 %i, ptr<function, u32> %cnt
			  call void @bump(ptr<function, u32> %cnt)
			  %old = load ptr<function, u32> %cnt
			  %src.copy = construct %P (u32 %i, u32 %old)
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %old, ptr<storage, u32> %p
			  ret
			}`,
	}, {
		name:   "matrix rows and a whole matrix",
		passes: "sroa",
		run:    &interp.Input{},
		in: `
			module "t"

			@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %f = uitofp u32 %i to f32
			  %m = alloca <2 x 2 x f32>
			  %r = alloca <2 x 2 x f32>
			  store <2 x 2 x f32> zero, ptr<function, <2 x 2 x f32>> %m
			  %row1 = access ptr<function, <2 x 2 x f32>> %m, i32 1
			  %e10 = access ptr<function, <2 x f32>> %row1, u32 %i
			  store f32 %f, ptr<function, f32> %e10
			  %mv = load ptr<function, <2 x 2 x f32>> %m
			  %r0 = access ptr<function, <2 x 2 x f32>> %r, i32 0
			  store <2 x f32> <1.0, 2.0>, ptr<function, <2 x f32>> %r0
			  %r1 = access ptr<function, <2 x 2 x f32>> %r, i32 1
			  store <2 x f32> <3.0, 4.0>, ptr<function, <2 x f32>> %r1
			  %r1y = access ptr<function, <2 x f32>> %r1, i32 1
			  %ry = load ptr<function, f32> %r1y
			  %a = extractvalue <2 x 2 x f32> %mv, 1, 0
			  %b = extractvalue <2 x 2 x f32> %mv, 1, 1
			  %s = fadd f32 %a, %b
			  %s2 = fadd f32 %s, %ry
			  %p = access ptr<storage, [? x f32]> @Out, u32 %i
			  store f32 %s2, ptr<storage, f32> %p
			  ret
			}`,
		want: `
			module "t"

			@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %f = uitofp u32 %i to f32
			  %m.ld.row = extractvalue <2 x 2 x f32> zero, 1
			  %m.1 = insertelement <2 x f32> %m.ld.row, f32 %f, u32 %i
			  %m.2 = insertvalue <2 x 2 x f32> zero, <2 x f32> %m.1, 1
			  %ry = extractvalue <2 x f32> <3.0, 4.0>, 1
			  %a = extractvalue <2 x 2 x f32> %m.2, 1, 0
			  %b = extractvalue <2 x 2 x f32> %m.2, 1, 1
			  %s = fadd f32 %a, %b
			  %s2 = fadd f32 %s, %ry
			  %p = access ptr<storage, [? x f32]> @Out, u32 %i
			  store f32 %s2, ptr<storage, f32> %p
			  ret
			}`,
	}})
}

func TestSROAMemset(t *testing.T) {
	t.Parallel()
	m := parseIR(t, "memset", computeHeader+`
		define void @main() compute numthreads(4, 1, 1) {
		entry:
		  %id = load ptr<input, <3 x u32>> @tid
		  %i = extractvalue <3 x u32> %id, 0
		  %a = alloca [3 x u32]
		  %b = alloca bool
		  memset ptr<function, [3 x u32]> %a, u32 171
		  memset ptr<function, bool> %b, u32 2
		  %e = access ptr<function, [3 x u32]> %a, i32 1
		  %v = load ptr<function, u32> %e
		  %bv = load ptr<function, bool> %b
		  %w = select bool %bv, u32 %v, 0
		  %p = access ptr<storage, [? x u32]> @Out, u32 %i
		  store u32 %w, ptr<storage, u32> %p
		  ret
		}`)
	before := mustRun(t, m, &interp.Input{})
	runPasses(t, m, "sroa,simplify", "")
	after := mustRun(t, m, &interp.Input{})
	if ok, diff := before.Equal(after); !ok {
		t.Fatalf("memset: %s\n%s", diff, m)
	}
	if !strings.Contains(m.String(), "store u32 2880154539,") {
		t.Errorf("want the fill 0xABABABAB stored directly:\n%s", m)
	}
}
