module "ifelse.hlsl"

type %$Globals = { f32 t }

@$Globals = global uniform %$Globals kind "cbuffer"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %c.z.var = alloca f32
  %c.5.x.var = alloca f32
  %c.5.y.var = alloca f32
  %c.5.z.var = alloca f32
  %t = access ptr<uniform, %$Globals> @$Globals, i32 0
  %t.1 = load ptr<uniform, f32> %t
  %cmp = fcmp olt f32 %t.1, 0.5
  selection_merge %if.end
  condbr bool %cmp, %if.then, %if.else
if.then:
  %t.3 = load ptr<uniform, f32> %t
  %mul = fmul f32 %t.3, 2.0
  store f32 %mul, ptr<function, f32> %c.5.x.var
  store f32 0.0, ptr<function, f32> %c.5.y.var
  store f32 0.0, ptr<function, f32> %c.5.z.var
  br %if.end
if.else:
  %t.5 = load ptr<uniform, f32> %t
  %t.7 = load ptr<uniform, f32> %t
  %cmp.1 = fcmp oeq f32 %t.7, 3.0
  store f32 0.0, ptr<function, f32> %c.z.var
  selection_merge %if.end.1
  condbr bool %cmp.1, %if.then.1, %if.end.1
if.then.1:
  store f32 1.0, ptr<function, f32> %c.z.var
  br %if.end.1
if.end.1:
  %c.z = load ptr<function, f32> %c.z.var
  store f32 0.0, ptr<function, f32> %c.5.x.var
  store f32 %t.5, ptr<function, f32> %c.5.y.var
  store f32 %c.z, ptr<function, f32> %c.5.z.var
  br %if.end
if.end:
  %c.5.x = load ptr<function, f32> %c.5.x.var
  %c.5.y = load ptr<function, f32> %c.5.y.var
  %c.5.z = load ptr<function, f32> %c.5.z.var
  %t.9 = load ptr<uniform, f32> %t
  %cmp.2 = fcmp ogt f32 %t.9, 4.0
  selection_merge %if.end.2
  condbr bool %cmp.2, %if.then.2, %if.end.2
if.then.2:
  discard
if.end.2:
  %out.SV_Target0.x = access ptr<output, <4 x f32>> @out.SV_Target0, i32 0
  store f32 %c.5.x, ptr<output, f32> %out.SV_Target0.x
  %out.SV_Target0.y = access ptr<output, <4 x f32>> @out.SV_Target0, i32 1
  store f32 %c.5.y, ptr<output, f32> %out.SV_Target0.y
  %out.SV_Target0.z = access ptr<output, <4 x f32>> @out.SV_Target0, i32 2
  store f32 %c.5.z, ptr<output, f32> %out.SV_Target0.z
  %out.SV_Target0.w = access ptr<output, <4 x f32>> @out.SV_Target0, i32 3
  store f32 1.0, ptr<output, f32> %out.SV_Target0.w
  ret
}
