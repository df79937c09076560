module "swap.pir"

; The swap problem: a and b exchange values on every iteration, so the
; copies on the back edge form a cycle (a.var := b, b.var := a).
;   a = 1; b = 2; for (k = 0; k < In[i]; k++) { t = a; a = b; b = t; }
;   Out[i] = a * 10 + b;

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %n = load ptr<storage, i32> %in.p
  br %loop
loop:
  %a = phi i32 [1, %entry], [%b, %loop.cont]
  %b = phi i32 [2, %entry], [%a, %loop.cont]
  %k = phi i32 [0, %entry], [%k.next, %loop.cont]
  %more = icmp slt i32 %k, %n
  loop_merge %exit, %loop.cont
  condbr bool %more, %loop.cont, %exit
loop.cont:
  %k.next = add i32 %k, 1
  br %loop
exit:
  %a10 = mul i32 %a, 10
  %r = add i32 %a10, %b
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
