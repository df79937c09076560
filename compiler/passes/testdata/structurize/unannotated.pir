module "unannotated.pir"

; run: structurize

; A reducible loop with an if, as LLVM would give it: no merge
; annotations, so structurize cannot prove it structured and dispatches
; it (annotation inference is not attempted).
;   r = 0; k = 0;
;   do { if (k & 1) r += k; else r -= 1; k++; } while (k < x);

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  br %loop
loop:
  %k = phi i32 [0, %entry], [%k.next, %latch]
  %r = phi i32 [0, %entry], [%r.next, %latch]
  %bit = and i32 %k, 1
  %odd = icmp ne i32 %bit, 0
  condbr bool %odd, %add, %sub
add:
  %ra = add i32 %r, %k
  br %latch
sub:
  %rs = sub i32 %r, 1
  br %latch
latch:
  %r.next = phi i32 [%ra, %add], [%rs, %sub]
  %k.next = add i32 %k, 1
  %more = icmp slt i32 %k.next, %x
  condbr bool %more, %loop, %exit
exit:
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r.next, ptr<storage, i32> %out.p
  ret
}
