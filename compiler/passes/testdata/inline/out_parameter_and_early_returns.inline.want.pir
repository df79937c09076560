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
}
