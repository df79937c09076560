; seed store example: groupshared float3 sharedData[2]
; run: scalarize
; input: {}

module "t"

@sharedData = global groupshared [2 x <3 x f32>]
@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"

define void @fn2() compute numthreads(1, 1, 1) {
entry:
  %p0 = access ptr<groupshared, [2 x <3 x f32>]> @sharedData, i32 0
  store <3 x f32> <1.0, 2.0, 3.0>, ptr<groupshared, <3 x f32>> %p0
  %p1 = access ptr<groupshared, [2 x <3 x f32>]> @sharedData, i32 1
  store <3 x f32> <2.0, 4.0, 6.0>, ptr<groupshared, <3 x f32>> %p1
  %e = access ptr<groupshared, [2 x <3 x f32>]> @sharedData, i32 1, i32 2
  %v = load ptr<groupshared, f32> %e
  %o = access ptr<storage, [? x f32]> @Out, i32 0
  store f32 %v, ptr<storage, f32> %o
  ret
}
