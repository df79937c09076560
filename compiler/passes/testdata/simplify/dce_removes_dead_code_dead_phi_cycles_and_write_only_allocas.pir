; dce removes dead code, dead phi cycles and write-only allocas
; run: simplify
; input: {}

module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %tmp = alloca [2 x u32]
  %t0 = access ptr<function, [2 x u32]> %tmp, u32 %i
  store u32 %i, ptr<function, u32> %t0
  %unused = mul u32 %i, %i
  br %loop
loop:
  %n = phi u32 [0, %entry], [%n1, %body]
  %dead = phi u32 [%i, %entry], [%dead1, %body]
  %c = icmp ult u32 %n, 4
  loop_merge %exit, %body
  condbr bool %c, %body, %exit
body:
  %dead1 = add u32 %dead, 1
  %n1 = add u32 %n, 1
  br %loop
exit:
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %n, ptr<storage, u32> %p
  ret
}
