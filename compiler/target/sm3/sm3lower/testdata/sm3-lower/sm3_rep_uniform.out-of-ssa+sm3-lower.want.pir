module "sm3_rep_uniform.pir"

@m = global uniform i32 binding 0, 0 kind "cbuffer"
@color = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %loop.rep = alloca f32
  %res.var = alloca <4 x f32>
  %k.var = alloca f32
  %m = load ptr<uniform, i32> @m
  %m.f = sitofp i32 %m to f32
  store <4 x f32> zero, ptr<function, <4 x f32>> %res.var
  store f32 0.0, ptr<function, f32> %k.var
  store f32 0.0, ptr<function, f32> %loop.rep
  br %loop
loop:
  %loop.rep.n = load ptr<function, f32> %loop.rep
  %loop.rep.done = fcmp oge f32 %loop.rep.n, %m.f
  intr void sm3.rep(i32 %m, bool %loop.rep.done)
  %loop.rep.next = fadd f32 %loop.rep.n, 1.0
  store f32 %loop.rep.next, ptr<function, f32> %loop.rep
  %res = load ptr<function, <4 x f32>> %res.var
  %k = load ptr<function, f32> %k.var
  %more = fcmp olt f32 %k, %m.f
  %loop.rep.go = select bool %loop.rep.done, bool false, %more
  loop_merge %exit, %body
  condbr bool %loop.rep.go, %body, %exit
body:
  %kf = copy f32 %k
  %kv = construct <4 x f32> (f32 %kf, f32 %kf, f32 %kf, f32 %kf)
  %res.next = fadd <4 x f32> %res, %kv
  %k.next = fadd f32 %k, 1.0
  store <4 x f32> %res.next, ptr<function, <4 x f32>> %res.var
  store f32 %k.next, ptr<function, f32> %k.var
  br %loop
exit:
  %res_1 = load ptr<function, <4 x f32>> %res.var
  store <4 x f32> %res_1, ptr<output, <4 x f32>> @color
  ret
}
