module "unannotated.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
dispatch.entry:
  %i.var = alloca u32
  %x.var = alloca i32
  %k.var = alloca i32
  %r.var = alloca i32
  %r.next.var = alloca i32
  %dispatch.idx = alloca i32
  store i32 0, ptr<function, i32> %dispatch.idx
  br %dispatch.loop
dispatch.loop:
  loop_merge %dispatch.exit, %dispatch.latch
  br %dispatch.switch
dispatch.switch:
  %dispatch.cur = load ptr<function, i32> %dispatch.idx
  selection_merge %dispatch.next
  switch i32 %dispatch.cur [case 0: %entry] [case 1: %loop] [case 2: %add] [case 3: %sub] [case 4: %latch] [case 5: %exit] [default: %dispatch.next]
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  store u32 %i, ptr<function, u32> %i.var
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  store i32 %x, ptr<function, i32> %x.var
  store i32 0, ptr<function, i32> %k.var
  store i32 0, ptr<function, i32> %r.var
  store i32 1, ptr<function, i32> %dispatch.idx
  br %dispatch.next
loop:
  %k = load ptr<function, i32> %k.var
  %r = load ptr<function, i32> %r.var
  %bit = and i32 %k, 1
  %odd = icmp ne i32 %bit, 0
  %dispatch.to = select bool %odd, i32 2, 3
  store i32 %dispatch.to, ptr<function, i32> %dispatch.idx
  br %dispatch.next
add:
  %r.1 = load ptr<function, i32> %r.var
  %k.1 = load ptr<function, i32> %k.var
  %ra = add i32 %r.1, %k.1
  store i32 %ra, ptr<function, i32> %r.next.var
  store i32 4, ptr<function, i32> %dispatch.idx
  br %dispatch.next
sub:
  %r.2 = load ptr<function, i32> %r.var
  %rs = sub i32 %r.2, 1
  store i32 %rs, ptr<function, i32> %r.next.var
  store i32 4, ptr<function, i32> %dispatch.idx
  br %dispatch.next
latch:
  %r.next = load ptr<function, i32> %r.next.var
  %k.2 = load ptr<function, i32> %k.var
  %k.next = add i32 %k.2, 1
  %x.1 = load ptr<function, i32> %x.var
  %more = icmp slt i32 %k.next, %x.1
  store i32 %k.next, ptr<function, i32> %k.var
  store i32 %r.next, ptr<function, i32> %r.var
  %dispatch.to.1 = select bool %more, i32 1, 5
  store i32 %dispatch.to.1, ptr<function, i32> %dispatch.idx
  br %dispatch.next
exit:
  %i.1 = load ptr<function, u32> %i.var
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i.1
  %r.next.1 = load ptr<function, i32> %r.next.var
  store i32 %r.next.1, ptr<storage, i32> %out.p
  ret
dispatch.next:
  br %dispatch.latch
dispatch.latch:
  br %dispatch.loop
dispatch.exit:
  unreachable
}
