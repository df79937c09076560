module "swap.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %a.var = alloca i32
  %b.var = alloca i32
  %k.var = alloca i32
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %n = load ptr<storage, i32> %in.p
  store i32 1, ptr<function, i32> %a.var
  store i32 2, ptr<function, i32> %b.var
  store i32 0, ptr<function, i32> %k.var
  br %loop
loop:
  %a = load ptr<function, i32> %a.var
  %b = load ptr<function, i32> %b.var
  %k = load ptr<function, i32> %k.var
  %more = icmp slt i32 %k, %n
  loop_merge %exit, %loop.cont
  condbr bool %more, %loop.cont, %exit
loop.cont:
  %k.next = add i32 %k, 1
  store i32 %k.next, ptr<function, i32> %k.var
  %a.save = copy i32 %a
  store i32 %b, ptr<function, i32> %a.var
  store i32 %a.save, ptr<function, i32> %b.var
  br %loop
exit:
  %a10 = mul i32 %a, 10
  %r = add i32 %a10, %b
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
