module "irreducible.pir"

; run: structurize
; run: out-of-ssa,structurize
; run: out-of-ssa,structurize<ifs>
; run: out-of-ssa

; An irreducible cycle: A and B form a loop with two entries (entry jumps
; to either), so no block of the cycle dominates the other. Values cross
; the cycle in phis, and the exit phi merges values from both blocks.

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  %bit = and i32 %x, 1
  %c = icmp eq i32 %bit, 1
  condbr bool %c, %A, %B
A:
  %a = phi i32 [0, %entry], [%b.next, %B]
  %a.next = add i32 %a, 3
  %stopA = icmp sgt i32 %a.next, 20
  condbr bool %stopA, %exit, %B
B:
  %b = phi i32 [%x, %entry], [%a.next, %A]
  %b.next = add i32 %b, 5
  %stopB = icmp sgt i32 %b.next, 30
  condbr bool %stopB, %exit, %A
exit:
  %r = phi i32 [%a.next, %A], [%b.next, %B]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
