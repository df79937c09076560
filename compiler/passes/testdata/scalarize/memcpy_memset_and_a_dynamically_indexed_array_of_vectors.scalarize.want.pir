module "t"

type %V = { <2 x f32> uv, u32 id }
type %V.flat = { [2 x f32] uv, u32 id }

@In = global storage [? x %V] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x %V] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %tid.x = access ptr<input, <3 x u32>> @tid, i32 0
  %tid.y = access ptr<input, <3 x u32>> @tid, i32 1
  %tid.z = access ptr<input, <3 x u32>> @tid, i32 2
  %id.x = load ptr<input, u32> %tid.x
  %id.y = load ptr<input, u32> %tid.y
  %id.z = load ptr<input, u32> %tid.z
  %arr = alloca [4 x [2 x f32]]
  %loc = alloca %V.flat
  %arr.0.0 = access ptr<function, [4 x [2 x f32]]> %arr, i32 0, i32 0
  store f32 0.0, ptr<function, f32> %arr.0.0
  %arr.0.1 = access ptr<function, [4 x [2 x f32]]> %arr, i32 0, i32 1
  store f32 0.0, ptr<function, f32> %arr.0.1
  %arr.1.0 = access ptr<function, [4 x [2 x f32]]> %arr, i32 1, i32 0
  store f32 0.0, ptr<function, f32> %arr.1.0
  %arr.1.1 = access ptr<function, [4 x [2 x f32]]> %arr, i32 1, i32 1
  store f32 0.0, ptr<function, f32> %arr.1.1
  %arr.2.0 = access ptr<function, [4 x [2 x f32]]> %arr, i32 2, i32 0
  store f32 0.0, ptr<function, f32> %arr.2.0
  %arr.2.1 = access ptr<function, [4 x [2 x f32]]> %arr, i32 2, i32 1
  store f32 0.0, ptr<function, f32> %arr.2.1
  %arr.3.0 = access ptr<function, [4 x [2 x f32]]> %arr, i32 3, i32 0
  store f32 0.0, ptr<function, f32> %arr.3.0
  %arr.3.1 = access ptr<function, [4 x [2 x f32]]> %arr, i32 3, i32 1
  store f32 0.0, ptr<function, f32> %arr.3.1
  %src.uv.x = access ptr<storage, [? x %V]> @In, u32 %id.x, i32 0, i32 0
  %loc.uv.x = access ptr<function, %V.flat> %loc, i32 0, i32 0
  %src.uv.x.val = load ptr<storage, f32> %src.uv.x
  store f32 %src.uv.x.val, ptr<function, f32> %loc.uv.x
  %src.uv.y = access ptr<storage, [? x %V]> @In, u32 %id.x, i32 0, i32 1
  %loc.uv.y = access ptr<function, %V.flat> %loc, i32 0, i32 1
  %src.uv.y.val = load ptr<storage, f32> %src.uv.y
  store f32 %src.uv.y.val, ptr<function, f32> %loc.uv.y
  %src.id = access ptr<storage, [? x %V]> @In, u32 %id.x, i32 1
  %loc.id = access ptr<function, %V.flat> %loc, i32 1
  %src.id.val = load ptr<storage, u32> %src.id
  store u32 %src.id.val, ptr<function, u32> %loc.id
  %loc.uv.x_1 = access ptr<function, %V.flat> %loc, i32 0, i32 0
  %loc.uv.y_1 = access ptr<function, %V.flat> %loc, i32 0, i32 1
  %loc.id_1 = access ptr<function, %V.flat> %loc, i32 1
  %lv.uv.x = load ptr<function, f32> %loc.uv.x_1
  %lv.uv.y = load ptr<function, f32> %loc.uv.y_1
  %lv.id = load ptr<function, u32> %loc.id_1
  %slot.x = access ptr<function, [4 x [2 x f32]]> %arr, u32 %id.x, i32 0
  store f32 %lv.uv.x, ptr<function, f32> %slot.x
  %slot.y = access ptr<function, [4 x [2 x f32]]> %arr, u32 %id.x, i32 1
  store f32 %lv.uv.y, ptr<function, f32> %slot.y
  %j = xor u32 %id.x, 1
  %other.x = access ptr<function, [4 x [2 x f32]]> %arr, u32 %j, i32 0
  %other.y = access ptr<function, [4 x [2 x f32]]> %arr, u32 %j, i32 1
  %ov.x = load ptr<function, f32> %other.x
  %ov.y = load ptr<function, f32> %other.y
  %sum.x = fadd f32 %lv.uv.x, %ov.x
  %sum.y = fadd f32 %lv.uv.y, %ov.y
  %dst.uv.x = access ptr<storage, [? x %V]> @Out, u32 %id.x, i32 0, i32 0
  store f32 %sum.x, ptr<storage, f32> %dst.uv.x
  %dst.uv.y = access ptr<storage, [? x %V]> @Out, u32 %id.x, i32 0, i32 1
  store f32 %sum.y, ptr<storage, f32> %dst.uv.y
  %dst.id = access ptr<storage, [? x %V]> @Out, u32 %id.x, i32 1
  store u32 %lv.id, ptr<storage, u32> %dst.id
  ret
}
