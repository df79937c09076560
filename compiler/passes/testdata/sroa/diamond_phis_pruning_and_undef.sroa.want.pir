module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %c = icmp ult u32 %i, 2
  selection_merge %m
  condbr bool %c, %a, %b
a:
  %y2 = add u32 %i, 1
  br %m
b:
  br %m
m:
  %x = phi u32 [10, %a], [20, %b]
  %s = add u32 %x, undef
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %s, ptr<storage, u32> %p
  ret
}
