module "t"

@x = global uniform f32 binding 0, 0 kind "cbuffer"
@Out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %x = load ptr<uniform, f32> @x
  %a = fadd f32 %x, 0.0
  %b = fmul f32 %a, 0.0
  %c = fsub f32 %b, %b
  %d = fdiv f32 %c, %c
  %e = fsub f32 0.0, %d
  %f = fsub f32 %e, 0x80000000
  %p = access ptr<storage, [? x f32]> @Out, i32 0
  store f32 %f, ptr<storage, f32> %p
  ret
}
