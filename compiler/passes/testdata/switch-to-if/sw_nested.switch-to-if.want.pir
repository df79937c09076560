module "sw_nested.pir"

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
  %x4 = ashr i32 %x, 2
  %t = and i32 %x4, 3
  br %switch.loop
switch.loop:
  %isCase0 = icmp eq i32 %s, 0
  %isCase1 = icmp eq i32 %s, 1
  %reachesCase1 = or bool %isCase0, %isCase1
  loop_merge %merge, %switch.cont
  br %switch.body
switch.body:
  selection_merge %o0.after
  condbr bool %isCase0, %o0, %o0.after
o0:
  br %switch.loop.1
switch.loop.1:
  %isCase0.1 = icmp eq i32 %t, 0
  %isCase1.1 = icmp eq i32 %t, 1
  %reachesCase1.1 = or bool %isCase0.1, %isCase1.1
  loop_merge %inner.merge, %switch.cont.1
  br %switch.body.1
switch.body.1:
  selection_merge %i0.after
  condbr bool %isCase0.1, %i0, %i0.after
i0:
  br %i0.after
i0.after:
  %p = phi i32 [0, %switch.body.1], [1, %i0]
  selection_merge %i1.after
  condbr bool %reachesCase1.1, %i1, %i1.after
i1:
  %p10 = mul i32 %p, 10
  %p2 = add i32 %p10, 2
  br %inner.merge
i1.after:
  selection_merge %id.after
  condbr bool true, %id, %id.after
id:
  br %inner.merge
id.after:
  br %switch.cont.1
switch.cont.1:
  condbr bool false, %switch.loop.1, %inner.merge
inner.merge:
  %q = phi i32 [%p2, %i1], [9, %id], [undef, %switch.cont.1]
  br %o0.after
o0.after:
  %u = phi i32 [0, %switch.body], [%q, %inner.merge]
  selection_merge %o1.after
  condbr bool %reachesCase1, %o1, %o1.after
o1:
  %u10 = mul i32 %u, 10
  %u3 = add i32 %u10, 3
  br %merge
o1.after:
  selection_merge %od.after
  condbr bool true, %od, %od.after
od:
  br %merge
od.after:
  br %switch.cont
switch.cont:
  condbr bool false, %switch.loop, %merge
merge:
  %r = phi i32 [%u3, %o1], [7, %od], [undef, %switch.cont]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
