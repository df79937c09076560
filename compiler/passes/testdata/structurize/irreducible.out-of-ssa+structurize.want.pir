module "irreducible.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
dispatch.entry:
  %i.var = alloca u32
  %a.var = alloca i32
  %b.var = alloca i32
  %r.var = alloca i32
  %dispatch.idx = alloca i32
  store i32 0, ptr<function, i32> %dispatch.idx
  br %dispatch.loop
dispatch.loop:
  loop_merge %dispatch.exit, %dispatch.latch
  br %dispatch.switch
dispatch.switch:
  %dispatch.cur = load ptr<function, i32> %dispatch.idx
  selection_merge %dispatch.next
  switch i32 %dispatch.cur [case 0: %entry] [case 1: %A] [case 2: %B] [case 3: %exit] [default: %dispatch.next]
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  store u32 %i, ptr<function, u32> %i.var
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  %bit = and i32 %x, 1
  %c = icmp eq i32 %bit, 1
  store i32 0, ptr<function, i32> %a.var
  store i32 %x, ptr<function, i32> %b.var
  %dispatch.to = select bool %c, i32 1, 2
  store i32 %dispatch.to, ptr<function, i32> %dispatch.idx
  br %dispatch.next
A:
  %a = load ptr<function, i32> %a.var
  %a.next = add i32 %a, 3
  %stopA = icmp sgt i32 %a.next, 20
  store i32 %a.next, ptr<function, i32> %b.var
  store i32 %a.next, ptr<function, i32> %r.var
  %dispatch.to.1 = select bool %stopA, i32 3, 2
  store i32 %dispatch.to.1, ptr<function, i32> %dispatch.idx
  br %dispatch.next
B:
  %b = load ptr<function, i32> %b.var
  %b.next = add i32 %b, 5
  %stopB = icmp sgt i32 %b.next, 30
  store i32 %b.next, ptr<function, i32> %a.var
  store i32 %b.next, ptr<function, i32> %r.var
  %dispatch.to.2 = select bool %stopB, i32 3, 1
  store i32 %dispatch.to.2, ptr<function, i32> %dispatch.idx
  br %dispatch.next
exit:
  %r = load ptr<function, i32> %r.var
  %i.1 = load ptr<function, u32> %i.var
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i.1
  store i32 %r, ptr<storage, i32> %out.p
  ret
dispatch.next:
  br %dispatch.latch
dispatch.latch:
  br %dispatch.loop
dispatch.exit:
  unreachable
}
