module "sw_nested.pir"

; run: switch-to-if
; run: switch-to-if,eliminate-multilevel-break

; A switch with fallthrough nested in a case of another switch with
; fallthrough. Each gets its own one-trip loop and predicates.
;   switch (s & 3) {
;   case 0: switch (s >> 2 & 3) {      // inner
;           case 0: r = 1;             // falls through
;           case 1: r = r * 10 + 2; break;
;           default: r = 9; }
;           // falls through
;   case 1: r = r * 10 + 3; break;
;   default: r = 7; }

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
  %x4 = ashr i32 %x, 2
  %t = and i32 %x4, 3
  selection_merge %merge
  switch i32 %s [case 0: %o0] [case 1: %o1] [default: %od]
o0:
  selection_merge %inner.merge
  switch i32 %t [case 0: %i0] [case 1: %i1] [default: %id]
i0:
  br %i1
i1:
  %p = phi i32 [0, %o0], [1, %i0]
  %p10 = mul i32 %p, 10
  %p2 = add i32 %p10, 2
  br %inner.merge
id:
  br %inner.merge
inner.merge:
  %q = phi i32 [%p2, %i1], [9, %id]
  br %o1
o1:
  %u = phi i32 [0, %entry], [%q, %inner.merge]
  %u10 = mul i32 %u, 10
  %u3 = add i32 %u10, 3
  br %merge
od:
  br %merge
merge:
  %r = phi i32 [%u3, %o1], [7, %od]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
