package passes

import (
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/target"
)

func TestInline(t *testing.T) {
	t.Parallel()
	runCases(t, []passCase{{
		name:   "out parameter and early returns",
		passes: "inline",
		run:    &interp.Input{},
		in: `
			module "t"

			@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define f32 @scale(f32 %x, ptr<function, f32> %o) {
			entry:
			  %y = fmul f32 %x, 2.0
			  store f32 %y, ptr<function, f32> %o
			  %r = fadd f32 %y, 1.0
			  ret f32 %r
			}

			define f32 @pick(f32 %x) {
			entry:
			  %c = fcmp olt f32 %x, 2.0
			  selection_merge %m
			  condbr bool %c, %small, %big
			small:
			  ret f32 %x
			big:
			  %h = fmul f32 %x, 0.5
			  ret f32 %h
			m:
			  unreachable
			}

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %f = uitofp u32 %i to f32
			  %tmp = alloca f32
			  %s = call f32 @scale(f32 %f, ptr<function, f32> %tmp)
			  %o = load ptr<function, f32> %tmp
			  %t = fadd f32 %s, %o
			  %q = call f32 @pick(f32 %t)
			  %p = access ptr<storage, [? x f32]> @Out, u32 %i
			  store f32 %q, ptr<storage, f32> %p
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
			  %tmp = alloca f32
			  br %scale.entry
			scale.entry:
			  %y = fmul f32 %f, 2.0
			  store f32 %y, ptr<function, f32> %tmp
			  %s = fadd f32 %y, 1.0
			  br %scale.exit
			scale.exit:
			  %o = load ptr<function, f32> %tmp
			  %t = fadd f32 %s, %o
			  selection_merge %pick.exit
			  switch i32 0 [default: %pick.entry]
			pick.entry:
			  %c = fcmp olt f32 %t, 2.0
			  selection_merge %pick.m
			  condbr bool %c, %pick.small, %pick.big
			pick.small:
			  br %pick.exit
			pick.big:
			  %h = fmul f32 %t, 0.5
			  br %pick.exit
			pick.m:
			  unreachable
			pick.exit:
			  %q = phi f32 [%t, %pick.small], [%h, %pick.big]
			  %p = access ptr<storage, [? x f32]> @Out, u32 %i
			  store f32 %q, ptr<storage, f32> %p
			  ret
			}`,
	}, {
		name:   "call in a loop header, nested calls, allocas move to entry",
		passes: "inline",
		run:    &interp.Input{},
		in: `
			module "t"

			@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define u32 @inc(u32 %x) {
			entry:
			  %t = alloca u32
			  store u32 %x, ptr<function, u32> %t
			  %v = load ptr<function, u32> %t
			  %r = add u32 %v, 1
			  ret u32 %r
			}

			define u32 @twice(u32 %x) {
			entry:
			  %a = call u32 @inc(u32 %x)
			  %b = call u32 @inc(u32 %a)
			  ret u32 %b
			}

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  br %loop
			loop:
			  %n = phi u32 [%i, %entry], [%n1, %loop]
			  %n1 = call u32 @twice(u32 %n)
			  %c = icmp ult u32 %n1, 9
			  loop_merge %exit, %loop
			  condbr bool %c, %loop, %exit
			exit:
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %n1, ptr<storage, u32> %p
			  ret
			}`,
		want: `
			module "t"

			@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %t = alloca u32
			  %t.1 = alloca u32
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  br %loop
			loop:
			  %n = phi u32 [%i, %entry], [%n1, %twice.exit]
			  loop_merge %exit, %loop
			  br %loop.body
			loop.body:
			  br %twice.entry
			twice.entry:
			  br %inc.entry
			inc.entry:
			  store u32 %n, ptr<function, u32> %t
			  %v = load ptr<function, u32> %t
			  %a = add u32 %v, 1
			  br %inc.exit
			inc.exit:
			  br %inc.entry.1
			inc.entry.1:
			  store u32 %a, ptr<function, u32> %t.1
			  %v.1 = load ptr<function, u32> %t.1
			  %n1 = add u32 %v.1, 1
			  br %inc.exit.1
			inc.exit.1:
			  br %twice.exit
			twice.exit:
			  %c = icmp ult u32 %n1, 9
			  condbr bool %c, %loop, %exit
			exit:
			  %p = access ptr<storage, [? x u32]> @Out, u32 %i
			  store u32 %n1, ptr<storage, u32> %p
			  ret
			}`,
	}})
}

