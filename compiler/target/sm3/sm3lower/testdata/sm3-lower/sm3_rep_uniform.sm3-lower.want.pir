module "sm3_rep_uniform.pir"

@m = global uniform i32 binding 0, 0 kind "cbuffer"
@color = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %loop.rep = alloca f32
  %m = load ptr<uniform, i32> @m
  %m.f = sitofp i32 %m to f32
  store f32 0.0, ptr<function, f32> %loop.rep
  br %loop
loop:
  %res = phi <4 x f32> [zero, %entry], [%res.next, %body]
  %k = phi f32 [0.0, %entry], [%k.next, %body]
  %loop.rep.n = load ptr<function, f32> %loop.rep
  %loop.rep.done = fcmp oge f32 %loop.rep.n, %m.f
  intr void sm3.rep(i32 %m, bool %loop.rep.done)
  %loop.rep.next = fadd f32 %loop.rep.n, 1.0
  store f32 %loop.rep.next, ptr<function, f32> %loop.rep
  %more = fcmp olt f32 %k, %m.f
  %loop.rep.go = select bool %loop.rep.done, bool false, %more
  loop_merge %exit, %body
  condbr bool %loop.rep.go, %body, %exit
body:
  %kf = copy f32 %k
  %kv = construct <4 x f32> (f32 %kf, f32 %kf, f32 %kf, f32 %kf)
  %res.next = fadd <4 x f32> %res, %kv
  %k.next = fadd f32 %k, 1.0
  br %loop
exit:
  store <4 x f32> %res, ptr<output, <4 x f32>> @color
  ret
}
