module "cos-sin.hlsl"

type %$Globals = { <4 x f32> a }

@$Globals = global uniform %$Globals kind "cbuffer"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %a.x = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 0
  %a.y = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 1
  %a.z = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 2
  %a.w = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 3
  %a.1.x = load ptr<uniform, f32> %a.x
  %a.1.y = load ptr<uniform, f32> %a.y
  %a.1.z = load ptr<uniform, f32> %a.z
  %a.1.w = load ptr<uniform, f32> %a.w
  %sin.x = intr f32 sin(f32 %a.1.x)
  %sin.y = intr f32 sin(f32 %a.1.y)
  %sin.z = intr f32 sin(f32 %a.1.z)
  %sin.w = intr f32 sin(f32 %a.1.w)
  %call.x = intr f32 cos(f32 %sin.x)
  %call.y = intr f32 cos(f32 %sin.y)
  %call.z = intr f32 cos(f32 %sin.z)
  %call.w = intr f32 cos(f32 %sin.w)
  %out.SV_Target0.x = access ptr<output, <4 x f32>> @out.SV_Target0, i32 0
  store f32 %call.x, ptr<output, f32> %out.SV_Target0.x
  %out.SV_Target0.y = access ptr<output, <4 x f32>> @out.SV_Target0, i32 1
  store f32 %call.y, ptr<output, f32> %out.SV_Target0.y
  %out.SV_Target0.z = access ptr<output, <4 x f32>> @out.SV_Target0, i32 2
  store f32 %call.z, ptr<output, f32> %out.SV_Target0.z
  %out.SV_Target0.w = access ptr<output, <4 x f32>> @out.SV_Target0, i32 3
  store f32 %call.w, ptr<output, f32> %out.SV_Target0.w
  ret
}
