// A pixel shader: a struct input flattened to one input global per member,
// a uniform column-major matrix (stored transposed, loaded with transpose)
// and a row-major one, and two outputs.
cbuffer Params : register(b1) {
  float3x2 cm;
  row_major float2x3 rm;
};

struct PSIn {
  float4 pos : SV_Position;
  nointerpolation float2 uv : TEXCOORD1;
};

float4 main(PSIn input, out float depth : SV_Depth) : SV_Target {
  depth = input.pos.z;
  float2 a = mul(input.uv, rm).xy;
  return float4(a + cm[2], input.uv);
}
