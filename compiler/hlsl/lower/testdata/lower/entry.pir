module "entry.hlsl"

type %Params = { <2 x 3 x f32> cm, <2 x 3 x f32> rm }
type %PSIn = { <4 x f32> pos, <2 x f32> uv }

@Params = global uniform %Params binding 0, 1 kind "cbuffer"
@input.pos = global input <4 x f32> semantic "SV_Position"
@input.uv = global input <2 x f32> semantic "TEXCOORD1" flat
@out.depth = global output f32 semantic "SV_Depth"
@out.SV_Target0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %input = alloca %PSIn
  %depth = alloca f32
  %a = alloca <2 x f32>
  %input.pos = load ptr<input, <4 x f32>> @input.pos
  %input.pos.1 = access ptr<function, %PSIn> %input, i32 0
  store <4 x f32> %input.pos, ptr<function, <4 x f32>> %input.pos.1
  %input.uv = load ptr<input, <2 x f32>> @input.uv
  %input.uv.1 = access ptr<function, %PSIn> %input, i32 1
  store <2 x f32> %input.uv, ptr<function, <2 x f32>> %input.uv.1
  %input.pos.2 = access ptr<function, %PSIn> %input, i32 0
  %input.pos.3 = load ptr<function, <4 x f32>> %input.pos.2
  %input.pos.z = extractvalue <4 x f32> %input.pos.3, 2
  store f32 %input.pos.z, ptr<function, f32> %depth
  %input.uv.2 = access ptr<function, %PSIn> %input, i32 1
  %input.uv.3 = load ptr<function, <2 x f32>> %input.uv.2
  %rm = access ptr<uniform, %Params> @Params, i32 1
  %rm.1 = load ptr<uniform, <2 x 3 x f32>> %rm
  %mul = intr <3 x f32> mul(<2 x f32> %input.uv.3, <2 x 3 x f32> %rm.1)
  %swizzle = shuffle <3 x f32> %mul, <3 x f32> %mul, [0, 1]
  store <2 x f32> %swizzle, ptr<function, <2 x f32>> %a
  %a.1 = load ptr<function, <2 x f32>> %a
  %cm = access ptr<uniform, %Params> @Params, i32 0
  %cm.1 = load ptr<uniform, <2 x 3 x f32>> %cm
  %transpose = intr <3 x 2 x f32> transpose(<2 x 3 x f32> %cm.1)
  %cm.2 = extractvalue <3 x 2 x f32> %transpose, 2
  %add = fadd <2 x f32> %a.1, %cm.2
  %elem = extractvalue <2 x f32> %add, 0
  %elem.1 = extractvalue <2 x f32> %add, 1
  %input.uv.4 = access ptr<function, %PSIn> %input, i32 1
  %input.uv.5 = load ptr<function, <2 x f32>> %input.uv.4
  %elem.2 = extractvalue <2 x f32> %input.uv.5, 0
  %elem.3 = extractvalue <2 x f32> %input.uv.5, 1
  %vec = construct <4 x f32> (f32 %elem, f32 %elem.1, f32 %elem.2, f32 %elem.3)
  %out.depth = load ptr<function, f32> %depth
  store f32 %out.depth, ptr<output, f32> @out.depth
  store <4 x f32> %vec, ptr<output, <4 x f32>> @out.SV_Target0
  ret
}
