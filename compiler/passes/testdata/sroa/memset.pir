; memset of an array and a bool: the fill 0xABABABAB is stored directly
; (TestSROAMemset).
; run: sroa,simplify
; input: {}

module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %a = alloca [3 x u32]
  %b = alloca bool
  memset ptr<function, [3 x u32]> %a, u32 171
  memset ptr<function, bool> %b, u32 2
  %e = access ptr<function, [3 x u32]> %a, i32 1
  %v = load ptr<function, u32> %e
  %bv = load ptr<function, bool> %b
  %w = select bool %bv, u32 %v, 0
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %w, ptr<storage, u32> %p
  ret
}
