module "brk.hlsl"

type %$Globals = { f32 lim }

@$Globals = global uniform %$Globals kind "cbuffer"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %for.cond.rep = alloca f32
  %s.var = alloca f32
  %t.var = alloca f32
  %i.var = alloca f32
  %t.4.var = alloca f32
  %s.4.var = alloca f32
  %t.5.var = alloca f32
  store f32 0.0, ptr<function, f32> %s.var
  store f32 0.0, ptr<function, f32> %t.var
  store f32 0.0, ptr<function, f32> %i.var
  store f32 0.0, ptr<function, f32> %for.cond.rep
  br %for.cond
for.cond:
  %for.cond.rep.n = load ptr<function, f32> %for.cond.rep
  %for.cond.rep.done = fcmp oge f32 %for.cond.rep.n, 10.0
  intr void sm3.rep(i32 10, bool %for.cond.rep.done)
  %for.cond.rep.next = fadd f32 %for.cond.rep.n, 1.0
  store f32 %for.cond.rep.next, ptr<function, f32> %for.cond.rep
  loop_merge %for.end, %for.inc
  condbr bool %for.cond.rep.done, %for.end, %for.cond.body
for.cond.body:
  %s = load ptr<function, f32> %s.var
  %t = load ptr<function, f32> %t.var
  %i = load ptr<function, f32> %i.var
  %cmp = fcmp olt f32 %i, 10.0
  store f32 %s, ptr<function, f32> %s.4.var
  store f32 %t, ptr<function, f32> %t.5.var
  condbr bool %cmp, %for.body, %for.end
for.body:
  %conv = copy f32 %i
  %add = fadd f32 %s, %conv
  %cmp.1 = fcmp oeq f32 %i, 2.0
  selection_merge %if.end
  condbr bool %cmp.1, %if.then, %if.else
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
  %lim = access ptr<uniform, %$Globals> @$Globals, i32 0
  %lim.1 = load ptr<uniform, f32> %lim
  %cmp.2 = fcmp ogt f32 %add, %lim.1
  selection_merge %if.end.1
  condbr bool %cmp.2, %if.then.1, %if.end.1
if.then.1:
  store f32 %add, ptr<function, f32> %s.4.var
  store f32 %t.4, ptr<function, f32> %t.5.var
  br %for.end
if.end.1:
  br %for.inc
for.inc:
  %inc = fadd f32 %i, 1.0
  store f32 %add, ptr<function, f32> %s.var
  store f32 %t.4, ptr<function, f32> %t.var
  store f32 %inc, ptr<function, f32> %i.var
  br %for.cond
for.end:
  %s.4 = load ptr<function, f32> %s.4.var
  %t.5 = load ptr<function, f32> %t.5.var
  %out.SV_Target0.x = access ptr<output, <4 x f32>> @out.SV_Target0, i32 0
  store f32 %s.4, ptr<output, f32> %out.SV_Target0.x
  %out.SV_Target0.y = access ptr<output, <4 x f32>> @out.SV_Target0, i32 1
  store f32 %t.5, ptr<output, f32> %out.SV_Target0.y
  %out.SV_Target0.z = access ptr<output, <4 x f32>> @out.SV_Target0, i32 2
  store f32 0.0, ptr<output, f32> %out.SV_Target0.z
  %out.SV_Target0.w = access ptr<output, <4 x f32>> @out.SV_Target0, i32 3
  store f32 1.0, ptr<output, f32> %out.SV_Target0.w
  ret
}
