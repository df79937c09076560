module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %a = add u32 %i, 1
  %c = icmp ult u32 %a, 3
  %w1 = intr u32 WaveActiveSum(u32 %a)
  selection_merge %m
  condbr bool %c, %t, %e
t:
  %w2 = intr u32 WaveActiveSum(u32 %a)
  %x1 = mul u32 %a, 3
  %x1b = add u32 %x1, %w2
  br %m
e:
  %x2 = mul u32 %a, 3
  br %m
m:
  %x = phi u32 [%x1b, %t], [%x2, %e]
  %y = mul u32 %a, 3
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  %l1 = load ptr<storage, u32> %p
  store u32 %y, ptr<storage, u32> %p
  %l2 = load ptr<storage, u32> %p
  %s1 = add u32 %x, %y
  %s2 = add u32 %s1, %w1
  %s3 = add u32 %s2, %l1
  %s4 = add u32 %s3, %l2
  store u32 %s4, ptr<storage, u32> %p
  ret
}
