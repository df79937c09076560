; samples/sm3-loop-m.hlsl after the sm3 pipeline, hand-edited so the rep
; count is the uniform m (what sm3-lower documents for `k < m`).
module "sm3-loop-m.hlsl"

type %$Globals = { i32 m }

@$Globals = global uniform %$Globals kind "cbuffer"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %for.cond.rep = alloca f32
  %res.x.var = alloca f32
  %res.y.var = alloca f32
  %res.z.var = alloca f32
  %res.w.var = alloca f32
  %k.var = alloca f32
  store f32 0.0, ptr<function, f32> %res.x.var
  store f32 0.0, ptr<function, f32> %res.y.var
  store f32 0.0, ptr<function, f32> %res.z.var
  store f32 0.0, ptr<function, f32> %res.w.var
  store f32 0.0, ptr<function, f32> %k.var
  store f32 0.0, ptr<function, f32> %for.cond.rep
  %m.0p = access ptr<uniform, %$Globals> @$Globals, i32 0
  %m.0 = load ptr<uniform, i32> %m.0p
  br %for.cond
for.cond:
  %for.cond.rep.n = load ptr<function, f32> %for.cond.rep
  %for.cond.rep.done = fcmp oge f32 %for.cond.rep.n, 255.0
  intr void sm3.rep(i32 %m.0, bool %for.cond.rep.done)
  %for.cond.rep.next = fadd f32 %for.cond.rep.n, 1.0
  store f32 %for.cond.rep.next, ptr<function, f32> %for.cond.rep
  %res.x = load ptr<function, f32> %res.x.var
  %res.y = load ptr<function, f32> %res.y.var
  %res.z = load ptr<function, f32> %res.z.var
  %res.w = load ptr<function, f32> %res.w.var
  %k = load ptr<function, f32> %k.var
  %m = access ptr<uniform, %$Globals> @$Globals, i32 0
  %m.1 = load ptr<uniform, i32> %m
  %m.1.f = sitofp i32 %m.1 to f32
  %cmp = fcmp olt f32 %k, %m.1.f
  %for.cond.rep.go = select bool %for.cond.rep.done, bool false, %cmp
  loop_merge %for.end, %for.inc
  condbr bool %for.cond.rep.go, %for.body, %for.end
for.body:
  %conv = copy f32 %k
  %add.x = fadd f32 %res.x, %conv
  %add.y = fadd f32 %res.y, %conv
  %add.z = fadd f32 %res.z, %conv
  %add.w = fadd f32 %res.w, %conv
  br %for.inc
for.inc:
  %inc = fadd f32 %k, 1.0
  store f32 %add.x, ptr<function, f32> %res.x.var
  store f32 %add.y, ptr<function, f32> %res.y.var
  store f32 %add.z, ptr<function, f32> %res.z.var
  store f32 %add.w, ptr<function, f32> %res.w.var
  store f32 %inc, ptr<function, f32> %k.var
  br %for.cond
for.end:
  %out.SV_Target0.x = access ptr<output, <4 x f32>> @out.SV_Target0, i32 0
  store f32 %res.x, ptr<output, f32> %out.SV_Target0.x
  %out.SV_Target0.y = access ptr<output, <4 x f32>> @out.SV_Target0, i32 1
  store f32 %res.y, ptr<output, f32> %out.SV_Target0.y
  %out.SV_Target0.z = access ptr<output, <4 x f32>> @out.SV_Target0, i32 2
  store f32 %res.z, ptr<output, f32> %out.SV_Target0.z
  %out.SV_Target0.w = access ptr<output, <4 x f32>> @out.SV_Target0, i32 3
  store f32 %res.w, ptr<output, f32> %out.SV_Target0.w
  ret
}
