// Every texture kind and texture method the frontend supports, in a compute
// (main) and a pixel (ps) entry point: the DXIL texture test (texture_test.go).
Texture2D<float4> t : register(t0);
Texture2DArray<float4> ta : register(t1);
Texture1D<float> t1 : register(t2);
Texture3D<float2> t3 : register(t3);
TextureCube<float4> tc : register(t4);
TextureCubeArray<float4> tca : register(t5);
Texture2D<uint4> tu : register(t6);
Texture2D<float> depth : register(t7);
SamplerState s : register(s0);
SamplerComparisonState sc : register(s1);
RWStructuredBuffer<float4> o : register(u0);

float4 all(uint i, float2 uv) {
  uint w, h, l, e;
  t.GetDimensions(0, w, h, l);
  float4 r = t.Sample(s, uv) + t.SampleLevel(s, uv, 1.5, int2(1, -1)) + t.SampleGrad(s, uv, float2(0.1, 0), float2(0, 0.1));
  r += t.SampleBias(s, uv, 0.5) + t.Load(int3(i, 0, 0)) + t.Load(int3(i, 0, 1), int2(i, 1)) + t[uint2(i, 1)];
  r += ta.SampleLevel(s, float3(uv, 1), 0) + t1.SampleLevel(s, uv.x, 0) + t3.SampleLevel(s, float3(uv, 0.5), 0).xyxy;
  r += tc.SampleLevel(s, float3(uv, 1), 0) + tca.SampleLevel(s, float4(uv, 1, 0), 0);
  r += t.Gather(s, uv) + t.GatherGreen(s, uv, int2(1, 1)) + depth.GatherCmp(sc, uv, 0.5);
  r += depth.SampleCmp(sc, uv, 0.5) + depth.SampleCmpLevelZero(sc, uv, 0.5, int2(1, 0));
  ta.GetDimensions(w, h, e);
  t1.GetDimensions(0, w, l);
  tc.GetDimensions(w, h);
  r += float4(tu.Load(int3(i, 0, 0))) + float4(w, h, l, e);
  return r;
}

[numthreads(4,1,1)]
void main(uint3 id : SV_DispatchThreadID) {
  o[id.x] = all(id.x, float2(id.x / 4.0, 0.5));
}

float4 ps(float4 pos : SV_Position) : SV_Target {
  return all(uint(pos.x), pos.xy / 8);
}
