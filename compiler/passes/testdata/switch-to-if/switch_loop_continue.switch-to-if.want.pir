module "switch_loop_continue.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  %odd.bit = and u32 %i, 1
  %odd = icmp eq u32 %odd.bit, 1
  br %loop
loop:
  %k = phi i32 [0, %entry], [%k.next, %loop.cont]
  %acc = phi i32 [0, %entry], [%acc.next, %loop.cont]
  %more = icmp slt i32 %k, 4
  loop_merge %loop.exit, %loop.cont
  condbr bool %more, %body, %loop.exit
body:
  %s0 = add i32 %x, %k
  %s = and i32 %s0, 3
  br %switch.loop
switch.loop:
  %isCase0 = icmp eq i32 %s, 0
  %isCase1 = icmp eq i32 %s, 1
  %isCase2 = icmp eq i32 %s, 2
  %reachesCase1 = or bool %isCase0, %isCase1
  loop_merge %sw.merge, %switch.cont
  br %switch.body
switch.body:
  selection_merge %case0.after
  condbr bool %isCase0, %case0, %case0.after
case0:
  %a0 = add i32 %acc, 1
  br %case0.after
case0.after:
  %a1.in = phi i32 [%acc, %switch.body], [%a0, %case0]
  selection_merge %case1.after
  condbr bool %reachesCase1, %case1, %case1.after
case1:
  %a1 = add i32 %a1.in, 10
  selection_merge %case1.rest
  condbr bool %odd, %loop.cont, %case1.rest
case1.rest:
  %a1.b = add i32 %a1, 100
  br %sw.merge
case1.after:
  selection_merge %switch.next
  condbr bool %isCase2, %switch.exit, %switch.next
switch.exit:
  br %loop.cont
switch.next:
  selection_merge %default.after
  condbr bool true, %default, %default.after
default:
  %ad = add i32 %acc, 1000
  br %sw.merge
default.after:
  br %switch.cont
switch.cont:
  condbr bool false, %switch.loop, %sw.merge
sw.merge:
  %acc.sw = phi i32 [%a1.b, %case1.rest], [%ad, %default], [undef, %switch.cont]
  %acc.5 = add i32 %acc.sw, 5
  br %loop.cont
loop.cont:
  %acc.next = phi i32 [%acc.5, %sw.merge], [%a1, %case1], [%acc, %switch.exit]
  %k.next = add i32 %k, 1
  br %loop
loop.exit:
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %acc, ptr<storage, i32> %out.p
  ret
}
