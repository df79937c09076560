// A pixel shader: a procedural checkerboard with a colour from a cbuffer,
// using SV_Position and an interpolated texture coordinate, with discard.
cbuffer Colors : register(b0) {
  float4 tint;
  float scale;
};

struct PSInput {
  float4 pos : SV_Position;
  float2 uv : TEXCOORD0;
};

float4 main(PSInput input) : SV_Target {
  float2 cell = floor(input.pos.xy / scale);
  float checker = fmod(cell.x + cell.y, 2.0);
  if (input.uv.x < 0.0)
    discard;
  float3 rgb = lerp(float3(0.1, 0.1, 0.1), tint.rgb, checker);
  return float4(rgb * saturate(input.uv.y + 0.5), 1.0);
}
