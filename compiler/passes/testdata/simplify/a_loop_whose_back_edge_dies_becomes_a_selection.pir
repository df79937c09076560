; a loop whose back edge dies becomes a selection
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
  %c = icmp ult u32 %n, 2
  loop_merge %exit, %cont
  condbr bool %c, %body, %exit
body:
  selection_merge %bm
  condbr bool true, %brk, %bm
brk:
  br %exit
bm:
  br %cont
cont:
  %n1 = add u32 %n, 1
  br %loop
exit:
  %r = phi u32 [%n, %loop], [100, %brk]
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %r, ptr<storage, u32> %p
  ret
}
