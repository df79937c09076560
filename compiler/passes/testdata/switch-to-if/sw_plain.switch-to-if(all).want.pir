module "sw_plain.pir"

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
  %isCase0 = icmp eq i32 %s, 0
  %isCase2 = icmp eq i32 %s, 2
  loop_merge %merge, %switch.cont
  br %switch.body
switch.body:
  selection_merge %c0.after
  condbr bool %isCase0, %c0, %c0.after
c0:
  br %merge
c0.after:
  selection_merge %c2.after
  condbr bool %isCase2, %c2, %c2.after
c2:
  br %loop
loop:
  %k = phi i32 [0, %c2], [%k.next, %loop.body]
  %acc = phi i32 [0, %c2], [%acc.next, %loop.body]
  %more = icmp slt i32 %k, %x
  loop_merge %loop.exit, %loop.body
  condbr bool %more, %loop.body, %loop.exit
loop.body:
  %acc.next = add i32 %acc, %k
  %k.next = add i32 %k, 1
  br %loop
loop.exit:
  br %merge
c2.after:
  selection_merge %d.after
  condbr bool true, %d, %d.after
d:
  br %merge
d.after:
  br %switch.cont
switch.cont:
  condbr bool false, %switch.loop, %merge
merge:
  %r = phi i32 [5, %c0], [%acc, %loop.exit], [-1, %d], [undef, %switch.cont]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
