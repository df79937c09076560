; Seed dxil-scalarization.md, "Example 3 add and mul": fadd and fmul on
; float4 become four scalar fadd and four scalar fmul.
module "add-mul.pir"

@x = global uniform <4 x f32> kind "cbuffer"
@y = global uniform <4 x f32> kind "cbuffer"
@out = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %x = load ptr<uniform, <4 x f32>> @x
  %y = load ptr<uniform, <4 x f32>> @y
  %add = fadd <4 x f32> %x, %y
  %mul = fmul <4 x f32> %x, %y
  %r = fadd <4 x f32> %add, %mul
  store <4 x f32> %r, ptr<output, <4 x f32>> @out
  ret
}
