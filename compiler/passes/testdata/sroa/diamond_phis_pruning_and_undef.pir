; diamond phis, pruning and undef
; run: sroa
; input: {}

module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %x = alloca u32
  %y = alloca u32
  %u = alloca u32
  %c = icmp ult u32 %i, 2
  store u32 %i, ptr<function, u32> %y
  selection_merge %m
  condbr bool %c, %a, %b
a:
  store u32 10, ptr<function, u32> %x
  %y1 = load ptr<function, u32> %y
  %y2 = add u32 %y1, 1
  store u32 %y2, ptr<function, u32> %y
  br %m
b:
  store u32 20, ptr<function, u32> %x
  br %m
m:
  %xv = load ptr<function, u32> %x
  %uv = load ptr<function, u32> %u
  %s = add u32 %xv, %uv
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %s, ptr<storage, u32> %p
  ret
}
