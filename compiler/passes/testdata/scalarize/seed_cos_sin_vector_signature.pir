; seed cos(sin(a)) in a function with a vector signature (flattened: scalar parameters, struct return)
; run: scalarize
; input: {"buffers":[{"name":"In","data":[[0.5,1,2,-3]]}]}

module "t"

@In = global storage [? x <4 x f32>] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x <4 x f32>] binding 0, 1 kind "RWStructuredBuffer"

define <4 x f32> @cos_sin(<4 x f32> %a) {
entry:
  %s = intr <4 x f32> sin(<4 x f32> %a)
  %c = intr <4 x f32> cos(<4 x f32> %s)
  ret <4 x f32> %c
}

define void @main() compute numthreads(1, 1, 1) {
entry:
  %ip = access ptr<storage, [? x <4 x f32>]> @In, i32 0
  %a = load ptr<storage, <4 x f32>> %ip
  %r = call <4 x f32> @cos_sin(<4 x f32> %a)
  %b = bitcast <4 x f32> %r to <4 x i32>
  %c = sitofp <4 x i32> %b to <4 x f32>
  %op = access ptr<storage, [? x <4 x f32>]> @Out, i32 0
  store <4 x f32> %c, ptr<storage, <4 x f32>> %op
  ret
}
