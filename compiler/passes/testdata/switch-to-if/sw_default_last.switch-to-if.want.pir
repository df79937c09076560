module "sw_default_last.pir"

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
  br %switch.loop
switch.loop:
  %isCase0 = icmp eq i32 %s, 0
  %isCase1 = icmp eq i32 %s, 1
  %isCase5 = icmp eq i32 %s, 5
  %isDefault = not bool %isCase5
  %reachesCase1 = or bool %isCase0, %isCase1
  %reachesDefault = or bool %reachesCase1, %isDefault
  loop_merge %merge, %switch.cont
  br %switch.body
switch.body:
  selection_merge %c0.after
  condbr bool %isCase0, %c0, %c0.after
c0:
  br %c0.after
c0.after:
  %a = phi i32 [0, %switch.body], [100, %c0]
  selection_merge %c1.after
  condbr bool %reachesCase1, %c1, %c1.after
c1:
  %b = add i32 %a, 20
  br %c1.after
c1.after:
  %c = phi i32 [0, %c0.after], [%b, %c1]
  selection_merge %dflt.after
  condbr bool %reachesDefault, %dflt, %dflt.after
dflt:
  %d = add i32 %c, 3
  br %merge
dflt.after:
  br %switch.cont
switch.cont:
  condbr bool false, %switch.loop, %merge
merge:
  %r = phi i32 [%d, %dflt], [-1, %switch.cont]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
