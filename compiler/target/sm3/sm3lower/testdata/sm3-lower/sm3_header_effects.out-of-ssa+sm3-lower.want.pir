module "sm3_header_effects.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %one.rep = alloca f32
  %loop.rep = alloca f32
  %k.var = alloca f32
  %j.var = alloca f32
  %tid = load ptr<input, <3 x u32>> @tid
  %tid.f = uitofp <3 x u32> %tid to <3 x f32>
  %i = extractvalue <3 x f32> %tid.f, 0
  %i.idx = fptosi f32 %i to i32
  %in.p = access ptr<storage, [? x i32]> @In, i32 %i.idx
  %n = load ptr<storage, i32> %in.p
  %n.f = sitofp i32 %n to f32
  %i2 = fmul f32 %i, 2.0
  %i2.idx = fptosi f32 %i2 to i32
  %c1.p = access ptr<storage, [? x i32]> @Out, i32 %i2.idx
  %i21 = fadd f32 %i2, 1.0
  %i21.idx = fptosi f32 %i21 to i32
  %c2.p = access ptr<storage, [? x i32]> @Out, i32 %i21.idx
  store f32 0.0, ptr<function, f32> %k.var
  store f32 0.0, ptr<function, f32> %loop.rep
  br %loop
loop:
  %loop.rep.n = load ptr<function, f32> %loop.rep
  %loop.rep.done = fcmp oge f32 %loop.rep.n, 255.0
  intr void sm3.rep(i32 255, bool %loop.rep.done)
  %loop.rep.next = fadd f32 %loop.rep.n, 1.0
  store f32 %loop.rep.next, ptr<function, f32> %loop.rep
  loop_merge %mid, %body
  condbr bool %loop.rep.done, %mid, %loop.body
loop.body:
  %k = load ptr<function, f32> %k.var
  %old = load ptr<storage, i32> %c1.p
  %old.f = sitofp i32 %old to f32
  %new = fadd f32 %old.f, 1.0
  %new.i = fptosi f32 %new to i32
  store i32 %new.i, ptr<storage, i32> %c1.p
  %more = fcmp olt f32 %k, %n.f
  condbr bool %more, %body, %mid
body:
  %k.next = fadd f32 %k, 1.0
  store f32 %k.next, ptr<function, f32> %k.var
  br %loop
mid:
  store f32 0.0, ptr<function, f32> %j.var
  store f32 0.0, ptr<function, f32> %one.rep
  br %one
one:
  %one.rep.n = load ptr<function, f32> %one.rep
  %one.rep.done = fcmp oge f32 %one.rep.n, 255.0
  intr void sm3.rep(i32 255, bool %one.rep.done)
  %one.rep.next = fadd f32 %one.rep.n, 1.0
  store f32 %one.rep.next, ptr<function, f32> %one.rep
  loop_merge %exit, %one.body
  condbr bool %one.rep.done, %exit, %one.body
one.body:
  %j = load ptr<function, f32> %j.var
  %o2 = load ptr<storage, i32> %c2.p
  %o2.f = sitofp i32 %o2 to f32
  %n2 = fadd f32 %o2.f, 1.0
  %n2.i = fptosi f32 %n2 to i32
  store i32 %n2.i, ptr<storage, i32> %c2.p
  %j.next = fadd f32 %j, 1.0
  %again = fcmp olt f32 %j.next, %n.f
  store f32 %j.next, ptr<function, f32> %j.var
  condbr bool %again, %one, %exit
exit:
  ret
}
