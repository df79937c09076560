module "sm3-rep-header-effects.pir"

; Regression of commit 1a704b7 ("sm3-lower: rep trip counts exact (header
; runs N+1 handled)"): loops whose header has side effects ran their header
; once too few or too many times around the rep cap. Every target must keep
; the counts (the uncapped ones: n + 1 header runs for n iterations), and
; sm3 rejects the compute stage with a located error:
; fixedbugs: sm3 rejects "compute shaders have no SM3 profile"
; fixedbugs: buffer Out = 11 10 255 254 256 255 301 300
; Input: sm3-rep-header-effects.json.
;
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
