module "vs.hlsl"

type %$Globals = { <4 x f32> scale }
type %VSOut = { <4 x f32> pos, <2 x f32> uv }

@$Globals = global uniform %$Globals kind "cbuffer"
@p = global input <4 x f32> semantic "POSITION"
@uv = global input <2 x f32> semantic "TEXCOORD0"
@out.pos = global output <4 x f32> semantic "SV_Position"
@out.uv = global output <2 x f32> semantic "TEXCOORD0"

define void @main() vertex {
entry:
  %p.x = access ptr<input, <4 x f32>> @p, i32 0
  %p.y = access ptr<input, <4 x f32>> @p, i32 1
  %p.z = access ptr<input, <4 x f32>> @p, i32 2
  %p.w = access ptr<input, <4 x f32>> @p, i32 3
  %p.1.x = load ptr<input, f32> %p.x
  %p.1.y = load ptr<input, f32> %p.y
  %p.1.z = load ptr<input, f32> %p.z
  %p.1.w = load ptr<input, f32> %p.w
  %uv.x = access ptr<input, <2 x f32>> @uv, i32 0
  %uv.y = access ptr<input, <2 x f32>> @uv, i32 1
  %uv.1.x = load ptr<input, f32> %uv.x
  %uv.1.y = load ptr<input, f32> %uv.y
  %scale.x = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 0
  %scale.y = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 1
  %scale.z = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 2
  %scale.w = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 3
  %scale.1.x = load ptr<uniform, f32> %scale.x
  %scale.1.y = load ptr<uniform, f32> %scale.y
  %scale.1.z = load ptr<uniform, f32> %scale.z
  %scale.1.w = load ptr<uniform, f32> %scale.w
  %mul.x = fmul f32 %p.1.x, %scale.1.x
  %mul.y = fmul f32 %p.1.y, %scale.1.y
  %mul.z = fmul f32 %p.1.z, %scale.1.z
  %mul.w = fmul f32 %p.1.w, %scale.1.w
  %out.pos.x = access ptr<output, <4 x f32>> @out.pos, i32 0
  store f32 %mul.x, ptr<output, f32> %out.pos.x
  %out.pos.y = access ptr<output, <4 x f32>> @out.pos, i32 1
  store f32 %mul.y, ptr<output, f32> %out.pos.y
  %out.pos.z = access ptr<output, <4 x f32>> @out.pos, i32 2
  store f32 %mul.z, ptr<output, f32> %out.pos.z
  %out.pos.w = access ptr<output, <4 x f32>> @out.pos, i32 3
  store f32 %mul.w, ptr<output, f32> %out.pos.w
  %out.uv.x = access ptr<output, <2 x f32>> @out.uv, i32 0
  store f32 %uv.1.x, ptr<output, f32> %out.uv.x
  %out.uv.y = access ptr<output, <2 x f32>> @out.uv, i32 1
  store f32 %uv.1.y, ptr<output, f32> %out.uv.y
  ret
}
