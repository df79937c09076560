module "t"

@sharedData = global groupshared [2 x [3 x f32]]
@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"

define void @fn2() compute numthreads(1, 1, 1) {
entry:
  %p0.x = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 0, i32 0
  store f32 1.0, ptr<groupshared, f32> %p0.x
  %p0.y = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 0, i32 1
  store f32 2.0, ptr<groupshared, f32> %p0.y
  %p0.z = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 0, i32 2
  store f32 3.0, ptr<groupshared, f32> %p0.z
  %p1.x = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 1, i32 0
  store f32 2.0, ptr<groupshared, f32> %p1.x
  %p1.y = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 1, i32 1
  store f32 4.0, ptr<groupshared, f32> %p1.y
  %p1.z = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 1, i32 2
  store f32 6.0, ptr<groupshared, f32> %p1.z
  %e = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 1, i32 2
  %v = load ptr<groupshared, f32> %e
  %o = access ptr<storage, [? x f32]> @Out, i32 0
  store f32 %v, ptr<storage, f32> %o
  ret
}
