; a loop that never runs is removed
; run: simplify
; input: {}

module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  br %loop
loop:
  %n = phi u32 [%i, %entry], [%n1, %cont]
  loop_merge %exit, %cont
  condbr bool false, %body, %exit
body:
  br %cont
cont:
  %n1 = add u32 %n, 1
  br %loop
exit:
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %n, ptr<storage, u32> %p
  ret
}
