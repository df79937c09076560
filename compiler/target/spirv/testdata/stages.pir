module "stages.pir"

type %VSOut = { <4 x f32> pos, <2 x f32> uv }

@cb = global uniform <4 x f32> kind "$Globals"
@vid = global input u32 semantic "SV_VertexID"
@vin.pos = global input <3 x f32> semantic "POSITION"
@vout.pos = global output <4 x f32> semantic "SV_Position"
@vout.uv = global output <2 x f32> semantic "TEXCOORD0"
@vout.id = global output u32 semantic "TEXCOORD1"
@fragcoord = global input <4 x f32> semantic "SV_Position"
@uv = global input <2 x f32> semantic "TEXCOORD0"
@id = global input u32 semantic "TEXCOORD1"
@face = global input bool semantic "SV_IsFrontFace"
@color = global output <4 x f32> semantic "SV_Target0"
@normal = global output <4 x f32> semantic "SV_Target1"
@depth = global output f32 semantic "SV_Depth"

define void @vs_main() vertex {
entry:
  %vid = load ptr<input, u32> @vid
  %p = load ptr<input, <3 x f32>> @vin.pos
  %f = uitofp u32 %vid to f32
  %x = extractelement <3 x f32> %p, i32 0
  %y = extractelement <3 x f32> %p, i32 1
  %xs = fadd f32 %x, %f
  %pos = construct <4 x f32> (f32 %xs, f32 %y, f32 0.0, f32 1.0)
  %cb = load ptr<uniform, <4 x f32>> @cb
  %pos2 = fmul <4 x f32> %pos, %cb
  store <4 x f32> %pos2, ptr<output, <4 x f32>> @vout.pos
  %uv = shuffle <3 x f32> %p, <3 x f32> %p, [0, 1]
  store <2 x f32> %uv, ptr<output, <2 x f32>> @vout.uv
  store u32 %vid, ptr<output, u32> @vout.id
  ret
}

define void @ps_main() pixel {
entry:
  %fc = load ptr<input, <4 x f32>> @fragcoord
  %uv = load ptr<input, <2 x f32>> @uv
  %id = load ptr<input, u32> @id
  %face = load ptr<input, bool> @face
  %u = extractelement <2 x f32> %uv, i32 0
  %neg = fcmp olt f32 %u, 0.0
  selection_merge %keep
  condbr bool %neg, %kill, %keep
kill:
  discard
keep:
  %s = intr f32 sin(f32 %u)
  %c = intr f32 cos(f32 %u)
  %l = intr f32 length(<2 x f32> %uv)
  %n = intr <2 x f32> normalize(<2 x f32> %uv)
  %fid = uitofp u32 %id to f32
  %sel = select bool %face, f32 %s, %c
  %col = construct <4 x f32> (f32 %sel, f32 %l, f32 %fid, f32 1.0)
  %sat = intr <4 x f32> saturate(<4 x f32> %col)
  store <4 x f32> %sat, ptr<output, <4 x f32>> @color
  %nx = extractelement <2 x f32> %n, i32 0
  %nv = construct <4 x f32> (f32 %nx, f32 %nx, f32 %nx, f32 %nx)
  store <4 x f32> %nv, ptr<output, <4 x f32>> @normal
  %z = extractelement <4 x f32> %fc, i32 2
  store f32 %z, ptr<output, f32> @depth
  ret
}
