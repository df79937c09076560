// Vertex shader with matrices, out parameters and swizzles.
float4x4 world;
float4x4 viewProj;
float3x3 normalMatrix;

void main(float3 pos : POSITION, float3 normal : NORMAL, float2 uv : TEXCOORD0,
          uint vid : SV_VertexID,
          out float4 opos : SV_Position, out float3 onormal : NORMAL, out float2 ouv : TEXCOORD0)
{
    float4 wp = mul(float4(pos, 1.0), world);
    opos = mul(wp, viewProj);
    onormal = normalize(mul(normal, normalMatrix));
    ouv = uv.yx * float2(1, -1) + (vid & 1);
    ouv.x += 0.5f;
}
