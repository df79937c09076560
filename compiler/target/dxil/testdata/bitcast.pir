; Seed dxil-scalarization.md, "BitCast": asfloat(int4) is a per-element
; bitcast i32 -> float; the int -> float value conversion is a per-element
; sitofp, never a bitcast.
module "bitcast.pir"

@f = global uniform <4 x f32> kind "cbuffer"
@i = global uniform <4 x i32> kind "cbuffer"
@out = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %f = load ptr<uniform, <4 x f32>> @f
  %i = load ptr<uniform, <4 x i32>> @i
  %b = bitcast <4 x i32> %i to <4 x f32>
  %v = sitofp <4 x i32> %i to <4 x f32>
  %add = fadd <4 x f32> %f, %b
  %mul = fmul <4 x f32> %add, %v
  store <4 x f32> %mul, ptr<output, <4 x f32>> @out
  ret
}
