module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %c = icmp ult u32 %i, 2
  selection_merge %exit
  condbr bool %c, %body, %exit
body:
  br %exit
exit:
  %r = phi u32 [%i, %entry], [100, %body]
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %r, ptr<storage, u32> %p
  ret
}
