; memcpy memset and a dynamically indexed array of vectors
; run: scalarize
; input: {"buffers":[{"name":"In","data":[[[1,2],7],[[3,4],8],[[5,6],9],[[-1,0.5],10]]}]}

module "t"

type %V = { <2 x f32> uv, u32 id }

@In = global storage [? x %V] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x %V] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %arr = alloca [4 x <2 x f32>]
  %loc = alloca %V
  memset ptr<function, [4 x <2 x f32>]> %arr, u32 0
  %src = access ptr<storage, [? x %V]> @In, u32 %i
  memcpy ptr<function, %V> %loc, ptr<storage, %V> %src
  %lv = load ptr<function, %V> %loc
  %uv = extractvalue %V %lv, 0
  %slot = access ptr<function, [4 x <2 x f32>]> %arr, u32 %i
  store <2 x f32> %uv, ptr<function, <2 x f32>> %slot
  %j = xor u32 %i, 1
  %other = access ptr<function, [4 x <2 x f32>]> %arr, u32 %j
  %ov = load ptr<function, <2 x f32>> %other
  %sum = fadd <2 x f32> %uv, %ov
  %nv = insertvalue %V %lv, <2 x f32> %sum, 0
  %dst = access ptr<storage, [? x %V]> @Out, u32 %i
  store %V %nv, ptr<storage, %V> %dst
  ret
}
