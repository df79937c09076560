module "add-mul.hlsl"

type %$Globals = { <4 x f32> x, <4 x f32> y }

@$Globals = global uniform %$Globals kind "cbuffer"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %x.x = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 0
  %x.y = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 1
  %x.z = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 2
  %x.w = access ptr<uniform, %$Globals> @$Globals, i32 0, i32 3
  %x.1.x = load ptr<uniform, f32> %x.x
  %x.1.y = load ptr<uniform, f32> %x.y
  %x.1.z = load ptr<uniform, f32> %x.z
  %x.1.w = load ptr<uniform, f32> %x.w
  %y.x = access ptr<uniform, %$Globals> @$Globals, i32 1, i32 0
  %y.y = access ptr<uniform, %$Globals> @$Globals, i32 1, i32 1
  %y.z = access ptr<uniform, %$Globals> @$Globals, i32 1, i32 2
  %y.w = access ptr<uniform, %$Globals> @$Globals, i32 1, i32 3
  %y.1.x = load ptr<uniform, f32> %y.x
  %y.1.y = load ptr<uniform, f32> %y.y
  %y.1.z = load ptr<uniform, f32> %y.z
  %y.1.w = load ptr<uniform, f32> %y.w
  %call.x = fadd f32 %x.1.x, %y.1.x
  %call.y = fadd f32 %x.1.y, %y.1.y
  %call.z = fadd f32 %x.1.z, %y.1.z
  %call.w = fadd f32 %x.1.w, %y.1.w
  %x.3.x = load ptr<uniform, f32> %x.x
  %x.3.y = load ptr<uniform, f32> %x.y
  %x.3.z = load ptr<uniform, f32> %x.z
  %x.3.w = load ptr<uniform, f32> %x.w
  %y.3.x = load ptr<uniform, f32> %y.x
  %y.3.y = load ptr<uniform, f32> %y.y
  %y.3.z = load ptr<uniform, f32> %y.z
  %y.3.w = load ptr<uniform, f32> %y.w
  %call.1.x = fmul f32 %x.3.x, %y.3.x
  %call.1.y = fmul f32 %x.3.y, %y.3.y
  %call.1.z = fmul f32 %x.3.z, %y.3.z
  %call.1.w = fmul f32 %x.3.w, %y.3.w
  %add.x = fadd f32 %call.x, %call.1.x
  %add.y = fadd f32 %call.y, %call.1.y
  %add.z = fadd f32 %call.z, %call.1.z
  %add.w = fadd f32 %call.w, %call.1.w
  %out.SV_Target0.x = access ptr<output, <4 x f32>> @out.SV_Target0, i32 0
  store f32 %add.x, ptr<output, f32> %out.SV_Target0.x
  %out.SV_Target0.y = access ptr<output, <4 x f32>> @out.SV_Target0, i32 1
  store f32 %add.y, ptr<output, f32> %out.SV_Target0.y
  %out.SV_Target0.z = access ptr<output, <4 x f32>> @out.SV_Target0, i32 2
  store f32 %add.z, ptr<output, f32> %out.SV_Target0.z
  %out.SV_Target0.w = access ptr<output, <4 x f32>> @out.SV_Target0, i32 3
  store f32 %add.w, ptr<output, f32> %out.SV_Target0.w
  ret
}
