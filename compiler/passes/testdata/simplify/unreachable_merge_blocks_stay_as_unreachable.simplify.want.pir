module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  %c = icmp ult u32 %i, 2
  selection_merge %m
  condbr bool %c, %a, %b
a:
  store u32 1, ptr<storage, u32> %p
  ret
b:
  store u32 2, ptr<storage, u32> %p
  ret
m:
  unreachable
}
