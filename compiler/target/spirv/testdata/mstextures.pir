; Multisampled textures (lowered from HLSL: Texture2DMS, Texture2DMSArray): tex.load_ms with and without an offset, operator[], GetDimensions with the sample count.
module "mstextures.hlsl"

@t = global storage <4 x f32> binding 0, 0 readonly kind "Texture2DMS"
@ta = global storage <2 x u32> binding 0, 1 readonly kind "Texture2DMSArray"
@o = global storage [? x <4 x f32>] binding 0, 0 kind "RWStructuredBuffer"
@id = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = alloca <3 x u32>
  %w = alloca u32
  %h = alloca u32
  %s = alloca u32
  %aw = alloca u32
  %ah = alloca u32
  %ae = alloca u32
  %as = alloca u32
  %id.1 = load ptr<input, <3 x u32>> @id
  store <3 x u32> %id.1, ptr<function, <3 x u32>> %id
  %t.dims = intr <3 x u32> tex.dims(ptr<storage, <4 x f32>> @t, u32 0)
  %t.dim = extractvalue <3 x u32> %t.dims, 0
  store u32 %t.dim, ptr<function, u32> %w
  %t.dim.1 = extractvalue <3 x u32> %t.dims, 1
  store u32 %t.dim.1, ptr<function, u32> %h
  %t.dim.2 = extractvalue <3 x u32> %t.dims, 2
  store u32 %t.dim.2, ptr<function, u32> %s
  %ta.dims = intr <4 x u32> tex.dims(ptr<storage, <2 x u32>> @ta, u32 0)
  %ta.dim = extractvalue <4 x u32> %ta.dims, 0
  store u32 %ta.dim, ptr<function, u32> %aw
  %ta.dim.1 = extractvalue <4 x u32> %ta.dims, 1
  store u32 %ta.dim.1, ptr<function, u32> %ah
  %ta.dim.2 = extractvalue <4 x u32> %ta.dims, 2
  store u32 %ta.dim.2, ptr<function, u32> %ae
  %ta.dim.3 = extractvalue <4 x u32> %ta.dims, 3
  store u32 %ta.dim.3, ptr<function, u32> %as
  %id.2 = load ptr<function, <3 x u32>> %id
  %id.x = extractvalue <3 x u32> %id.2, 0
  %rem = urem u32 %id.x, 2
  %conv = bitcast u32 %rem to i32
  %id.3 = load ptr<function, <3 x u32>> %id
  %id.x.1 = extractvalue <3 x u32> %id.3, 0
  %div = udiv u32 %id.x.1, 2
  %conv.1 = bitcast u32 %div to i32
  %vec = construct <2 x i32> (i32 %conv, i32 %conv.1)
  %id.4 = load ptr<function, <3 x u32>> %id
  %id.x.2 = extractvalue <3 x u32> %id.4, 0
  %conv.2 = bitcast u32 %id.x.2 to i32
  %t.load = intr <4 x f32> tex.load_ms(ptr<storage, <4 x f32>> @t, <2 x i32> %vec, i32 %conv.2, <2 x i32> <0, 0>)
  %conv.3 = bitcast <2 x u32> <1, 0> to <2 x i32>
  %t.load.1 = intr <4 x f32> tex.load_ms(ptr<storage, <4 x f32>> @t, <2 x i32> %conv.3, i32 0, <2 x i32> <0, 0>)
  %add = fadd <4 x f32> %t.load, %t.load.1
  %id.5 = load ptr<function, <3 x u32>> %id
  %id.x.3 = extractvalue <3 x u32> %id.5, 0
  %mul = mul u32 %id.x.3, 3
  %o.idx = access ptr<storage, [? x <4 x f32>]> @o, u32 %mul
  store <4 x f32> %add, ptr<storage, <4 x f32>> %o.idx
  %t.load.2 = intr <4 x f32> tex.load_ms(ptr<storage, <4 x f32>> @t, <2 x i32> zero, i32 1, <2 x i32> <1, 1>)
  %w.1 = load ptr<function, u32> %w
  %conv.4 = uitofp u32 %w.1 to f32
  %h.1 = load ptr<function, u32> %h
  %conv.5 = uitofp u32 %h.1 to f32
  %s.1 = load ptr<function, u32> %s
  %conv.6 = uitofp u32 %s.1 to f32
  %vec.1 = construct <4 x f32> (f32 %conv.4, f32 %conv.5, f32 %conv.6, f32 0.0)
  %add.1 = fadd <4 x f32> %t.load.2, %vec.1
  %id.6 = load ptr<function, <3 x u32>> %id
  %id.x.4 = extractvalue <3 x u32> %id.6, 0
  %mul.1 = mul u32 %id.x.4, 3
  %add.2 = add u32 %mul.1, 1
  %o.idx.1 = access ptr<storage, [? x <4 x f32>]> @o, u32 %add.2
  store <4 x f32> %add.1, ptr<storage, <4 x f32>> %o.idx.1
  %id.7 = load ptr<function, <3 x u32>> %id
  %id.x.5 = extractvalue <3 x u32> %id.7, 0
  %rem.1 = urem u32 %id.x.5, 2
  %conv.7 = bitcast u32 %rem.1 to i32
  %id.8 = load ptr<function, <3 x u32>> %id
  %id.x.6 = extractvalue <3 x u32> %id.8, 0
  %div.1 = udiv u32 %id.x.6, 2
  %conv.8 = bitcast u32 %div.1 to i32
  %vec.2 = construct <3 x i32> (i32 %conv.7, i32 0, i32 %conv.8)
  %id.9 = load ptr<function, <3 x u32>> %id
  %id.x.7 = extractvalue <3 x u32> %id.9, 0
  %rem.2 = urem u32 %id.x.7, 2
  %conv.9 = bitcast u32 %rem.2 to i32
  %ta.load = intr <2 x u32> tex.load_ms(ptr<storage, <2 x u32>> @ta, <3 x i32> %vec.2, i32 %conv.9, <2 x i32> <0, 0>)
  %conv.10 = uitofp <2 x u32> %ta.load to <2 x f32>
  %elem = extractvalue <2 x f32> %conv.10, 0
  %elem.1 = extractvalue <2 x f32> %conv.10, 1
  %aw.1 = load ptr<function, u32> %aw
  %mul.2 = mul u32 %aw.1, 100
  %ah.1 = load ptr<function, u32> %ah
  %mul.3 = mul u32 %ah.1, 10
  %add.3 = add u32 %mul.2, %mul.3
  %ae.1 = load ptr<function, u32> %ae
  %add.4 = add u32 %add.3, %ae.1
  %conv.11 = uitofp u32 %add.4 to f32
  %as.1 = load ptr<function, u32> %as
  %conv.12 = uitofp u32 %as.1 to f32
  %vec.3 = construct <4 x f32> (f32 %elem, f32 %elem.1, f32 %conv.11, f32 %conv.12)
  %id.10 = load ptr<function, <3 x u32>> %id
  %id.x.8 = extractvalue <3 x u32> %id.10, 0
  %mul.4 = mul u32 %id.x.8, 3
  %add.5 = add u32 %mul.4, 2
  %o.idx.2 = access ptr<storage, [? x <4 x f32>]> @o, u32 %add.5
  store <4 x f32> %vec.3, ptr<storage, <4 x f32>> %o.idx.2
  ret
}
