; constant branch without annotation
; run: simplify
; input: {}

module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %k = icmp eq u32 3, 4
  condbr bool %k, %a, %b
a:
  %x = add u32 %i, 10
  br %m
b:
  %y = add u32 %i, 20
  br %m
m:
  %v = phi u32 [%x, %a], [%y, %b]
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %v, ptr<storage, u32> %p
  ret
}
