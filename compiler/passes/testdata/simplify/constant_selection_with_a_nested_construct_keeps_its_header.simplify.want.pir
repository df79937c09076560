module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %c = icmp ult u32 %i, 2
  selection_merge %m
  switch i32 1 [default: %one]
one:
  selection_merge %m2
  condbr bool %c, %brk, %m2
brk:
  br %m
m2:
  br %m
m:
  %v = phi u32 [2, %brk], [3, %m2]
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %v, ptr<storage, u32> %p
  ret
}
