// Structs and arrays: nested struct locals, array indexing with constant and
// dynamic indices, an out parameter, and a struct returned by value. SROA
// splits the aggregates; the dynamically indexed array stays in memory.
struct Light {
  float3 dir;
  float intensity;
};

struct Material {
  float4 albedo;
  Light lights[2];
};

RWStructuredBuffer<float4> Out : register(u0);

Material makeMaterial(float k) {
  Material m;
  m.albedo = float4(k, k * 0.5, k * 0.25, 1.0);
  m.lights[0].dir = float3(0, 1, 0);
  m.lights[0].intensity = 2.0;
  m.lights[1].dir = float3(1, 0, 0);
  m.lights[1].intensity = 0.5;
  return m;
}

void shade(Material m, float3 n, out float4 color) {
  float3 sum = 0;
  for (int i = 0; i < 2; ++i)
    sum += m.lights[i].intensity * saturate(dot(n, m.lights[i].dir));
  color = float4(m.albedo.rgb * sum, m.albedo.a);
}

[numthreads(4, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  float weights[4] = { 0.1, 0.2, 0.3, 0.4 };
  Material m = makeMaterial(weights[tid.x]);
  float4 c;
  shade(m, normalize(float3(1, 1, 0)), c);
  Out[tid.x] = c;
}
