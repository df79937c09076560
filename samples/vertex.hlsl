// A vertex shader: transforms a position by a row-major matrix from a
// cbuffer and passes a colour and a texture coordinate through.
cbuffer Transform : register(b0) {
  row_major float4x4 worldViewProj;
};

struct VSInput {
  float3 position : POSITION;
  float4 color : COLOR0;
  float2 uv : TEXCOORD0;
};

struct VSOutput {
  float4 position : SV_Position;
  float4 color : COLOR0;
  float2 uv : TEXCOORD0;
};

VSOutput main(VSInput input) {
  VSOutput o;
  o.position = mul(float4(input.position, 1.0), worldViewProj);
  o.color = input.color;
  o.uv = input.uv * 2.0 - 1.0;
  return o;
}
