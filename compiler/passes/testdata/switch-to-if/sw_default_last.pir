module "sw_default_last.pir"

; run: switch-to-if

; Default last, reached by fallthrough from case 1; case 5 is a bare
; `break` (its label is the merge block), so it emits no if and is kept
; out of isDefault explicitly.
;   switch (s) {
;   case 0: r = 100;   // falls through (past the bare case 5) into case 1
;   case 5: break;     // (label placed here, reached only directly)
;   case 1: r += 20;   // falls through
;   default: r += 3; break;
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
  %s = and i32 %x, 7
  selection_merge %merge
  switch i32 %s [case 0: %c0] [case 5: %merge] [case 1: %c1] [default: %dflt]
c0:
  br %c1
c1:
  %a = phi i32 [0, %entry], [100, %c0]
  %b = add i32 %a, 20
  br %dflt
dflt:
  %c = phi i32 [0, %entry], [%b, %c1]
  %d = add i32 %c, 3
  br %merge
merge:
  %r = phi i32 [-1, %entry], [%d, %dflt]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
