module "seed.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %sel = load ptr<storage, i32> %in.p
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  %odd = and u32 %i, 1
  %cond = icmp eq u32 %odd, 1
  br %switch.loop
switch.loop:
  %isCase0 = icmp eq i32 %sel, 0
  %isCase4 = icmp eq i32 %sel, 4
  %isCase1 = icmp eq i32 %sel, 1
  %isCase3 = icmp eq i32 %sel, 3
  %isCase1or3 = or bool %isCase1, %isCase3
  %isCase2 = icmp eq i32 %sel, 2
  %casesAfterDefault = or bool %isCase1or3, %isCase2
  %isDefault = not bool %casesAfterDefault
  %reachesDefault = or bool %isCase4, %isDefault
  %reachesCase1or3 = or bool %reachesDefault, %isCase1or3
  loop_merge %merge, %switch.cont
  br %switch.body
switch.body:
  selection_merge %case0.after
  condbr bool %isCase0, %case0, %case0.after
case0:
  store i32 1, ptr<storage, i32> %out.p
  br %merge
case0.after:
  selection_merge %case4.after
  condbr bool %isCase4, %case4, %case4.after
case4:
  selection_merge %case4.cont
  condbr bool %cond, %case4.break, %case4.cont
case4.break:
  br %merge
case4.cont:
  br %case4.after
case4.after:
  selection_merge %default.after
  condbr bool %reachesDefault, %default, %default.after
default:
  %d.old = load ptr<storage, i32> %out.p
  %d.shift = mul i32 %d.old, 10
  %d.new = add i32 %d.shift, 3
  store i32 %d.new, ptr<storage, i32> %out.p
  br %default.after
default.after:
  selection_merge %case1or3.after
  condbr bool %reachesCase1or3, %case1or3, %case1or3.after
case1or3:
  %e.old = load ptr<storage, i32> %out.p
  %e.shift = mul i32 %e.old, 10
  %e.new = add i32 %e.shift, 4
  store i32 %e.new, ptr<storage, i32> %out.p
  br %merge
case1or3.after:
  selection_merge %case2.after
  condbr bool %isCase2, %case2, %case2.after
case2:
  store i32 5, ptr<storage, i32> %out.p
  br %merge
case2.after:
  br %switch.cont
switch.cont:
  condbr bool false, %switch.loop, %merge
merge:
  ret
}
