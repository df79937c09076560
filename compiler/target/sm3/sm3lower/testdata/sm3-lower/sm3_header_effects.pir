module "sm3_header_effects.pir"

; run: sm3-lower
; run: out-of-ssa,sm3-lower
; data: 0 1 2 3 10 100 200 254 5 6 7 8 9 11 12 13

; Loop headers with side effects: the cap must stop the loop before the
; header's code runs again. The first loop counts its header runs in
; Out[2i] (n + 1 runs for n = In[i] iterations); the second is a one-block
; loop (its header is its continue target) counting in Out[2i+1].

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %n = load ptr<storage, i32> %in.p
  %i2 = mul u32 %i, 2
  %c1.p = access ptr<storage, [? x i32]> @Out, u32 %i2
  %i21 = add u32 %i2, 1
  %c2.p = access ptr<storage, [? x i32]> @Out, u32 %i21
  br %loop
loop:
  %k = phi i32 [0, %entry], [%k.next, %body]
  %old = load ptr<storage, i32> %c1.p
  %new = add i32 %old, 1
  store i32 %new, ptr<storage, i32> %c1.p
  %more = icmp slt i32 %k, %n
  loop_merge %mid, %body
  condbr bool %more, %body, %mid
body:
  %k.next = add i32 %k, 1
  br %loop
mid:
  br %one
one:
  %j = phi i32 [0, %mid], [%j.next, %one]
  %o2 = load ptr<storage, i32> %c2.p
  %n2 = add i32 %o2, 1
  store i32 %n2, ptr<storage, i32> %c2.p
  %j.next = add i32 %j, 1
  %again = icmp slt i32 %j.next, %n
  loop_merge %exit, %one
  condbr bool %again, %one, %exit
exit:
  ret
}
