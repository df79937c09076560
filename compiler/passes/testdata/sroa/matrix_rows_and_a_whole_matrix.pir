; matrix rows and a whole matrix
; run: sroa
; input: {}

module "t"

@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %f = uitofp u32 %i to f32
  %m = alloca <2 x 2 x f32>
  %r = alloca <2 x 2 x f32>
  store <2 x 2 x f32> zero, ptr<function, <2 x 2 x f32>> %m
  %row1 = access ptr<function, <2 x 2 x f32>> %m, i32 1
  %e10 = access ptr<function, <2 x f32>> %row1, u32 %i
  store f32 %f, ptr<function, f32> %e10
  %mv = load ptr<function, <2 x 2 x f32>> %m
  %r0 = access ptr<function, <2 x 2 x f32>> %r, i32 0
  store <2 x f32> <1.0, 2.0>, ptr<function, <2 x f32>> %r0
  %r1 = access ptr<function, <2 x 2 x f32>> %r, i32 1
  store <2 x f32> <3.0, 4.0>, ptr<function, <2 x f32>> %r1
  %r1y = access ptr<function, <2 x f32>> %r1, i32 1
  %ry = load ptr<function, f32> %r1y
  %a = extractvalue <2 x 2 x f32> %mv, 1, 0
  %b = extractvalue <2 x 2 x f32> %mv, 1, 1
  %s = fadd f32 %a, %b
  %s2 = fadd f32 %s, %ry
  %p = access ptr<storage, [? x f32]> @Out, u32 %i
  store f32 %s2, ptr<storage, f32> %p
  ret
}
