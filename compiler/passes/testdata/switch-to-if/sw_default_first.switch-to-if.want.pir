module "sw_default_first.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  %s = and i32 %x, 3
  br %switch.loop
switch.loop:
  %isCase1 = icmp eq i32 %s, 1
  %isCase2 = icmp eq i32 %s, 2
  %isCase3 = icmp eq i32 %s, 3
  %casesAfterDefault = or bool %isCase1, %isCase2
  %casesAfterDefault.1 = or bool %casesAfterDefault, %isCase3
  %isDefault = not bool %casesAfterDefault.1
  %reachesCase1 = or bool %isDefault, %isCase1
  %reachesCase3 = or bool %isCase2, %isCase3
  loop_merge %merge, %switch.cont
  br %switch.body
switch.body:
  selection_merge %dflt.after
  condbr bool %isDefault, %dflt, %dflt.after
dflt:
  br %dflt.after
dflt.after:
  %v = phi i32 [0, %switch.body], [1, %dflt]
  selection_merge %c1.after
  condbr bool %reachesCase1, %c1, %c1.after
c1:
  %r1 = add i32 %v, 10
  br %merge
c1.after:
  selection_merge %c2.after
  condbr bool %isCase2, %c2, %c2.after
c2:
  %w0 = add i32 %x, 5
  br %c2.after
c2.after:
  %w = phi i32 [%x, %c1.after], [%w0, %c2]
  selection_merge %c3.after
  condbr bool %reachesCase3, %c3, %c3.after
c3:
  %r3 = mul i32 %w, 7
  br %merge
c3.after:
  br %switch.cont
switch.cont:
  condbr bool false, %switch.loop, %merge
merge:
  %r = phi i32 [%r1, %c1], [%r3, %c3], [undef, %switch.cont]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
