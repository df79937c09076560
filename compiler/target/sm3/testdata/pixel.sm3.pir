module "pixel.hlsl"

type %Colors = { <4 x f32> tint, f32 scale }
type %PSInput = { <4 x f32> pos, <2 x f32> uv }

@Colors = global uniform %Colors binding 0, 0 kind "cbuffer"
@input.pos = global input <4 x f32> semantic "SV_Position"
@input.uv = global input <2 x f32> semantic "TEXCOORD0"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %input.pos.x = access ptr<input, <4 x f32>> @input.pos, i32 0
  %input.pos.y = access ptr<input, <4 x f32>> @input.pos, i32 1
  %input.pos.x_1 = load ptr<input, f32> %input.pos.x
  %input.pos.y_1 = load ptr<input, f32> %input.pos.y
  %input.uv.x_1 = access ptr<input, <2 x f32>> @input.uv, i32 0
  %input.uv.y_1 = access ptr<input, <2 x f32>> @input.uv, i32 1
  %input.uv.x_2 = load ptr<input, f32> %input.uv.x_1
  %input.uv.y_2 = load ptr<input, f32> %input.uv.y_1
  %scale = access ptr<uniform, %Colors> @Colors, i32 1
  %scale.1 = load ptr<uniform, f32> %scale
  %div.x = fdiv f32 %input.pos.x_1, %scale.1
  %div.y = fdiv f32 %input.pos.y_1, %scale.1
  %floor.x = intr f32 floor(f32 %div.x)
  %floor.y = intr f32 floor(f32 %div.y)
  %add = fadd f32 %floor.x, %floor.y
  %fmod = intr f32 fmod(f32 %add, f32 2.0)
  %cmp = fcmp olt f32 %input.uv.x_2, 0.0
  selection_merge %if.end
  condbr bool %cmp, %if.then, %if.end
if.then:
  discard
if.end:
  %tint.x = access ptr<uniform, %Colors> @Colors, i32 0, i32 0
  %tint.y = access ptr<uniform, %Colors> @Colors, i32 0, i32 1
  %tint.z = access ptr<uniform, %Colors> @Colors, i32 0, i32 2
  %tint.1.x = load ptr<uniform, f32> %tint.x
  %tint.1.y = load ptr<uniform, f32> %tint.y
  %tint.1.z = load ptr<uniform, f32> %tint.z
  %lerp.x = intr f32 lerp(f32 0.1, f32 %tint.1.x, f32 %fmod)
  %lerp.y = intr f32 lerp(f32 0.1, f32 %tint.1.y, f32 %fmod)
  %lerp.z = intr f32 lerp(f32 0.1, f32 %tint.1.z, f32 %fmod)
  %add.1 = fadd f32 %input.uv.y_2, 0.5
  %saturate = intr f32 saturate(f32 %add.1)
  %mul.x = fmul f32 %lerp.x, %saturate
  %mul.y = fmul f32 %lerp.y, %saturate
  %mul.z = fmul f32 %lerp.z, %saturate
  %out.SV_Target0.x = access ptr<output, <4 x f32>> @out.SV_Target0, i32 0
  store f32 %mul.x, ptr<output, f32> %out.SV_Target0.x
  %out.SV_Target0.y = access ptr<output, <4 x f32>> @out.SV_Target0, i32 1
  store f32 %mul.y, ptr<output, f32> %out.SV_Target0.y
  %out.SV_Target0.z = access ptr<output, <4 x f32>> @out.SV_Target0, i32 2
  store f32 %mul.z, ptr<output, f32> %out.SV_Target0.z
  %out.SV_Target0.w = access ptr<output, <4 x f32>> @out.SV_Target0, i32 3
  store f32 1.0, ptr<output, f32> %out.SV_Target0.w
  ret
}
