package passes

import (
	"testing"

	"passlens/compiler/interp"
)

// specialInputs runs a shader reading uniform %x with each special float.
func specialInputs() []*interp.Input {
	var out []*interp.Input
	for _, v := range []any{"0.0", "-0.0", "inf", "-inf", "nan", 1.5, -2.25, "0x00000001"} {
		out = append(out, &interp.Input{Uniforms: map[string]any{"x": v}})
	}
	return out
}

const floatHeader = `
module "t"

@x = global uniform f32 binding 0, 0 kind "cbuffer"
@Out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"
`

func TestSimplifyFloatIdentities(t *testing.T) {
	t.Parallel()
	cases := []passCase{
		{
			name:   "valid identities",
			passes: "simplify",
			in: floatHeader + `
				define void @main() compute numthreads(1, 1, 1) {
				entry:
				  %x = load ptr<uniform, f32> @x
				  %g = fneg f32 %x
				  %h = fneg f32 %g
				  %p = access ptr<storage, [? x f32]> @Out, i32 0
				  store f32 %h, ptr<storage, f32> %p
				  ret
				}`,
			want: floatHeader + `
				define void @main() compute numthreads(1, 1, 1) {
				entry:
				  %x = load ptr<uniform, f32> @x
				  %p = access ptr<storage, [? x f32]> @Out, i32 0
				  store f32 %x, ptr<storage, f32> %p
				  ret
				}`,
		},
		{
			// Exact under IEEE, but each drops the flush of a float32
			// denormal x (D3D's fp32 rule, the interpreter's default).
			name:   "identities that would keep a denormal are kept",
			passes: "simplify",
			in: floatHeader + `
				define void @main() compute numthreads(1, 1, 1) {
				entry:
				  %x = load ptr<uniform, f32> @x
				  %a = fsub f32 %x, 0.0
				  %b = fadd f32 %a, 0x80000000
				  %c = fmul f32 %b, 1.0
				  %d = fdiv f32 %c, 1.0
				  %e = fmul f32 %d, -1.0
				  %f = fsub f32 0x80000000, %e
				  %p = access ptr<storage, [? x f32]> @Out, i32 0
				  store f32 %f, ptr<storage, f32> %p
				  ret
				}`,
			want: floatHeader + `
				define void @main() compute numthreads(1, 1, 1) {
				entry:
				  %x = load ptr<uniform, f32> @x
				  %a = fsub f32 %x, 0.0
				  %b = fadd f32 %a, 0x80000000
				  %c = fmul f32 %b, 1.0
				  %d = fdiv f32 %c, 1.0
				  %e = fmul f32 %d, -1.0
				  %f = fsub f32 0x80000000, %e
				  %p = access ptr<storage, [? x f32]> @Out, i32 0
				  store f32 %f, ptr<storage, f32> %p
				  ret
				}`,
		},
		{
			name:   "invalid identities are kept",
			passes: "simplify",
			in: floatHeader + `
				define void @main() compute numthreads(1, 1, 1) {
				entry:
				  %x = load ptr<uniform, f32> @x
				  %a = fadd f32 %x, 0.0
				  %b = fmul f32 %a, 0.0
				  %c = fsub f32 %b, %b
				  %d = fdiv f32 %c, %c
				  %e = fsub f32 0.0, %d
				  %f = fsub f32 %e, 0x80000000
				  %p = access ptr<storage, [? x f32]> @Out, i32 0
				  store f32 %f, ptr<storage, f32> %p
				  ret
				}`,
			want: floatHeader + `
				define void @main() compute numthreads(1, 1, 1) {
				entry:
				  %x = load ptr<uniform, f32> @x
				  %a = fadd f32 %x, 0.0
				  %b = fmul f32 %a, 0.0
				  %c = fsub f32 %b, %b
				  %d = fdiv f32 %c, %c
				  %e = fsub f32 0.0, %d
				  %f = fsub f32 %e, 0x80000000
				  %p = access ptr<storage, [? x f32]> @Out, i32 0
				  store f32 %f, ptr<storage, f32> %p
				  ret
				}`,
		},
	}
	runCases(t, cases)
	// Differential: every special input gives the same bits before and after.
	for _, tc := range cases {
		for _, in := range specialInputs() {
			m := parseIR(t, tc.name, tc.in)
			before := mustRun(t, m, in)
			runPasses(t, m, "simplify", "")
			after := mustRun(t, m, in)
			if ok, diff := before.Equal(after); !ok && !bothNaN(before, after) {
				t.Errorf("%s with x=%v: %s", tc.name, in.Uniforms["x"], diff)
			}
		}
	}
}

