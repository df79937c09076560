module "t"

@x = global uniform f32 binding 0, 0 kind "cbuffer"
@Out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %x = load ptr<uniform, f32> @x
  %a = fsub f32 %x, 0.0
  %b = fadd f32 %a, 0x80000000
  %c = fmul f32 %b, 1.0
  %d = fdiv f32 %c, 1.0
  %e = fmul f32 %d, -1.0
  %f = fsub f32 0x80000000, %e
  %p = access ptr<storage, [? x f32]> @Out, i32 0
  store f32 %f, ptr<storage, f32> %p
  ret
}
