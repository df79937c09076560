module "switch_loop_continue.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %k.var = alloca i32
  %acc.var = alloca i32
  %a1.in.var = alloca i32
  %acc.sw.var = alloca i32
  %acc.next.var = alloca i32
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  %odd.bit = and u32 %i, 1
  %odd = icmp eq u32 %odd.bit, 1
  store i32 0, ptr<function, i32> %k.var
  store i32 0, ptr<function, i32> %acc.var
  br %loop
loop:
  %k = load ptr<function, i32> %k.var
  %acc = load ptr<function, i32> %acc.var
  %more = icmp slt i32 %k, 4
  loop_merge %loop.exit, %loop.cont
  condbr bool %more, %body, %loop.exit
body:
  %s0 = add i32 %x, %k
  %s = and i32 %s0, 3
  store i32 %acc, ptr<function, i32> %a1.in.var
  store i32 %acc, ptr<function, i32> %acc.next.var
  selection_merge %sw.merge
  switch i32 %s [case 0: %case0] [case 1: %case1] [case 2: %loop.cont] [default: %default]
case0:
  %a0 = add i32 %acc, 1
  store i32 %a0, ptr<function, i32> %a1.in.var
  br %case1
case1:
  %a1.in = load ptr<function, i32> %a1.in.var
  %a1 = add i32 %a1.in, 10
  store i32 %a1, ptr<function, i32> %acc.next.var
  selection_merge %case1.rest
  condbr bool %odd, %loop.cont, %case1.rest
case1.rest:
  %a1.b = add i32 %a1, 100
  store i32 %a1.b, ptr<function, i32> %acc.sw.var
  br %sw.merge
default:
  %ad = add i32 %acc, 1000
  store i32 %ad, ptr<function, i32> %acc.sw.var
  br %sw.merge
sw.merge:
  %acc.sw = load ptr<function, i32> %acc.sw.var
  %acc.5 = add i32 %acc.sw, 5
  store i32 %acc.5, ptr<function, i32> %acc.next.var
  br %loop.cont
loop.cont:
  %acc.next = load ptr<function, i32> %acc.next.var
  %k.next = add i32 %k, 1
  store i32 %k.next, ptr<function, i32> %k.var
  store i32 %acc.next, ptr<function, i32> %acc.var
  br %loop
loop.exit:
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %acc, ptr<storage, i32> %out.p
  ret
}
