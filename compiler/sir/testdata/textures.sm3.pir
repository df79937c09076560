module "textures.hlsl"

@t2 = global storage <4 x f32> binding 0, 0 readonly kind "Texture2D"
@tc = global storage <4 x f32> binding 0, 1 readonly kind "TextureCube"
@tv = global storage <4 x f32> binding 0, 2 readonly kind "Texture3D"
@s = global storage u32 binding 0, 1 readonly kind "SamplerState"
@p = global storage u32 binding 0, 0 readonly kind "SamplerState"
@uv = global input <2 x f32> semantic "TEXCOORD0"
@dir = global input <3 x f32> semantic "TEXCOORD1"
@g = global input <4 x f32> semantic "TEXCOORD2"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %uv.x = access ptr<input, <2 x f32>> @uv, i32 0
  %uv.y = access ptr<input, <2 x f32>> @uv, i32 1
  %uv.1.x = load ptr<input, f32> %uv.x
  %uv.1.y = load ptr<input, f32> %uv.y
  %dir.x = access ptr<input, <3 x f32>> @dir, i32 0
  %dir.y = access ptr<input, <3 x f32>> @dir, i32 1
  %dir.z = access ptr<input, <3 x f32>> @dir, i32 2
  %dir.1.x = load ptr<input, f32> %dir.x
  %dir.1.y = load ptr<input, f32> %dir.y
  %dir.1.z = load ptr<input, f32> %dir.z
  %g.x_1 = access ptr<input, <4 x f32>> @g, i32 0
  %g.y = access ptr<input, <4 x f32>> @g, i32 1
  %g.z = access ptr<input, <4 x f32>> @g, i32 2
  %g.w_1 = access ptr<input, <4 x f32>> @g, i32 3
  %g.1.x = load ptr<input, f32> %g.x_1
  %g.1.y = load ptr<input, f32> %g.y
  %g.1.z = load ptr<input, f32> %g.z
  %g.1.w = load ptr<input, f32> %g.w_1
  %uv.1 = construct <2 x f32> (f32 %uv.1.x, f32 %uv.1.y)
  %t2.sample = intr <4 x f32> tex.sample(ptr<storage, <4 x f32>> @t2, ptr<storage, u32> @s, <2 x f32> %uv.1, <2 x f32> <0.0, 0.0>)
  %t2.sample.1 = intr <4 x f32> tex.sample_level(ptr<storage, <4 x f32>> @t2, ptr<storage, u32> @p, <2 x f32> %uv.1, f32 %g.1.x, <2 x f32> <0.0, 0.0>)
  %g.xy = construct <2 x f32> (f32 %g.1.x, f32 %g.1.y)
  %g.zw = construct <2 x f32> (f32 %g.1.z, f32 %g.1.w)
  %t2.sample.2 = intr <4 x f32> tex.sample_grad(ptr<storage, <4 x f32>> @t2, ptr<storage, u32> @s, <2 x f32> %uv.1, <2 x f32> %g.xy, <2 x f32> %g.zw, <2 x f32> <0.0, 0.0>)
  %t2.sample.3 = intr <4 x f32> tex.sample_bias(ptr<storage, <4 x f32>> @t2, ptr<storage, u32> @s, <2 x f32> %uv.1, f32 %g.1.w, <2 x f32> <0.0, 0.0>)
  %dir.1 = construct <3 x f32> (f32 %dir.1.x, f32 %dir.1.y, f32 %dir.1.z)
  %tc.sample = intr <4 x f32> tex.sample(ptr<storage, <4 x f32>> @tc, ptr<storage, u32> @s, <3 x f32> %dir.1, f32 0.0)
  %tv.sample = intr <4 x f32> tex.sample_level(ptr<storage, <4 x f32>> @tv, ptr<storage, u32> @p, <3 x f32> %dir.1, f32 2.0, <3 x f32> <0.0, 0.0, 0.0>)
  %tv.sample.y = extractvalue <4 x f32> %tv.sample, 1
  %t2.sample.x = extractvalue <4 x f32> %t2.sample, 0
  %t2.sample.y = extractvalue <4 x f32> %t2.sample, 1
  %t2.sample.z = extractvalue <4 x f32> %t2.sample, 2
  %t2.sample.w = extractvalue <4 x f32> %t2.sample, 3
  %t2.sample.1.x = extractvalue <4 x f32> %t2.sample.1, 0
  %t2.sample.1.y = extractvalue <4 x f32> %t2.sample.1, 1
  %t2.sample.1.z = extractvalue <4 x f32> %t2.sample.1, 2
  %t2.sample.1.w = extractvalue <4 x f32> %t2.sample.1, 3
  %add.x = fadd f32 %t2.sample.x, %t2.sample.1.x
  %add.y = fadd f32 %t2.sample.y, %t2.sample.1.y
  %add.z = fadd f32 %t2.sample.z, %t2.sample.1.z
  %add.w = fadd f32 %t2.sample.w, %t2.sample.1.w
  %t2.sample.2.x = extractvalue <4 x f32> %t2.sample.2, 0
  %t2.sample.2.y = extractvalue <4 x f32> %t2.sample.2, 1
  %t2.sample.2.z = extractvalue <4 x f32> %t2.sample.2, 2
  %t2.sample.2.w = extractvalue <4 x f32> %t2.sample.2, 3
  %add.1.x = fadd f32 %add.x, %t2.sample.2.x
  %add.1.y = fadd f32 %add.y, %t2.sample.2.y
  %add.1.z = fadd f32 %add.z, %t2.sample.2.z
  %add.1.w = fadd f32 %add.w, %t2.sample.2.w
  %t2.sample.3.x = extractvalue <4 x f32> %t2.sample.3, 0
  %t2.sample.3.y = extractvalue <4 x f32> %t2.sample.3, 1
  %t2.sample.3.z = extractvalue <4 x f32> %t2.sample.3, 2
  %t2.sample.3.w = extractvalue <4 x f32> %t2.sample.3, 3
  %add.2.x = fadd f32 %add.1.x, %t2.sample.3.x
  %add.2.y = fadd f32 %add.1.y, %t2.sample.3.y
  %add.2.z = fadd f32 %add.1.z, %t2.sample.3.z
  %add.2.w = fadd f32 %add.1.w, %t2.sample.3.w
  %tc.sample.x = extractvalue <4 x f32> %tc.sample, 0
  %tc.sample.y = extractvalue <4 x f32> %tc.sample, 1
  %tc.sample.z = extractvalue <4 x f32> %tc.sample, 2
  %tc.sample.w = extractvalue <4 x f32> %tc.sample, 3
  %add.3.x = fadd f32 %add.2.x, %tc.sample.x
  %add.3.y = fadd f32 %add.2.y, %tc.sample.y
  %add.3.z = fadd f32 %add.2.z, %tc.sample.z
  %add.3.w = fadd f32 %add.2.w, %tc.sample.w
  %add.4.x = fadd f32 %add.3.x, %tv.sample.y
  %add.4.y = fadd f32 %add.3.y, %tv.sample.y
  %add.4.z = fadd f32 %add.3.z, %tv.sample.y
  %add.4.w = fadd f32 %add.3.w, %tv.sample.y
  %out.SV_Target0.x = access ptr<output, <4 x f32>> @out.SV_Target0, i32 0
  store f32 %add.4.x, ptr<output, f32> %out.SV_Target0.x
  %out.SV_Target0.y = access ptr<output, <4 x f32>> @out.SV_Target0, i32 1
  store f32 %add.4.y, ptr<output, f32> %out.SV_Target0.y
  %out.SV_Target0.z = access ptr<output, <4 x f32>> @out.SV_Target0, i32 2
  store f32 %add.4.z, ptr<output, f32> %out.SV_Target0.z
  %out.SV_Target0.w = access ptr<output, <4 x f32>> @out.SV_Target0, i32 3
  store f32 %add.4.w, ptr<output, f32> %out.SV_Target0.w
  ret
}
