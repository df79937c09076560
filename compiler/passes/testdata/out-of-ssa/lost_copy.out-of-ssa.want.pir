module "lost_copy.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %x.var = alloca i32
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x0 = load ptr<storage, i32> %in.p
  store i32 %x0, ptr<function, i32> %x.var
  br %loop
loop:
  %x = load ptr<function, i32> %x.var
  %x.next = add i32 %x, 1
  %more = icmp slt i32 %x.next, 10
  loop_merge %exit, %loop.to.loop
  condbr bool %more, %loop.to.loop, %exit
loop.to.loop:
  store i32 %x.next, ptr<function, i32> %x.var
  br %loop
exit:
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %x, ptr<storage, i32> %out.p
  ret
}
