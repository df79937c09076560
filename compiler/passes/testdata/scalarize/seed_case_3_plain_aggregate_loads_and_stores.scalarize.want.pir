module "t"

type %P = { u32 a, i32 b, [2 x u32] c }

@In = global storage [? x %P] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x %P] binding 0, 1 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %src.a = access ptr<storage, [? x %P]> @In, i32 1, i32 0
  %src.b = access ptr<storage, [? x %P]> @In, i32 1, i32 1
  %src.c.0 = access ptr<storage, [? x %P]> @In, i32 1, i32 2, i32 0
  %src.c.1 = access ptr<storage, [? x %P]> @In, i32 1, i32 2, i32 1
  %v.a = load ptr<storage, u32> %src.a
  %v.b = load ptr<storage, i32> %src.b
  %v.c.0 = load ptr<storage, u32> %src.c.0
  %v.c.1 = load ptr<storage, u32> %src.c.1
  %dst.a = access ptr<storage, [? x %P]> @Out, i32 0, i32 0
  store u32 %v.a, ptr<storage, u32> %dst.a
  %dst.b = access ptr<storage, [? x %P]> @Out, i32 0, i32 1
  store i32 %v.b, ptr<storage, i32> %dst.b
  %dst.c.0 = access ptr<storage, [? x %P]> @Out, i32 0, i32 2, i32 0
  store u32 9, ptr<storage, u32> %dst.c.0
  %dst.c.1 = access ptr<storage, [? x %P]> @Out, i32 0, i32 2, i32 1
  store u32 10, ptr<storage, u32> %dst.c.1
  %dc.0 = access ptr<storage, [? x %P]> @Out, i32 1, i32 2, i32 0
  store u32 %v.c.0, ptr<storage, u32> %dc.0
  %dc.1 = access ptr<storage, [? x %P]> @Out, i32 1, i32 2, i32 1
  store u32 %v.c.1, ptr<storage, u32> %dc.1
  ret
}
