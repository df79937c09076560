module "t"

@f = global private [2 x f32] = [1.5, -2.0]
@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %f.0 = access ptr<private, [2 x f32]> @f, i32 0
  %f.1 = access ptr<private, [2 x f32]> @f, i32 1
  %m.0 = load ptr<private, f32> %f.0
  %m.1 = load ptr<private, f32> %f.1
  store f32 4.0, ptr<private, f32> %f.1
  %m2.1 = load ptr<private, f32> %f.1
  %s = fadd f32 %m.0, %m.1
  %s2 = fadd f32 %s, %m2.1
  %o = access ptr<storage, [? x f32]> @Out, i32 0
  store f32 %s2, ptr<storage, f32> %o
  ret
}
