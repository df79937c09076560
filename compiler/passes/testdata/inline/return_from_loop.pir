; A return inside a loop becomes a multi-level break out of the one-case
; switch the inliner wraps the callee in; the result must verify, run
; identically, and survive the spirv clean-up passes.
; run: inline
; run: inline,sroa,simplify
; run: inline,sroa,simplify,switch-to-if,eliminate-multilevel-break,simplify
; input: {}

module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define u32 @find(u32 %x) {
entry:
  br %loop
loop:
  %k = phi u32 [0, %entry], [%k1, %cont]
  %c = icmp ult u32 %k, 8
  loop_merge %done, %cont
  condbr bool %c, %body, %done
body:
  %s = mul u32 %k, %k
  %hit = icmp uge u32 %s, %x
  selection_merge %cont
  condbr bool %hit, %found, %cont
found:
  ret u32 %k
cont:
  %k1 = add u32 %k, 1
  br %loop
done:
  ret u32 99
}

define void @main() compute numthreads(8, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %x = mul u32 %i, 7
  %r = call u32 @find(u32 %x)
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %r, ptr<storage, u32> %p
  ret
}
