module "nest.hlsl"

type %$Globals = { i32 n, f32 lim }

@$Globals = global uniform %$Globals kind "cbuffer"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %for.cond.1.rep = alloca f32
  %for.cond.rep = alloca f32
  %s.var = alloca f32
  %t.var = alloca f32
  %i.var = alloca f32
  %s.4.var = alloca f32
  %j.var = alloca f32
  %t.4.var = alloca f32
  store f32 0.0, ptr<function, f32> %s.var
  store f32 0.0, ptr<function, f32> %t.var
  store f32 0.0, ptr<function, f32> %i.var
  store f32 0.0, ptr<function, f32> %for.cond.rep
  br %for.cond
for.cond:
  %for.cond.rep.n = load ptr<function, f32> %for.cond.rep
  %for.cond.rep.done = fcmp oge f32 %for.cond.rep.n, 4.0
  intr void sm3.rep(i32 4, bool %for.cond.rep.done)
  %for.cond.rep.next = fadd f32 %for.cond.rep.n, 1.0
  store f32 %for.cond.rep.next, ptr<function, f32> %for.cond.rep
  %s = load ptr<function, f32> %s.var
  %t = load ptr<function, f32> %t.var
  %i = load ptr<function, f32> %i.var
  %cmp = fcmp olt f32 %i, 4.0
  %for.cond.rep.go = select bool %for.cond.rep.done, bool false, %cmp
  loop_merge %for.end, %for.inc
  condbr bool %for.cond.rep.go, %for.body, %for.end
for.body:
  store f32 %s, ptr<function, f32> %s.4.var
  store f32 0.0, ptr<function, f32> %j.var
  store f32 0.0, ptr<function, f32> %for.cond.1.rep
  br %for.cond.1
for.cond.1:
  %for.cond.1.rep.n = load ptr<function, f32> %for.cond.1.rep
  %for.cond.1.rep.done = fcmp oge f32 %for.cond.1.rep.n, 255.0
  intr void sm3.rep(i32 255, bool %for.cond.1.rep.done)
  %for.cond.1.rep.next = fadd f32 %for.cond.1.rep.n, 1.0
  store f32 %for.cond.1.rep.next, ptr<function, f32> %for.cond.1.rep
  %s.4 = load ptr<function, f32> %s.4.var
  %j = load ptr<function, f32> %j.var
  %n = access ptr<uniform, %$Globals> @$Globals, i32 0
  %n.1 = load ptr<uniform, i32> %n
  %n.1.f = sitofp i32 %n.1 to f32
  %cmp.1 = fcmp olt f32 %j, %n.1.f
  %for.cond.1.rep.go = select bool %for.cond.1.rep.done, bool false, %cmp.1
  loop_merge %for.end.1, %for.inc.1
  condbr bool %for.cond.1.rep.go, %for.body.1, %for.end.1
for.body.1:
  %mul = fmul f32 %i, %j
  %conv = copy f32 %mul
  %add = fadd f32 %s.4, %conv
  %lim = access ptr<uniform, %$Globals> @$Globals, i32 1
  %lim.1 = load ptr<uniform, f32> %lim
  %min = intr f32 min(f32 %add, f32 %lim.1)
  br %for.inc.1
for.inc.1:
  %inc = fadd f32 %j, 1.0
  store f32 %min, ptr<function, f32> %s.4.var
  store f32 %inc, ptr<function, f32> %j.var
  br %for.cond.1
for.end.1:
  %cmp.2 = fcmp oeq f32 %i, 2.0
  selection_merge %if.end
  condbr bool %cmp.2, %if.then, %if.else
if.then:
  %add.1 = fadd f32 %t, 10.0
  store f32 %add.1, ptr<function, f32> %t.4.var
  br %if.end
if.else:
  %add.2 = fadd f32 %t, 1.0
  store f32 %add.2, ptr<function, f32> %t.4.var
  br %if.end
if.end:
  %t.4 = load ptr<function, f32> %t.4.var
  br %for.inc
for.inc:
  %inc.1 = fadd f32 %i, 1.0
  store f32 %s.4, ptr<function, f32> %s.var
  store f32 %t.4, ptr<function, f32> %t.var
  store f32 %inc.1, ptr<function, f32> %i.var
  br %for.cond
for.end:
  %out.SV_Target0.x = access ptr<output, <4 x f32>> @out.SV_Target0, i32 0
  store f32 %s, ptr<output, f32> %out.SV_Target0.x
  %out.SV_Target0.y = access ptr<output, <4 x f32>> @out.SV_Target0, i32 1
  store f32 %t, ptr<output, f32> %out.SV_Target0.y
  %out.SV_Target0.z = access ptr<output, <4 x f32>> @out.SV_Target0, i32 2
  store f32 0.0, ptr<output, f32> %out.SV_Target0.z
  %out.SV_Target0.w = access ptr<output, <4 x f32>> @out.SV_Target0, i32 3
  store f32 1.0, ptr<output, f32> %out.SV_Target0.w
  ret
}
