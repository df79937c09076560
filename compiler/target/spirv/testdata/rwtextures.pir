; Every read-write texture kind (lowered from HLSL: RWTexture1D/1DArray/2D/2DArray/3D): tex.read, tex.write, component writes, Load, GetDimensions, atomics through tex.texel.
module "rwtextures.hlsl"

@img = global storage <4 x f32> binding 0, 0 kind "RWTexture2D"
@cnt = global storage u32 binding 0, 1 kind "RWTexture2D"
@line = global storage f32 binding 0, 2 kind "RWTexture1D"
@arr = global storage <2 x i32> binding 0, 3 kind "RWTexture2DArray"
@vol = global storage u32 binding 0, 4 kind "RWTexture3D"
@rows = global storage <4 x u32> binding 0, 5 kind "RWTexture1DArray"
@id = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(8, 8, 1) {
entry:
  %id = alloca <3 x u32>
  %w = alloca u32
  %h = alloca u32
  %c = alloca <4 x f32>
  %old.2 = alloca u32
  %lw = alloca u32
  %aw = alloca u32
  %ah = alloca u32
  %al = alloca u32
  %rw = alloca u32
  %rl = alloca u32
  %id.1 = load ptr<input, <3 x u32>> @id
  store <3 x u32> %id.1, ptr<function, <3 x u32>> %id
  %img.dims = intr <3 x u32> tex.dims(ptr<storage, <4 x f32>> @img, u32 0)
  %img.dim = extractvalue <3 x u32> %img.dims, 0
  store u32 %img.dim, ptr<function, u32> %w
  %img.dim.1 = extractvalue <3 x u32> %img.dims, 1
  store u32 %img.dim.1, ptr<function, u32> %h
  %id.2 = load ptr<function, <3 x u32>> %id
  %id.xy = shuffle <3 x u32> %id.2, <3 x u32> %id.2, [0, 1]
  %conv = bitcast <2 x u32> %id.xy to <2 x i32>
  %img.idx = intr <4 x f32> tex.read(ptr<storage, <4 x f32>> @img, <2 x i32> %conv)
  store <4 x f32> %img.idx, ptr<function, <4 x f32>> %c
  %c.1 = load ptr<function, <4 x f32>> %c
  %c.wzyx = shuffle <4 x f32> %c.1, <4 x f32> %c.1, [3, 2, 1, 0]
  %mul = fmul <4 x f32> %c.wzyx, <2.0, 2.0, 2.0, 2.0>
  %w.1 = load ptr<function, u32> %w
  %conv.1 = uitofp u32 %w.1 to f32
  %h.1 = load ptr<function, u32> %h
  %conv.2 = uitofp u32 %h.1 to f32
  %vec = construct <4 x f32> (f32 %conv.1, f32 %conv.2, f32 0.0, f32 0.0)
  %add = fadd <4 x f32> %mul, %vec
  %id.3 = load ptr<function, <3 x u32>> %id
  %id.xy.1 = shuffle <3 x u32> %id.3, <3 x u32> %id.3, [0, 1]
  %conv.3 = bitcast <2 x u32> %id.xy.1 to <2 x i32>
  intr void tex.write(ptr<storage, <4 x f32>> @img, <2 x i32> %conv.3, <4 x f32> %add)
  %id.4 = load ptr<function, <3 x u32>> %id
  %id.x = extractvalue <3 x u32> %id.4, 0
  %conv.4 = uitofp u32 %id.x to f32
  %id.5 = load ptr<function, <3 x u32>> %id
  %id.xy.2 = shuffle <3 x u32> %id.5, <3 x u32> %id.5, [0, 1]
  %conv.5 = bitcast <2 x u32> %id.xy.2 to <2 x i32>
  %img.idx.1 = intr <4 x f32> tex.read(ptr<storage, <4 x f32>> @img, <2 x i32> %conv.5)
  %img.idx.y = extractvalue <4 x f32> %img.idx.1, 1
  %add.1 = fadd f32 %img.idx.y, %conv.4
  %img.idx.2 = intr <4 x f32> tex.read(ptr<storage, <4 x f32>> @img, <2 x i32> %conv.5)
  %ins = insertvalue <4 x f32> %img.idx.2, f32 %add.1, 1
  intr void tex.write(ptr<storage, <4 x f32>> @img, <2 x i32> %conv.5, <4 x f32> %ins)
  %id.6 = load ptr<function, <3 x u32>> %id
  %id.xy.3 = shuffle <3 x u32> %id.6, <3 x u32> %id.6, [0, 1]
  %conv.6 = bitcast <2 x u32> %id.xy.3 to <2 x i32>
  %elem = extractvalue <2 x i32> %conv.6, 0
  %elem.1 = extractvalue <2 x i32> %conv.6, 1
  %vec.1 = construct <2 x i32> (i32 %elem, i32 %elem.1)
  %img.load = intr <4 x f32> tex.read(ptr<storage, <4 x f32>> @img, <2 x i32> %vec.1)
  %swizzle = shuffle <4 x f32> %img.load, <4 x f32> %img.load, [0, 1]
  %id.7 = load ptr<function, <3 x u32>> %id
  %id.xy.4 = shuffle <3 x u32> %id.7, <3 x u32> %id.7, [0, 1]
  %conv.7 = bitcast <2 x u32> %id.xy.4 to <2 x i32>
  %img.idx.3 = intr <4 x f32> tex.read(ptr<storage, <4 x f32>> @img, <2 x i32> %conv.7)
  %ins.1 = shuffle <4 x f32> %img.idx.3, <2 x f32> %swizzle, [0, 1, 4, 5]
  intr void tex.write(ptr<storage, <4 x f32>> @img, <2 x i32> %conv.7, <4 x f32> %ins.1)
  %id.8 = load ptr<function, <3 x u32>> %id
  %id.x.1 = extractvalue <3 x u32> %id.8, 0
  %rem = urem u32 %id.x.1, 2
  %vec.2 = construct <2 x u32> (u32 %rem, u32 0)
  %conv.8 = bitcast <2 x u32> %vec.2 to <2 x i32>
  %cnt.idx.p = intr ptr<storage, u32> tex.texel(ptr<storage, u32> @cnt, <2 x i32> %conv.8)
  %id.9 = load ptr<function, <3 x u32>> %id
  %id.y = extractvalue <3 x u32> %id.9, 1
  %add.2 = add u32 %id.y, 1
  %old = atomic add ptr<storage, u32> %cnt.idx.p, u32 %add.2
  %id.10 = load ptr<function, <3 x u32>> %id
  %id.x.2 = extractvalue <3 x u32> %id.10, 0
  %rem.1 = urem u32 %id.x.2, 2
  %vec.3 = construct <2 x u32> (u32 %rem.1, u32 1)
  %conv.9 = bitcast <2 x u32> %vec.3 to <2 x i32>
  %cnt.idx.p.1 = intr ptr<storage, u32> tex.texel(ptr<storage, u32> @cnt, <2 x i32> %conv.9)
  %id.11 = load ptr<function, <3 x u32>> %id
  %id.x.3 = extractvalue <3 x u32> %id.11, 0
  %mul.1 = mul u32 %id.x.3, 8
  %id.12 = load ptr<function, <3 x u32>> %id
  %id.y.1 = extractvalue <3 x u32> %id.12, 1
  %add.3 = add u32 %mul.1, %id.y.1
  %old.1 = atomic umax ptr<storage, u32> %cnt.idx.p.1, u32 %add.3
  %id.13 = load ptr<function, <3 x u32>> %id
  %id.x.4 = extractvalue <3 x u32> %id.13, 0
  %rem.2 = urem u32 %id.x.4, 4
  %id.14 = load ptr<function, <3 x u32>> %id
  %id.y.2 = extractvalue <3 x u32> %id.14, 1
  %rem.3 = urem u32 %id.y.2, 4
  %id.15 = load ptr<function, <3 x u32>> %id
  %id.x.5 = extractvalue <3 x u32> %id.15, 0
  %id.16 = load ptr<function, <3 x u32>> %id
  %id.y.3 = extractvalue <3 x u32> %id.16, 1
  %add.4 = add u32 %id.x.5, %id.y.3
  %rem.4 = urem u32 %add.4, 4
  %vec.4 = construct <3 x u32> (u32 %rem.2, u32 %rem.3, u32 %rem.4)
  %conv.10 = bitcast <3 x u32> %vec.4 to <3 x i32>
  %vol.idx.p = intr ptr<storage, u32> tex.texel(ptr<storage, u32> @vol, <3 x i32> %conv.10)
  %id.17 = load ptr<function, <3 x u32>> %id
  %id.x.6 = extractvalue <3 x u32> %id.17, 0
  %shl = shl u32 1, %id.x.6
  %old.3 = atomic or ptr<storage, u32> %vol.idx.p, u32 %shl
  store u32 %old.3, ptr<function, u32> %old.2
  %line.dims = intr <2 x u32> tex.dims(ptr<storage, f32> @line, u32 0)
  %line.dim = extractvalue <2 x u32> %line.dims, 0
  store u32 %line.dim, ptr<function, u32> %lw
  %id.18 = load ptr<function, <3 x u32>> %id
  %id.y.4 = extractvalue <3 x u32> %id.18, 1
  %cmp = icmp eq u32 %id.y.4, 0
  selection_merge %if.end
  condbr bool %cmp, %if.then, %if.end
if.then:
  %id.19 = load ptr<function, <3 x u32>> %id
  %id.x.7 = extractvalue <3 x u32> %id.19, 0
  %conv.11 = bitcast u32 %id.x.7 to i32
  %line.idx = intr f32 tex.read(ptr<storage, f32> @line, i32 %conv.11)
  %mul.2 = fmul f32 %line.idx, 3.0
  %lw.1 = load ptr<function, u32> %lw
  %conv.12 = uitofp u32 %lw.1 to f32
  %add.5 = fadd f32 %mul.2, %conv.12
  %id.20 = load ptr<function, <3 x u32>> %id
  %id.x.8 = extractvalue <3 x u32> %id.20, 0
  %conv.13 = bitcast u32 %id.x.8 to i32
  intr void tex.write(ptr<storage, f32> @line, i32 %conv.13, f32 %add.5)
  br %if.end
if.end:
  %arr.dims = intr <4 x u32> tex.dims(ptr<storage, <2 x i32>> @arr, u32 0)
  %arr.dim = extractvalue <4 x u32> %arr.dims, 0
  store u32 %arr.dim, ptr<function, u32> %aw
  %arr.dim.1 = extractvalue <4 x u32> %arr.dims, 1
  store u32 %arr.dim.1, ptr<function, u32> %ah
  %arr.dim.2 = extractvalue <4 x u32> %arr.dims, 2
  store u32 %arr.dim.2, ptr<function, u32> %al
  %id.21 = load ptr<function, <3 x u32>> %id
  %id.xy.5 = shuffle <3 x u32> %id.21, <3 x u32> %id.21, [0, 1]
  %elem.2 = extractvalue <2 x u32> %id.xy.5, 0
  %elem.3 = extractvalue <2 x u32> %id.xy.5, 1
  %vec.5 = construct <3 x u32> (u32 %elem.2, u32 %elem.3, u32 0)
  %conv.14 = bitcast <3 x u32> %vec.5 to <3 x i32>
  %arr.idx = intr <2 x i32> tex.read(ptr<storage, <2 x i32>> @arr, <3 x i32> %conv.14)
  %id.22 = load ptr<function, <3 x u32>> %id
  %id.x.9 = extractvalue <3 x u32> %id.22, 0
  %conv.15 = bitcast u32 %id.x.9 to i32
  %id.23 = load ptr<function, <3 x u32>> %id
  %id.y.5 = extractvalue <3 x u32> %id.23, 1
  %conv.16 = bitcast u32 %id.y.5 to i32
  %neg = neg i32 %conv.16
  %vec.6 = construct <2 x i32> (i32 %conv.15, i32 %neg)
  %add.6 = add <2 x i32> %arr.idx, %vec.6
  %al.1 = load ptr<function, u32> %al
  %conv.17 = bitcast u32 %al.1 to i32
  %splat = construct <2 x i32> (i32 %conv.17, i32 %conv.17)
  %add.7 = add <2 x i32> %add.6, %splat
  %id.24 = load ptr<function, <3 x u32>> %id
  %id.xy.6 = shuffle <3 x u32> %id.24, <3 x u32> %id.24, [0, 1]
  %elem.4 = extractvalue <2 x u32> %id.xy.6, 0
  %elem.5 = extractvalue <2 x u32> %id.xy.6, 1
  %vec.7 = construct <3 x u32> (u32 %elem.4, u32 %elem.5, u32 1)
  %conv.18 = bitcast <3 x u32> %vec.7 to <3 x i32>
  intr void tex.write(ptr<storage, <2 x i32>> @arr, <3 x i32> %conv.18, <2 x i32> %add.7)
  %id.25 = load ptr<function, <3 x u32>> %id
  %id.xy.7 = shuffle <3 x u32> %id.25, <3 x u32> %id.25, [0, 1]
  %elem.6 = extractvalue <2 x u32> %id.xy.7, 0
  %elem.7 = extractvalue <2 x u32> %id.xy.7, 1
  %vec.8 = construct <3 x u32> (u32 %elem.6, u32 %elem.7, u32 0)
  %conv.19 = bitcast <3 x u32> %vec.8 to <3 x i32>
  %arr.idx.1 = intr <2 x i32> tex.read(ptr<storage, <2 x i32>> @arr, <3 x i32> %conv.19)
  %ins.2 = insertvalue <2 x i32> %arr.idx.1, i32 -7, 1
  intr void tex.write(ptr<storage, <2 x i32>> @arr, <3 x i32> %conv.19, <2 x i32> %ins.2)
  %rows.dims = intr <3 x u32> tex.dims(ptr<storage, <4 x u32>> @rows, u32 0)
  %rows.dim = extractvalue <3 x u32> %rows.dims, 0
  store u32 %rows.dim, ptr<function, u32> %rw
  %rows.dim.1 = extractvalue <3 x u32> %rows.dims, 1
  store u32 %rows.dim.1, ptr<function, u32> %rl
  %id.26 = load ptr<function, <3 x u32>> %id
  %id.x.10 = extractvalue <3 x u32> %id.26, 0
  %cmp.1 = icmp ult u32 %id.x.10, 4
  selection_merge %if.end.1
  condbr bool %cmp.1, %if.then.1, %if.end.1
if.then.1:
  %id.27 = load ptr<function, <3 x u32>> %id
  %id.x.11 = extractvalue <3 x u32> %id.27, 0
  %id.28 = load ptr<function, <3 x u32>> %id
  %id.y.6 = extractvalue <3 x u32> %id.28, 1
  %rw.1 = load ptr<function, u32> %rw
  %rl.1 = load ptr<function, u32> %rl
  %vec.9 = construct <4 x u32> (u32 %id.x.11, u32 %id.y.6, u32 %rw.1, u32 %rl.1)
  %id.29 = load ptr<function, <3 x u32>> %id
  %id.y.7 = extractvalue <3 x u32> %id.29, 1
  %rw.2 = load ptr<function, u32> %rw
  %rem.5 = urem u32 %id.y.7, %rw.2
  %id.30 = load ptr<function, <3 x u32>> %id
  %id.x.12 = extractvalue <3 x u32> %id.30, 0
  %rl.2 = load ptr<function, u32> %rl
  %rem.6 = urem u32 %id.x.12, %rl.2
  %vec.10 = construct <2 x u32> (u32 %rem.5, u32 %rem.6)
  %conv.20 = bitcast <2 x u32> %vec.10 to <2 x i32>
  %rows.idx = intr <4 x u32> tex.read(ptr<storage, <4 x u32>> @rows, <2 x i32> %conv.20)
  %rows.idx.wzyx = shuffle <4 x u32> %rows.idx, <4 x u32> %rows.idx, [3, 2, 1, 0]
  %add.8 = add <4 x u32> %vec.9, %rows.idx.wzyx
  %id.31 = load ptr<function, <3 x u32>> %id
  %id.y.8 = extractvalue <3 x u32> %id.31, 1
  %rw.3 = load ptr<function, u32> %rw
  %rem.7 = urem u32 %id.y.8, %rw.3
  %id.32 = load ptr<function, <3 x u32>> %id
  %id.x.13 = extractvalue <3 x u32> %id.32, 0
  %rl.3 = load ptr<function, u32> %rl
  %rem.8 = urem u32 %id.x.13, %rl.3
  %vec.11 = construct <2 x u32> (u32 %rem.7, u32 %rem.8)
  %conv.21 = bitcast <2 x u32> %vec.11 to <2 x i32>
  intr void tex.write(ptr<storage, <4 x u32>> @rows, <2 x i32> %conv.21, <4 x u32> %add.8)
  br %if.end.1
if.end.1:
  ret
}
