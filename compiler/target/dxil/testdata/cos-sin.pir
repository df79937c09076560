; Seed dxil-scalarization.md, "DXIL OP CallInst example": cos(sin(a)) on a
; float4 becomes four dx.op Sin calls then four dx.op Cos calls.
module "cos-sin.pir"

@a = global uniform <4 x f32> kind "cbuffer"
@out = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %a = load ptr<uniform, <4 x f32>> @a
  %s = intr <4 x f32> sin(<4 x f32> %a)
  %c = intr <4 x f32> cos(<4 x f32> %s)
  store <4 x f32> %c, ptr<output, <4 x f32>> @out
  ret
}