// bothNaN reports whether two single-float results are both NaN (the
// identities preserve NaN-ness, not payloads).
func bothNaN(a, b *interp.Result) bool {
	if len(a.Buffers) == 0 || len(b.Buffers) == 0 || len(a.Buffers[0].Cells) == 0 || len(b.Buffers[0].Cells) == 0 {
		return false
	}
	x, y := uint32(a.Buffers[0].Cells[0]), uint32(b.Buffers[0].Cells[0])
	nan := func(u uint32) bool { return u&0x7F800000 == 0x7F800000 && u&0x007FFFFF != 0 }
	return nan(x) && nan(y)
}

func TestSimplifyIntegerAndBool(t *testing.T) {
	t.Parallel()
	runCases(t, []passCase{{
		name:   "identities",
		passes: "simplify",
		run:    &interp.Input{},
		in: `
			module "t"

			@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %a = add u32 %i, 0
			  %b = mul u32 1, %a
			  %c = or u32 %b, 0
			  %d = and u32 %c, 4294967295
			  %e = shl u32 %d, 0
			  %f = udiv u32 %e, 1
			  %g = xor u32 %f, %f
			  %h = add u32 %f, %g
			  %k = mul u32 %h, 0
			  %l = add u32 %h, %k
			  %n = not u32 %l
			  %o = not u32 %n
			  %c1 = icmp ult u32 %o, %o
			  %c2 = icmp uge u32 %o, %o
			  %c3 = and bool %c2, true
			  %c4 = xor bool %c3, true
			  %c5 = or bool %c4, %c1
			  %s = select bool %c5, u32 7, %o
			  %t = select bool %c3, bool true, false
			  %u = select bool %t, u32 %s, %s
			  %v = copy u32 %u
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %v, ptr<storage, u32> %p
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
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %i, ptr<storage, u32> %p
			  ret
			}`,
	}})
}

const computeHeader = `
module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
`

func TestSimplifyCSEAndDCE(t *testing.T) {
	t.Parallel()
	runCases(t, []passCase{{
		name:   "cse respects dominance, convergence and memory",
		passes: "simplify",
		run:    &interp.Input{},
		in: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %a = add u32 %i, 1
			  %b = add u32 1, %i
			  %c = icmp ult u32 %b, 3
			  %w1 = intr u32 WaveActiveSum(u32 %a)
			  selection_merge %m
			  condbr bool %c, %t, %e
			t:
			  %d = add u32 %i, 1
			  %w2 = intr u32 WaveActiveSum(u32 %d)
			  %x1 = mul u32 %d, 3
			  %x1b = add u32 %x1, %w2
			  br %m
			e:
			  %x2 = mul u32 %a, 3
			  br %m
			m:
			  %x = phi u32 [%x1b, %t], [%x2, %e]
			  %y = mul u32 %a, 3
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  %l1 = load ptr<storage, u32> %p
			  store u32 %y, ptr<storage, u32> %p
			  %l2 = load ptr<storage, u32> %p
			  %p2 = access ptr<storage, [? x u32]> @Out, u32 %i
			  %s1 = add u32 %x, %y
			  %s2 = add u32 %s1, %w1
			  %s3 = add u32 %s2, %l1
			  %s4 = add u32 %s3, %l2
			  store u32 %s4, ptr<storage, u32> %p2
			  ret
			}`,
		want: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %a = add u32 %i, 1
			  %c = icmp ult u32 %a, 3
			  %w1 = intr u32 WaveActiveSum(u32 %a)
			  selection_merge %m
			  condbr bool %c, %t, %e
			t:
			  %w2 = intr u32 WaveActiveSum(u32 %a)
			  %x1 = mul u32 %a, 3
			  %x1b = add u32 %x1, %w2
			  br %m
			e:
			  %x2 = mul u32 %a, 3
			  br %m
			m:
			  %x = phi u32 [%x1b, %t], [%x2, %e]
			  %y = mul u32 %a, 3
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  %l1 = load ptr<storage, u32> %p
			  store u32 %y, ptr<storage, u32> %p
			  %l2 = load ptr<storage, u32> %p
			  %s1 = add u32 %x, %y
			  %s2 = add u32 %s1, %w1
			  %s3 = add u32 %s2, %l1
			  %s4 = add u32 %s3, %l2
			  store u32 %s4, ptr<storage, u32> %p
			  ret
			}`,
	}, {
		name:   "dce removes dead code, dead phi cycles and write-only allocas",
		passes: "simplify",
		run:    &interp.Input{},
		in: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %tmp = alloca [2 x u32]
			  %t0 = access ptr<function, [2 x u32]> %tmp, u32 %i
			  store u32 %i, ptr<function, u32> %t0
			  %unused = mul u32 %i, %i
			  br %loop
			loop:
			  %n = phi u32 [0, %entry], [%n1, %body]
			  %dead = phi u32 [%i, %entry], [%dead1, %body]
			  %c = icmp ult u32 %n, 4
			  loop_merge %exit, %body
			  condbr bool %c, %body, %exit
			body:
			  %dead1 = add u32 %dead, 1
			  %n1 = add u32 %n, 1
			  br %loop
			exit:
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %n, ptr<storage, u32> %p
			  ret
			}`,
		want: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  br %loop
			loop:
			  %n = phi u32 [0, %entry], [%n1, %body]
			  %c = icmp ult u32 %n, 4
			  loop_merge %exit, %body
			  condbr bool %c, %body, %exit
			body:
			  %n1 = add u32 %n, 1
			  br %loop
			exit:
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %n, ptr<storage, u32> %p
			  ret
			}`,
	}})
}

