; out parameter and early returns
; run: inline
; input: {}

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
}
