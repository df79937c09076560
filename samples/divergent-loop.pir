; A loop whose exit condition depends on the lane index, written directly in
; passlens IR: the exit is divergent, so %sum is temporally divergent outside
; the loop even though it is uniform inside.
module "divergent-loop.pir"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(8, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %tid.x = extractvalue <3 x u32> %tid, 0
  br %loop
loop:
  %i = phi u32 [0, %entry], [%i.next, %loop.cont]
  %sum = phi u32 [0, %entry], [%sum.next, %loop.cont]
  %sum.next = add u32 %sum, %i
  %i.next = add u32 %i, 1
  %done = icmp ugt u32 %i.next, %tid.x
  loop_merge %exit, %loop.cont
  condbr bool %done, %exit, %loop.cont
loop.cont:
  br %loop
exit:
  %p = access ptr<storage, [? x u32]> @Out, u32 %tid.x
  store u32 %sum.next, ptr<storage, u32> %p
  ret
}