func TestSimplifyCFG(t *testing.T) {
	t.Parallel()
	runCases(t, []passCase{{
		name:   "constant branch without annotation",
		passes: "simplify",
		run:    &interp.Input{},
		in: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %k = icmp eq u32 3, 4
			  condbr bool %k, %a, %b
			a:
			  %x = add u32 %i, 10
			  br %m
			b:
			  %y = add u32 %i, 20
			  br %m
			m:
			  %v = phi u32 [%x, %a], [%y, %b]
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %v, ptr<storage, u32> %p
			  ret
			}`,
		want: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %y = add u32 %i, 20
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %y, ptr<storage, u32> %p
			  ret
			}`,
	}, {
		name:   "constant selection with a nested construct keeps its header",
		passes: "simplify",
		run:    &interp.Input{},
		in: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %c = icmp ult u32 %i, 2
			  selection_merge %m
			  switch i32 1 [case 0: %z] [case 1: %one] [default: %m]
			z:
			  br %m
			one:
			  selection_merge %m2
			  condbr bool %c, %brk, %m2
			brk:
			  br %m
			m2:
			  br %m
			m:
			  %v = phi u32 [0, %entry], [1, %z], [2, %brk], [3, %m2]
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %v, ptr<storage, u32> %p
			  ret
			}`,
		want: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %c = icmp ult u32 %i, 2
			  selection_merge %m
			  switch i32 1 [default: %one]
			one:
			  selection_merge %m2
			  condbr bool %c, %brk, %m2
			brk:
			  br %m
			m2:
			  br %m
			m:
			  %v = phi u32 [2, %brk], [3, %m2]
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %v, ptr<storage, u32> %p
			  ret
			}`,
	}, {
		name:   "a loop that never runs is removed",
		passes: "simplify",
		run:    &interp.Input{},
		in: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  br %loop
			loop:
			  %n = phi u32 [%i, %entry], [%n1, %cont]
			  loop_merge %exit, %cont
			  condbr bool false, %body, %exit
			body:
			  br %cont
			cont:
			  %n1 = add u32 %n, 1
			  br %loop
			exit:
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %n, ptr<storage, u32> %p
			  ret
			}`,
		want: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %i, ptr<storage, u32> %p
			  ret
			}`,
	}, {
		name:   "a loop whose back edge dies becomes a selection",
		passes: "simplify",
		run:    &interp.Input{},
		in: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  br %loop
			loop:
			  %n = phi u32 [%i, %entry], [%n1, %cont]
			  %c = icmp ult u32 %n, 2
			  loop_merge %exit, %cont
			  condbr bool %c, %body, %exit
			body:
			  selection_merge %bm
			  condbr bool true, %brk, %bm
			brk:
			  br %exit
			bm:
			  br %cont
			cont:
			  %n1 = add u32 %n, 1
			  br %loop
			exit:
			  %r = phi u32 [%n, %loop], [100, %brk]
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %r, ptr<storage, u32> %p
			  ret
			}`,
		want: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %c = icmp ult u32 %i, 2
			  selection_merge %exit
			  condbr bool %c, %body, %exit
			body:
			  br %exit
			exit:
			  %r = phi u32 [%i, %entry], [100, %body]
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %r, ptr<storage, u32> %p
			  ret
			}`,
	}, {
		name:   "unreachable merge blocks stay as unreachable",
		passes: "simplify",
		run:    &interp.Input{},
		in: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  %c = icmp ult u32 %i, 2
			  selection_merge %m
			  condbr bool %c, %a, %b
			a:
			  store u32 1, ptr<storage, u32> %p
			  ret
			b:
			  store u32 2, ptr<storage, u32> %p
			  ret
			m:
			  store u32 3, ptr<storage, u32> %p
			  ret
			}`,
		want: computeHeader + `
			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  %c = icmp ult u32 %i, 2
			  selection_merge %m
			  condbr bool %c, %a, %b
			a:
			  store u32 1, ptr<storage, u32> %p
			  ret
			b:
			  store u32 2, ptr<storage, u32> %p
			  ret
			m:
			  unreachable
			}`,
	}})
}
