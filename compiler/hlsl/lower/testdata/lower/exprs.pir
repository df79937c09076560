module "exprs.hlsl"

@Out = global storage [? x <4 x f32>] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %tid = alloca <3 x u32>
  %i = alloca i32
  %f = alloca f32
  %b = alloca bool
  %s = alloca f32
  %k = alloca i32
  %v = alloca <4 x f32>
  %u = alloca u32
  %tid.1 = load ptr<input, <3 x u32>> @tid
  store <3 x u32> %tid.1, ptr<function, <3 x u32>> %tid
  %tid.2 = load ptr<function, <3 x u32>> %tid
  %tid.x = extractvalue <3 x u32> %tid.2, 0
  %conv = bitcast u32 %tid.x to i32
  store i32 %conv, ptr<function, i32> %i
  store f32 2.5, ptr<function, f32> %f
  %i.1 = load ptr<function, i32> %i
  %cmp = icmp sgt i32 %i.1, 0
  selection_merge %land.end
  condbr bool %cmp, %land.rhs, %land.end
land.rhs:
  %f.1 = load ptr<function, f32> %f
  %cmp.1 = fcmp olt f32 %f.1, 3.0
  br %land.end
land.end:
  %land = phi bool [false, %entry], [%cmp.1, %land.rhs]
  store bool %land, ptr<function, bool> %b
  %b.1 = load ptr<function, bool> %b
  %f.2 = load ptr<function, f32> %f
  %cond = select bool %b.1, f32 %f.2, 1.0
  store f32 %cond, ptr<function, f32> %s
  %i.2 = load ptr<function, i32> %i
  %cmp.2 = icmp eq i32 %i.2, 0
  selection_merge %cond.end
  condbr bool %cmp.2, %cond.true, %cond.false
cond.true:
  %i.3 = load ptr<function, i32> %i
  %inc = add i32 %i.3, 1
  store i32 %inc, ptr<function, i32> %i
  br %cond.end
cond.false:
  %i.4 = load ptr<function, i32> %i
  %dec = sub i32 %i.4, 1
  store i32 %dec, ptr<function, i32> %i
  br %cond.end
cond.end:
  %cond.1 = phi i32 [%i.3, %cond.true], [%dec, %cond.false]
  store i32 %cond.1, ptr<function, i32> %k
  %i.5 = load ptr<function, i32> %i
  %conv.1 = sitofp i32 %i.5 to f32
  %f.3 = load ptr<function, f32> %f
  %add = fadd f32 %f.3, %conv.1
  store f32 %add, ptr<function, f32> %f
  %f.4 = load ptr<function, f32> %f
  %k.1 = load ptr<function, i32> %k
  %conv.2 = sitofp i32 %k.1 to f32
  %mul = fmul f32 %conv.2, %f.4
  %conv.3 = fptosi f32 %mul to i32
  store i32 %conv.3, ptr<function, i32> %k
  %f.5 = load ptr<function, f32> %f
  %s.1 = load ptr<function, f32> %s
  %vec = construct <4 x f32> (f32 %f.5, f32 %s.1, f32 0.0, f32 1.0)
  store <4 x f32> %vec, ptr<function, <4 x f32>> %v
  %k.2 = load ptr<function, i32> %k
  %conv.4 = sitofp i32 %k.2 to f32
  %vec.1 = construct <2 x f32> (f32 %conv.4, f32 3.0)
  %v.1 = load ptr<function, <4 x f32>> %v
  %ins = shuffle <4 x f32> %v.1, <2 x f32> %vec.1, [5, 1, 4, 3]
  store <4 x f32> %ins, ptr<function, <4 x f32>> %v
  store i32 4, ptr<function, i32> %i
  %i.6 = load ptr<function, i32> %i
  %add.1 = add i32 %i.6, 1
  %conv.5 = bitcast i32 %add.1 to u32
  store u32 %conv.5, ptr<function, u32> %u
  %v.2 = load ptr<function, <4 x f32>> %v
  %u.1 = load ptr<function, u32> %u
  %conv.6 = uitofp u32 %u.1 to f32
  %splat = construct <4 x f32> (f32 %conv.6, f32 %conv.6, f32 %conv.6, f32 %conv.6)
  %mul.1 = fmul <4 x f32> %v.2, %splat
  %tid.3 = load ptr<function, <3 x u32>> %tid
  %tid.x.1 = extractvalue <3 x u32> %tid.3, 0
  %Out.idx = access ptr<storage, [? x <4 x f32>]> @Out, u32 %tid.x.1
  store <4 x f32> %mul.1, ptr<storage, <4 x f32>> %Out.idx
  ret
}
