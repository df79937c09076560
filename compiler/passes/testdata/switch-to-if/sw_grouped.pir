module "sw_grouped.pir"

; run: switch-to-if

; Grouped labels: `case 1: case 3:` is one group, case 7 jumps to the same
; block (merged into that group), case 4 is a bare label that falls into
; case 6, and the default label is the merge block.
;   switch (s) {
;   case 1: case 3: case 7: r = x * 2;   // falls through
;   case 4:                              // bare label
;   case 6: r += 1000; break;
;   default: break;
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
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 0, ptr<storage, i32> %out.p
  selection_merge %merge
  switch i32 %s [case 1, 3: %a] [case 4: %b] [case 6: %c] [default: %merge] [case 7: %a]
a:
  %r0 = mul i32 %x, 2
  store i32 %r0, ptr<storage, i32> %out.p
  br %b
b:
  br %c
c:
  %old = load ptr<storage, i32> %out.p
  %new = add i32 %old, 1000
  store i32 %new, ptr<storage, i32> %out.p
  br %merge
merge:
  ret
}
