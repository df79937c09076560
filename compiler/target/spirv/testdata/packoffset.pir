module "packoffset.pir"

; A cbuffer laid out with HLSL packoffset: members out of order, a
; float2 at c0.y (legal under relaxed block layout), a struct and a
; column of a matrix member. The offsets are kept as written.
type %apple = { <2 x f32> a, f32 b, <4 x f32> c }
type %CB = { <4 x f32> foo offset 48, %apple bar offset 16, <2 x f32> c offset 4, <2 x 2 x f32> m offset 64, f32 after offset 96 }

@cb = global uniform %CB binding 0, 0 kind "cbuffer"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %foo.p = access ptr<uniform, %CB> @cb, i32 0
  %foo = load ptr<uniform, <4 x f32>> %foo.p
  %cb = load ptr<uniform, %CB> @cb
  %bar = extractvalue %CB %cb, 1
  %bar.c = extractvalue %apple %bar, 2
  %c = extractvalue %CB %cb, 2
  %c4 = shuffle <2 x f32> %c, <2 x f32> %c, [0, 1, 0, 1]
  %m = extractvalue %CB %cb, 3
  %row = extractvalue <2 x 2 x f32> %m, 1
  %row4 = shuffle <2 x f32> %row, <2 x f32> %row, [0, 1, 1, 0]
  %after.p = access ptr<uniform, %CB> @cb, i32 4
  %after = load ptr<uniform, f32> %after.p
  %after4 = insertelement <4 x f32> zero, f32 %after, u32 0
  %s1 = fadd <4 x f32> %foo, %bar.c
  %s2 = fadd <4 x f32> %s1, %c4
  %s3 = fadd <4 x f32> %s2, %row4
  %s4 = fadd <4 x f32> %s3, %after4
  store <4 x f32> %s4, ptr<output, <4 x f32>> @out.SV_Target0
  ret
}
