; The rows of a one-column matrix are scalars: its flattened memory is
; [2 x f32] (TestScalarizeOneColumnMatrix).
; run: scalarize,simplify
; input: {}

module "t"

@f = global private <2 x 1 x f32> = <1.5, -2.0>
@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %m = load ptr<private, <2 x 1 x f32>> @f
  %r0 = extractvalue <2 x 1 x f32> %m, 0
  %r1 = extractvalue <2 x 1 x f32> %m, 1
  %p = access ptr<private, <2 x 1 x f32>> @f, i32 1
  store f32 4.0, ptr<private, f32> %p
  %m2 = load ptr<private, <2 x 1 x f32>> @f
  %q1 = extractvalue <2 x 1 x f32> %m2, 1
  %s = fadd f32 %r0, %r1
  %s2 = fadd f32 %s, %q1
  %o = access ptr<storage, [? x f32]> @Out, i32 0
  store f32 %s2, ptr<storage, f32> %o
  ret
}
