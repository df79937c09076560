; The pixel-shader twin of textures.pir: implicit-LOD sampling (OpImageSampleImplicitLod, Bias, DrefImplicitLod).
module "all.hlsl"

@t = global storage <4 x f32> binding 0, 0 readonly kind "Texture2D"
@ta = global storage <4 x f32> binding 0, 1 readonly kind "Texture2DArray"
@t1 = global storage f32 binding 0, 2 readonly kind "Texture1D"
@t3 = global storage <2 x f32> binding 0, 3 readonly kind "Texture3D"
@tc = global storage <4 x f32> binding 0, 4 readonly kind "TextureCube"
@tca = global storage <4 x f32> binding 0, 5 readonly kind "TextureCubeArray"
@tu = global storage <4 x u32> binding 0, 6 readonly kind "Texture2D"
@depth = global storage f32 binding 0, 7 readonly kind "Texture2D"
@s = global storage u32 binding 0, 0 readonly kind "SamplerState"
@sc = global storage u32 binding 0, 1 readonly kind "SamplerComparisonState"
@o = global storage [? x <4 x f32>] binding 0, 0 kind "RWStructuredBuffer"
@pos = global input <4 x f32> semantic "SV_Position"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define <4 x f32> @all(u32 %i, <2 x f32> %uv) {
entry:
  %i.addr = alloca u32
  %uv.addr = alloca <2 x f32>
  %w = alloca u32
  %h = alloca u32
  %l = alloca u32
  %e = alloca u32
  %r = alloca <4 x f32>
  store u32 %i, ptr<function, u32> %i.addr
  store <2 x f32> %uv, ptr<function, <2 x f32>> %uv.addr
  %t.dims = intr <3 x u32> tex.dims(ptr<storage, <4 x f32>> @t, u32 0)
  %t.dim = extractvalue <3 x u32> %t.dims, 0
  store u32 %t.dim, ptr<function, u32> %w
  %t.dim.1 = extractvalue <3 x u32> %t.dims, 1
  store u32 %t.dim.1, ptr<function, u32> %h
  %t.dim.2 = extractvalue <3 x u32> %t.dims, 2
  store u32 %t.dim.2, ptr<function, u32> %l
  %uv.1 = load ptr<function, <2 x f32>> %uv.addr
  %t.sample = intr <4 x f32> tex.sample(ptr<storage, <4 x f32>> @t, ptr<storage, u32> @s, <2 x f32> %uv.1, <2 x i32> <0, 0>)
  %uv.2 = load ptr<function, <2 x f32>> %uv.addr
  %t.sample.1 = intr <4 x f32> tex.sample_level(ptr<storage, <4 x f32>> @t, ptr<storage, u32> @s, <2 x f32> %uv.2, f32 1.5, <2 x i32> <1, -1>)
  %add = fadd <4 x f32> %t.sample, %t.sample.1
  %uv.3 = load ptr<function, <2 x f32>> %uv.addr
  %t.sample.2 = intr <4 x f32> tex.sample_grad(ptr<storage, <4 x f32>> @t, ptr<storage, u32> @s, <2 x f32> %uv.3, <2 x f32> <0.1, 0.0>, <2 x f32> <0.0, 0.1>, <2 x i32> <0, 0>)
  %add.1 = fadd <4 x f32> %add, %t.sample.2
  store <4 x f32> %add.1, ptr<function, <4 x f32>> %r
  %uv.4 = load ptr<function, <2 x f32>> %uv.addr
  %t.sample.3 = intr <4 x f32> tex.sample_bias(ptr<storage, <4 x f32>> @t, ptr<storage, u32> @s, <2 x f32> %uv.4, f32 0.5, <2 x i32> <0, 0>)
  %i.1 = load ptr<function, u32> %i.addr
  %conv = bitcast u32 %i.1 to i32
  %vec = construct <3 x i32> (i32 %conv, i32 0, i32 0)
  %t.coord = shuffle <3 x i32> %vec, <3 x i32> %vec, [0, 1]
  %t.mip = extractvalue <3 x i32> %vec, 2
  %t.load = intr <4 x f32> tex.load(ptr<storage, <4 x f32>> @t, <2 x i32> %t.coord, i32 %t.mip, <2 x i32> <0, 0>)
  %add.2 = fadd <4 x f32> %t.sample.3, %t.load
  %i.2 = load ptr<function, u32> %i.addr
  %conv.1 = bitcast u32 %i.2 to i32
  %vec.1 = construct <3 x i32> (i32 %conv.1, i32 0, i32 1)
  %i.3 = load ptr<function, u32> %i.addr
  %conv.2 = bitcast u32 %i.3 to i32
  %vec.2 = construct <2 x i32> (i32 %conv.2, i32 1)
  %t.coord.1 = shuffle <3 x i32> %vec.1, <3 x i32> %vec.1, [0, 1]
  %t.mip.1 = extractvalue <3 x i32> %vec.1, 2
  %t.load.1 = intr <4 x f32> tex.load(ptr<storage, <4 x f32>> @t, <2 x i32> %t.coord.1, i32 %t.mip.1, <2 x i32> %vec.2)
  %add.3 = fadd <4 x f32> %add.2, %t.load.1
  %i.4 = load ptr<function, u32> %i.addr
  %vec.3 = construct <2 x u32> (u32 %i.4, u32 1)
  %conv.3 = bitcast <2 x u32> %vec.3 to <2 x i32>
  %t.load.2 = intr <4 x f32> tex.load(ptr<storage, <4 x f32>> @t, <2 x i32> %conv.3, i32 0, <2 x i32> <0, 0>)
  %add.4 = fadd <4 x f32> %add.3, %t.load.2
  %r.1 = load ptr<function, <4 x f32>> %r
  %add.5 = fadd <4 x f32> %r.1, %add.4
  store <4 x f32> %add.5, ptr<function, <4 x f32>> %r
  %uv.5 = load ptr<function, <2 x f32>> %uv.addr
  %elem = extractvalue <2 x f32> %uv.5, 0
  %elem.1 = extractvalue <2 x f32> %uv.5, 1
  %vec.4 = construct <3 x f32> (f32 %elem, f32 %elem.1, f32 1.0)
  %ta.sample = intr <4 x f32> tex.sample_level(ptr<storage, <4 x f32>> @ta, ptr<storage, u32> @s, <3 x f32> %vec.4, f32 0.0, <2 x i32> <0, 0>)
  %uv.6 = load ptr<function, <2 x f32>> %uv.addr
  %uv.x = extractvalue <2 x f32> %uv.6, 0
  %t1.sample = intr f32 tex.sample_level(ptr<storage, f32> @t1, ptr<storage, u32> @s, f32 %uv.x, f32 0.0, i32 0)
  %splat = construct <4 x f32> (f32 %t1.sample, f32 %t1.sample, f32 %t1.sample, f32 %t1.sample)
  %add.6 = fadd <4 x f32> %ta.sample, %splat
  %uv.7 = load ptr<function, <2 x f32>> %uv.addr
  %elem.2 = extractvalue <2 x f32> %uv.7, 0
  %elem.3 = extractvalue <2 x f32> %uv.7, 1
  %vec.5 = construct <3 x f32> (f32 %elem.2, f32 %elem.3, f32 0.5)
  %t3.sample = intr <2 x f32> tex.sample_level(ptr<storage, <2 x f32>> @t3, ptr<storage, u32> @s, <3 x f32> %vec.5, f32 0.0, <3 x i32> <0, 0, 0>)
  %swizzle = shuffle <2 x f32> %t3.sample, <2 x f32> %t3.sample, [0, 1, 0, 1]
  %add.7 = fadd <4 x f32> %add.6, %swizzle
  %r.2 = load ptr<function, <4 x f32>> %r
  %add.8 = fadd <4 x f32> %r.2, %add.7
  store <4 x f32> %add.8, ptr<function, <4 x f32>> %r
  %uv.8 = load ptr<function, <2 x f32>> %uv.addr
  %elem.4 = extractvalue <2 x f32> %uv.8, 0
  %elem.5 = extractvalue <2 x f32> %uv.8, 1
  %vec.6 = construct <3 x f32> (f32 %elem.4, f32 %elem.5, f32 1.0)
  %tc.sample = intr <4 x f32> tex.sample_level(ptr<storage, <4 x f32>> @tc, ptr<storage, u32> @s, <3 x f32> %vec.6, f32 0.0, i32 0)
  %uv.9 = load ptr<function, <2 x f32>> %uv.addr
  %elem.6 = extractvalue <2 x f32> %uv.9, 0
  %elem.7 = extractvalue <2 x f32> %uv.9, 1
  %vec.7 = construct <4 x f32> (f32 %elem.6, f32 %elem.7, f32 1.0, f32 0.0)
  %tca.sample = intr <4 x f32> tex.sample_level(ptr<storage, <4 x f32>> @tca, ptr<storage, u32> @s, <4 x f32> %vec.7, f32 0.0, i32 0)
  %add.9 = fadd <4 x f32> %tc.sample, %tca.sample
  %r.3 = load ptr<function, <4 x f32>> %r
  %add.10 = fadd <4 x f32> %r.3, %add.9
  store <4 x f32> %add.10, ptr<function, <4 x f32>> %r
  %uv.10 = load ptr<function, <2 x f32>> %uv.addr
  %t.gather = intr <4 x f32> tex.gather(ptr<storage, <4 x f32>> @t, ptr<storage, u32> @s, <2 x f32> %uv.10, i32 0, <2 x i32> <0, 0>)
  %uv.11 = load ptr<function, <2 x f32>> %uv.addr
  %t.gather.1 = intr <4 x f32> tex.gather(ptr<storage, <4 x f32>> @t, ptr<storage, u32> @s, <2 x f32> %uv.11, i32 1, <2 x i32> <1, 1>)
  %add.11 = fadd <4 x f32> %t.gather, %t.gather.1
  %uv.12 = load ptr<function, <2 x f32>> %uv.addr
  %depth.gather = intr <4 x f32> tex.gather_cmp(ptr<storage, f32> @depth, ptr<storage, u32> @sc, <2 x f32> %uv.12, i32 0, f32 0.5, <2 x i32> <0, 0>)
  %add.12 = fadd <4 x f32> %add.11, %depth.gather
  %r.4 = load ptr<function, <4 x f32>> %r
  %add.13 = fadd <4 x f32> %r.4, %add.12
  store <4 x f32> %add.13, ptr<function, <4 x f32>> %r
  %uv.13 = load ptr<function, <2 x f32>> %uv.addr
  %depth.cmp = intr f32 tex.sample_cmp(ptr<storage, f32> @depth, ptr<storage, u32> @sc, <2 x f32> %uv.13, f32 0.5, <2 x i32> <0, 0>)
  %uv.14 = load ptr<function, <2 x f32>> %uv.addr
  %depth.cmp.1 = intr f32 tex.sample_cmp_level_zero(ptr<storage, f32> @depth, ptr<storage, u32> @sc, <2 x f32> %uv.14, f32 0.5, <2 x i32> <1, 0>)
  %add.14 = fadd f32 %depth.cmp, %depth.cmp.1
  %splat.1 = construct <4 x f32> (f32 %add.14, f32 %add.14, f32 %add.14, f32 %add.14)
  %r.5 = load ptr<function, <4 x f32>> %r
  %add.15 = fadd <4 x f32> %r.5, %splat.1
  store <4 x f32> %add.15, ptr<function, <4 x f32>> %r
  %ta.dims = intr <4 x u32> tex.dims(ptr<storage, <4 x f32>> @ta, u32 0)
  %ta.dim = extractvalue <4 x u32> %ta.dims, 0
  store u32 %ta.dim, ptr<function, u32> %w
  %ta.dim.1 = extractvalue <4 x u32> %ta.dims, 1
  store u32 %ta.dim.1, ptr<function, u32> %h
  %ta.dim.2 = extractvalue <4 x u32> %ta.dims, 2
  store u32 %ta.dim.2, ptr<function, u32> %e
  %t1.dims = intr <2 x u32> tex.dims(ptr<storage, f32> @t1, u32 0)
  %t1.dim = extractvalue <2 x u32> %t1.dims, 0
  store u32 %t1.dim, ptr<function, u32> %w
  %t1.dim.1 = extractvalue <2 x u32> %t1.dims, 1
  store u32 %t1.dim.1, ptr<function, u32> %l
  %tc.dims = intr <3 x u32> tex.dims(ptr<storage, <4 x f32>> @tc, u32 0)
  %tc.dim = extractvalue <3 x u32> %tc.dims, 0
  store u32 %tc.dim, ptr<function, u32> %w
  %tc.dim.1 = extractvalue <3 x u32> %tc.dims, 1
  store u32 %tc.dim.1, ptr<function, u32> %h
  %i.5 = load ptr<function, u32> %i.addr
  %conv.4 = bitcast u32 %i.5 to i32
  %vec.8 = construct <3 x i32> (i32 %conv.4, i32 0, i32 0)
  %tu.coord = shuffle <3 x i32> %vec.8, <3 x i32> %vec.8, [0, 1]
  %tu.mip = extractvalue <3 x i32> %vec.8, 2
  %tu.load = intr <4 x u32> tex.load(ptr<storage, <4 x u32>> @tu, <2 x i32> %tu.coord, i32 %tu.mip, <2 x i32> <0, 0>)
  %conv.5 = uitofp <4 x u32> %tu.load to <4 x f32>
  %elem.8 = extractvalue <4 x f32> %conv.5, 0
  %elem.9 = extractvalue <4 x f32> %conv.5, 1
  %elem.10 = extractvalue <4 x f32> %conv.5, 2
  %elem.11 = extractvalue <4 x f32> %conv.5, 3
  %vec.9 = construct <4 x f32> (f32 %elem.8, f32 %elem.9, f32 %elem.10, f32 %elem.11)
  %w.1 = load ptr<function, u32> %w
  %conv.6 = uitofp u32 %w.1 to f32
  %h.1 = load ptr<function, u32> %h
  %conv.7 = uitofp u32 %h.1 to f32
  %l.1 = load ptr<function, u32> %l
  %conv.8 = uitofp u32 %l.1 to f32
  %e.1 = load ptr<function, u32> %e
  %conv.9 = uitofp u32 %e.1 to f32
  %vec.10 = construct <4 x f32> (f32 %conv.6, f32 %conv.7, f32 %conv.8, f32 %conv.9)
  %add.16 = fadd <4 x f32> %vec.9, %vec.10
  %r.6 = load ptr<function, <4 x f32>> %r
  %add.17 = fadd <4 x f32> %r.6, %add.16
  store <4 x f32> %add.17, ptr<function, <4 x f32>> %r
  %r.7 = load ptr<function, <4 x f32>> %r
  ret <4 x f32> %r.7
}

define void @ps() pixel {
entry:
  %pos = alloca <4 x f32>
  %pos.1 = load ptr<input, <4 x f32>> @pos
  store <4 x f32> %pos.1, ptr<function, <4 x f32>> %pos
  %pos.2 = load ptr<function, <4 x f32>> %pos
  %pos.x = extractvalue <4 x f32> %pos.2, 0
  %conv = fptoui f32 %pos.x to u32
  %pos.3 = load ptr<function, <4 x f32>> %pos
  %pos.xy = shuffle <4 x f32> %pos.3, <4 x f32> %pos.3, [0, 1]
  %div = fdiv <2 x f32> %pos.xy, <8.0, 8.0>
  %call = call <4 x f32> @all(u32 %conv, <2 x f32> %div)
  store <4 x f32> %call, ptr<output, <4 x f32>> @out.SV_Target0
  ret
}
