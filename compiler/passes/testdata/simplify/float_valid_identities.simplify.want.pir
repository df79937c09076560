module "t"

@x = global uniform f32 binding 0, 0 kind "cbuffer"
@Out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %x = load ptr<uniform, f32> @x
  %p = access ptr<storage, [? x f32]> @Out, i32 0
  store f32 %x, ptr<storage, f32> %p
  ret
}
