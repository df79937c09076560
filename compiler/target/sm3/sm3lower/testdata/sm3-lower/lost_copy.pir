module "lost_copy.pir"

; The lost-copy problem: x is used after the loop, but the back edge
; (critical: the loop block has two successors and two predecessors)
; carries x.next into x's variable. A copy placed in the loop block itself
; would overwrite x on the exiting path too.
;   x = In[i]; do { x_old = x; x = x + 1; } while (x < 10); Out[i] = x_old;

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x0 = load ptr<storage, i32> %in.p
  br %loop
loop:
  %x = phi i32 [%x0, %entry], [%x.next, %loop]
  %x.next = add i32 %x, 1
  %more = icmp slt i32 %x.next, 10
  loop_merge %exit, %loop
  condbr bool %more, %loop, %exit
exit:
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %x, ptr<storage, i32> %out.p
  ret
}