func TestInlineReturnFromLoop(t *testing.T) {
	t.Parallel()
	// A return inside a loop becomes a multi-level break out of the
	// one-case switch the inliner wraps the callee in; the result must
	// verify, run identically, and survive the spirv clean-up passes.
	src := computeHeader + `
		define u32 @find(u32 %x) {
		entry:
		  br %loop
		loop:
		  %k = phi u32 [0, %entry], [%k1, %cont]
		  %c = icmp ult u32 %k, 8
		  loop_merge %done, %cont
		  condbr bool %c, %body, %done
		body:
		  %s = mul u32 %k, %k
		  %hit = icmp uge u32 %s, %x
		  selection_merge %cont
		  condbr bool %hit, %found, %cont
		found:
		  ret u32 %k
		cont:
		  %k1 = add u32 %k, 1
		  br %loop
		done:
		  ret u32 99
		}

		define void @main() compute numthreads(8, 1, 1) {
		entry:
		  %id = load ptr<input, <3 x u32>> @tid
		  %i = extractvalue <3 x u32> %id, 0
		  %x = mul u32 %i, 7
		  %r = call u32 @find(u32 %x)
		  %p = access ptr<storage, [? x u32]> @Out, u32 %i
		  store u32 %r, ptr<storage, u32> %p
		  ret
		}`
	for _, seq := range []string{"inline", "inline,sroa,simplify", "inline,sroa,simplify,switch-to-if,eliminate-multilevel-break,simplify"} {
		m := parseIR(t, "find", src)
		before := mustRun(t, m, &interp.Input{})
		runPasses(t, m, seq, target.SPIRV)
		after := mustRun(t, m, &interp.Input{})
		if ok, diff := before.Equal(after); !ok {
			t.Errorf("%s: %s\n%s", seq, diff, m)
		}
		if seq == "inline" && !strings.Contains(m.String(), "selection_merge %find.exit\n  switch i32 0 [default: %find.entry]") {
			t.Errorf("want the one-case switch wrapper:\n%s", m)
		}
	}
}

func TestInlineRecursion(t *testing.T) {
	t.Parallel()
	m := parseIR(t, "rec", `
		module "t"

		define u32 @a(u32 %x) {
		entry:
		  %r = call u32 @b(u32 %x)
		  ret u32 %r
		}

		define u32 @b(u32 %x) {
		entry:
		  %r = call u32 @a(u32 %x)
		  ret u32 %r
		}

		define void @main() compute numthreads(1, 1, 1) {
		entry:
		  %r = call u32 @a(u32 1)
		  ret
		}`)
	_, err := Inline.Run(m, &Context{})
	if err == nil || !strings.Contains(err.Error(), "recursive call chain @a -> @b -> @a") {
		t.Fatalf("want a recursion error naming the cycle, got %v", err)
	}
}

func TestInlineKeepsDeclarationsAndLibraries(t *testing.T) {
	t.Parallel()
	// No entry point: roots are the uncalled functions; calls to
	// declarations stay.
	m := parseIR(t, "lib", `
		module "t"

		declare f32 @ext(f32 %x)

		define f32 @helper(f32 %x) {
		entry:
		  %y = call f32 @ext(f32 %x)
		  ret f32 %y
		}

		define f32 @api(f32 %x) {
		entry:
		  %y = call f32 @helper(f32 %x)
		  ret f32 %y
		}`)
	runPasses(t, m, "inline", "")
	if m.Func("helper") != nil || m.Func("api") == nil || m.Func("ext") == nil {
		t.Fatalf("want @api and @ext kept, @helper inlined away:\n%s", m)
	}
	var calls []string
	for _, b := range m.Func("api").Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpCall {
				calls = append(calls, in.Callee.Name())
			}
		}
	}
	if len(calls) != 1 || calls[0] != "ext" {
		t.Fatalf("want one call of @ext left, got %v", calls)
	}
}
