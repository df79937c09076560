// Seed dxil-scalarization.md, "Store example": vector stores into a
// groupshared array of float3, scalarized into per-element stores.
groupshared float3 sharedData[2];
RWStructuredBuffer<float> Out : register(u0);

void fn2() {
  sharedData[0] = float3(1.0f, 2.0f, 3.0f);
  sharedData[1] = float3(2.0f, 4.0f, 6.0f);
}

[numthreads(2, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  if (tid.x == 0)
    fn2();
  GroupMemoryBarrierWithGroupSync();
  float3 v = sharedData[tid.x];
  Out[tid.x] = v.x + v.y + v.z;
}
