module "sw_grouped.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  %s = and i32 %x, 7
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 0, ptr<storage, i32> %out.p
  br %switch.loop
switch.loop:
  %isCase1 = icmp eq i32 %s, 1
  %isCase3 = icmp eq i32 %s, 3
  %isCase1or3 = or bool %isCase1, %isCase3
  %isCase7 = icmp eq i32 %s, 7
  %isCase1or3or7 = or bool %isCase1or3, %isCase7
  %isCase4 = icmp eq i32 %s, 4
  %isCase6 = icmp eq i32 %s, 6
  %reachesCase4 = or bool %isCase1or3or7, %isCase4
  %reachesCase6 = or bool %reachesCase4, %isCase6
  loop_merge %merge, %switch.cont
  br %switch.body
switch.body:
  selection_merge %a.after
  condbr bool %isCase1or3or7, %a, %a.after
a:
  %r0 = mul i32 %x, 2
  store i32 %r0, ptr<storage, i32> %out.p
  br %a.after
a.after:
  selection_merge %c.after
  condbr bool %reachesCase6, %c, %c.after
c:
  %old = load ptr<storage, i32> %out.p
  %new = add i32 %old, 1000
  store i32 %new, ptr<storage, i32> %out.p
  br %merge
c.after:
  br %switch.cont
switch.cont:
  condbr bool false, %switch.loop, %merge
merge:
  ret
}
