; The seed's library function (no entry point; hlsl.godbolt.org, -T lib_6_8):
;   export float4 fn(float4 a) { return cos(sin(a)); }
; Nothing calls @fn, so the dxil pipeline's inline pass keeps it as a root.
module "library"

define <4 x f32> @fn(<4 x f32> %a) {
entry:
  %s = intr <4 x f32> sin(<4 x f32> %a)
  %c = intr <4 x f32> cos(<4 x f32> %s)
  ret <4 x f32> %c
}
