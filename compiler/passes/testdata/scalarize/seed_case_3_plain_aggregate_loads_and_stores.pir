; seed case 3: plain aggregate loads and stores
; run: scalarize
; input: {"buffers":[{"name":"In","data":[[1,2,[3,4]],[5,6,[7,8]]]}]}

module "t"

type %P = { u32 a, i32 b, [2 x u32] c }

@In = global storage [? x %P] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x %P] binding 0, 1 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %src = access ptr<storage, [? x %P]> @In, i32 1
  %v = load ptr<storage, %P> %src
  %c = extractvalue %P %v, 2
  %w = insertvalue %P %v, [2 x u32] [9, 10], 2
  %dst = access ptr<storage, [? x %P]> @Out, i32 0
  store %P %w, ptr<storage, %P> %dst
  %dc = access ptr<storage, [? x %P]> @Out, i32 1, i32 2
  store [2 x u32] %c, ptr<storage, [2 x u32]> %dc
  ret
}
