module "sw_plain.pir"

; A switch without fallthrough: switch-to-if leaves it alone, and
; switch-to-if<all> (the SM3 pipeline) lowers it all the same. Case 2
; holds a loop, cloned whole with its annotations.
;   switch (s) {
;   case 0: r = 5; break;
;   case 2: r = 0; for (k = 0; k < x; k++) r += k; break;
;   default: r = -1; break;
;   }

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
  selection_merge %merge
  switch i32 %s [case 0: %c0] [case 2: %c2] [default: %d]
c0:
  br %merge
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
d:
  br %merge
merge:
  %r = phi i32 [5, %c0], [%acc, %loop.exit], [-1, %d]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
