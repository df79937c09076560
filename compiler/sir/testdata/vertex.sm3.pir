module "vertex.hlsl"

type %Transform = { <4 x 4 x f32> worldViewProj }
type %VSInput = { <3 x f32> position, <4 x f32> color, <2 x f32> uv }
type %VSOutput = { <4 x f32> position, <4 x f32> color, <2 x f32> uv }

@Transform = global uniform %Transform binding 0, 0 kind "cbuffer"
@input.position = global input <3 x f32> semantic "POSITION"
@input.color = global input <4 x f32> semantic "COLOR0"
@input.uv = global input <2 x f32> semantic "TEXCOORD0"
@out.position = global output <4 x f32> semantic "SV_Position"
@out.color = global output <4 x f32> semantic "COLOR0"
@out.uv = global output <2 x f32> semantic "TEXCOORD0"

define void @main() vertex {
entry:
  %input.position.x = access ptr<input, <3 x f32>> @input.position, i32 0
  %input.position.y = access ptr<input, <3 x f32>> @input.position, i32 1
  %input.position.z = access ptr<input, <3 x f32>> @input.position, i32 2
  %input.position.x_1 = load ptr<input, f32> %input.position.x
  %input.position.y_1 = load ptr<input, f32> %input.position.y
  %input.position.z_1 = load ptr<input, f32> %input.position.z
  %input.color.x = access ptr<input, <4 x f32>> @input.color, i32 0
  %input.color.y = access ptr<input, <4 x f32>> @input.color, i32 1
  %input.color.z = access ptr<input, <4 x f32>> @input.color, i32 2
  %input.color.w = access ptr<input, <4 x f32>> @input.color, i32 3
  %input.color.x_1 = load ptr<input, f32> %input.color.x
  %input.color.y_1 = load ptr<input, f32> %input.color.y
  %input.color.z_1 = load ptr<input, f32> %input.color.z
  %input.color.w_1 = load ptr<input, f32> %input.color.w
  %input.uv.x = access ptr<input, <2 x f32>> @input.uv, i32 0
  %input.uv.y = access ptr<input, <2 x f32>> @input.uv, i32 1
  %input.uv.x_1 = load ptr<input, f32> %input.uv.x
  %input.uv.y_1 = load ptr<input, f32> %input.uv.y
  %worldViewProj.0.x = access ptr<uniform, %Transform> @Transform, i32 0, i32 0, i32 0
  %worldViewProj.0.y = access ptr<uniform, %Transform> @Transform, i32 0, i32 0, i32 1
  %worldViewProj.0.z = access ptr<uniform, %Transform> @Transform, i32 0, i32 0, i32 2
  %worldViewProj.0.w = access ptr<uniform, %Transform> @Transform, i32 0, i32 0, i32 3
  %worldViewProj.1.x = access ptr<uniform, %Transform> @Transform, i32 0, i32 1, i32 0
  %worldViewProj.1.y = access ptr<uniform, %Transform> @Transform, i32 0, i32 1, i32 1
  %worldViewProj.1.z = access ptr<uniform, %Transform> @Transform, i32 0, i32 1, i32 2
  %worldViewProj.1.w = access ptr<uniform, %Transform> @Transform, i32 0, i32 1, i32 3
  %worldViewProj.2.x = access ptr<uniform, %Transform> @Transform, i32 0, i32 2, i32 0
  %worldViewProj.2.y = access ptr<uniform, %Transform> @Transform, i32 0, i32 2, i32 1
  %worldViewProj.2.z = access ptr<uniform, %Transform> @Transform, i32 0, i32 2, i32 2
  %worldViewProj.2.w = access ptr<uniform, %Transform> @Transform, i32 0, i32 2, i32 3
  %worldViewProj.3.x = access ptr<uniform, %Transform> @Transform, i32 0, i32 3, i32 0
  %worldViewProj.3.y = access ptr<uniform, %Transform> @Transform, i32 0, i32 3, i32 1
  %worldViewProj.3.z = access ptr<uniform, %Transform> @Transform, i32 0, i32 3, i32 2
  %worldViewProj.3.w = access ptr<uniform, %Transform> @Transform, i32 0, i32 3, i32 3
  %worldViewProj.1.0.x = load ptr<uniform, f32> %worldViewProj.0.x
  %worldViewProj.1.0.y = load ptr<uniform, f32> %worldViewProj.0.y
  %worldViewProj.1.0.z = load ptr<uniform, f32> %worldViewProj.0.z
  %worldViewProj.1.0.w = load ptr<uniform, f32> %worldViewProj.0.w
  %worldViewProj.1.1.x = load ptr<uniform, f32> %worldViewProj.1.x
  %worldViewProj.1.1.y = load ptr<uniform, f32> %worldViewProj.1.y
  %worldViewProj.1.1.z = load ptr<uniform, f32> %worldViewProj.1.z
  %worldViewProj.1.1.w = load ptr<uniform, f32> %worldViewProj.1.w
  %worldViewProj.1.2.x = load ptr<uniform, f32> %worldViewProj.2.x
  %worldViewProj.1.2.y = load ptr<uniform, f32> %worldViewProj.2.y
  %worldViewProj.1.2.z = load ptr<uniform, f32> %worldViewProj.2.z
  %worldViewProj.1.2.w = load ptr<uniform, f32> %worldViewProj.2.w
  %worldViewProj.1.3.x = load ptr<uniform, f32> %worldViewProj.3.x
  %worldViewProj.1.3.y = load ptr<uniform, f32> %worldViewProj.3.y
  %worldViewProj.1.3.z = load ptr<uniform, f32> %worldViewProj.3.z
  %worldViewProj.1.3.w = load ptr<uniform, f32> %worldViewProj.3.w
  %mul.1_1 = fmul f32 %input.position.x_1, %worldViewProj.1.0.x
  %mul.2 = fmul f32 %input.position.y_1, %worldViewProj.1.1.x
  %mul.3 = fadd f32 %mul.1_1, %mul.2
  %mul.4 = fmul f32 %input.position.z_1, %worldViewProj.1.2.x
  %mul.5 = fadd f32 %mul.3, %mul.4
  %mul.7 = fadd f32 %mul.5, %worldViewProj.1.3.x
  %mul.8 = fmul f32 %input.position.x_1, %worldViewProj.1.0.y
  %mul.9 = fmul f32 %input.position.y_1, %worldViewProj.1.1.y
  %mul.10 = fadd f32 %mul.8, %mul.9
  %mul.11 = fmul f32 %input.position.z_1, %worldViewProj.1.2.y
  %mul.12 = fadd f32 %mul.10, %mul.11
  %mul.14 = fadd f32 %mul.12, %worldViewProj.1.3.y
  %mul.15 = fmul f32 %input.position.x_1, %worldViewProj.1.0.z
  %mul.16 = fmul f32 %input.position.y_1, %worldViewProj.1.1.z
  %mul.17 = fadd f32 %mul.15, %mul.16
  %mul.18 = fmul f32 %input.position.z_1, %worldViewProj.1.2.z
  %mul.19 = fadd f32 %mul.17, %mul.18
  %mul.21 = fadd f32 %mul.19, %worldViewProj.1.3.z
  %mul.22 = fmul f32 %input.position.x_1, %worldViewProj.1.0.w
  %mul.23 = fmul f32 %input.position.y_1, %worldViewProj.1.1.w
  %mul.24 = fadd f32 %mul.22, %mul.23
  %mul.25 = fmul f32 %input.position.z_1, %worldViewProj.1.2.w
  %mul.26 = fadd f32 %mul.24, %mul.25
  %mul.28 = fadd f32 %mul.26, %worldViewProj.1.3.w
  %mul.1.x = fmul f32 %input.uv.x_1, 2.0
  %mul.1.y = fmul f32 %input.uv.y_1, 2.0
  %sub.x = fsub f32 %mul.1.x, 1.0
  %sub.y = fsub f32 %mul.1.y, 1.0
  %out.position.x = access ptr<output, <4 x f32>> @out.position, i32 0
  store f32 %mul.7, ptr<output, f32> %out.position.x
  %out.position.y = access ptr<output, <4 x f32>> @out.position, i32 1
  store f32 %mul.14, ptr<output, f32> %out.position.y
  %out.position.z = access ptr<output, <4 x f32>> @out.position, i32 2
  store f32 %mul.21, ptr<output, f32> %out.position.z
  %out.position.w = access ptr<output, <4 x f32>> @out.position, i32 3
  store f32 %mul.28, ptr<output, f32> %out.position.w
  %out.color.x = access ptr<output, <4 x f32>> @out.color, i32 0
  store f32 %input.color.x_1, ptr<output, f32> %out.color.x
  %out.color.y = access ptr<output, <4 x f32>> @out.color, i32 1
  store f32 %input.color.y_1, ptr<output, f32> %out.color.y
  %out.color.z = access ptr<output, <4 x f32>> @out.color, i32 2
  store f32 %input.color.z_1, ptr<output, f32> %out.color.z
  %out.color.w = access ptr<output, <4 x f32>> @out.color, i32 3
  store f32 %input.color.w_1, ptr<output, f32> %out.color.w
  %out.uv.x = access ptr<output, <2 x f32>> @out.uv, i32 0
  store f32 %sub.x, ptr<output, f32> %out.uv.x
  %out.uv.y = access ptr<output, <2 x f32>> @out.uv, i32 1
  store f32 %sub.y, ptr<output, f32> %out.uv.y
  ret
}
