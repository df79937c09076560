module "sm3_const_loop.pir"

@color = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %loop.rep = alloca f32
  store f32 0.0, ptr<function, f32> %loop.rep
  br %loop
loop:
  %s = phi f32 [0.0, %entry], [%s.next, %body]
  %k = phi f32 [0.0, %entry], [%k.next, %body]
  %loop.rep.n = load ptr<function, f32> %loop.rep
  %loop.rep.done = fcmp oge f32 %loop.rep.n, 10.0
  intr void sm3.rep(i32 10, bool %loop.rep.done)
  %loop.rep.next = fadd f32 %loop.rep.n, 1.0
  store f32 %loop.rep.next, ptr<function, f32> %loop.rep
  %more = fcmp olt f32 %k, 10.0
  %loop.rep.go = select bool %loop.rep.done, bool false, %more
  loop_merge %exit, %body
  condbr bool %loop.rep.go, %body, %exit
body:
  %kk = fmul f32 %k, %k
  %s.next = fadd f32 %s, %kk
  %k.next = fadd f32 %k, 1.0
  br %loop
exit:
  %sf = copy f32 %s
  %c = construct <4 x f32> (f32 %sf, f32 0.0, f32 0.0, f32 1.0)
  store <4 x f32> %c, ptr<output, <4 x f32>> @color
  ret
}
