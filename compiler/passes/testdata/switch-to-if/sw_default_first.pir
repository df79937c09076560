module "sw_default_first.pir"

; run: switch-to-if

; Default first, falling into case 1; case 2 falls into case 3. Values
; cross the fallthrough edges in phis.
;   switch (s) {
;   default: v = 1;          // falls through
;   case 1:  r = v + 10; break;
;   case 2:  w = x + 5;      // falls through
;   case 3:  r = w * 7; break;
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
  switch i32 %s [default: %dflt] [case 1: %c1] [case 2: %c2] [case 3: %c3]
dflt:
  br %c1
c1:
  %v = phi i32 [0, %entry], [1, %dflt]
  %r1 = add i32 %v, 10
  br %merge
c2:
  %w0 = add i32 %x, 5
  br %c3
c3:
  %w = phi i32 [%x, %entry], [%w0, %c2]
  %r3 = mul i32 %w, 7
  br %merge
merge:
  %r = phi i32 [%r1, %c1], [%r3, %c3]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
