module "emb_ifbreak.pir"

; run: eliminate-multilevel-break

; A branch from inside an inner if straight to the merge block of the
; enclosing if, skipping the rest of the outer if's body (SPIR-V has no
; such branch): the outer if becomes a one-trip loop, the branch a break.
;   r = 1;
;   if (x > 2) {
;     if (x > 5) { r = 50; goto out; }   // leaves both ifs
;     r = 20;
;   }
;   out: Out[i] = r;

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  %c1 = icmp sgt i32 %x, 2
  selection_merge %out
  condbr bool %c1, %then, %out
then:
  %c2 = icmp sgt i32 %x, 5
  selection_merge %then.2
  condbr bool %c2, %early, %then.2
early:
  br %out
then.2:
  br %out
out:
  %r = phi i32 [1, %entry], [50, %early], [20, %then.2]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
