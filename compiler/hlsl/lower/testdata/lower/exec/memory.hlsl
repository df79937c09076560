cbuffer M : register(b0) {
  float2x3 cm;              // column-major: stored transposed
  row_major float2x3 rm;
  float4 k;
};
RWStructuredBuffer<float> F : register(u0);
RWStructuredBuffer<uint> U : register(u1);
RWByteAddressBuffer B : register(u2);
groupshared uint gs[4];
static float s0 = sqrt(16.0);
static const float w[3] = { 1, 2, 3 };

[numthreads(4, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
  uint i = tid.x;
  float2x3 a = cm;
  float3 r1 = a[1];
  float e = cm._m12 + rm[1][2] * 10;      // both = 6 -> 66
  float3 v = mul(float2(1, 2), rm);         // (1*1+2*4, 1*2+2*5, 1*3+2*6) = 9,12,15
  float2 u = mul(cm, float3(1, 1, 1));      // row sums: 6, 15
  float3x2 tr = transpose(a);
  float2x2 sq = mul(a, tr);                 // [[14,32],[32,77]]
  float d = determinant(sq);                // 14*77-32*32 = 54
  a[0] = float3(7, 8, 9);
  a._m11 = 0;
  F[i] = 0;
  if (i == 0) F[0] = r1.x + r1.y + r1.z;    // 15
  if (i == 1) F[1] = e;                     // 66
  if (i == 2) F[2] = v.x * 100 + v.y + v.z; // 927
  if (i == 3) F[3] = u.x * 100 + u.y + d;   // 600+15+54 = 669
  F[4 + i] = a[0][i % 3] + a[1][1] + s0 + w[i % 3];  // (7|8|9|7) + 0 + 4 + (1|2|3|1)
  // groupshared + atomics
  gs[gi] = 0;
  GroupMemoryBarrierWithGroupSync();
  uint old;
  InterlockedAdd(gs[0], i + 1, old);
  InterlockedMax(gs[1], i * 3);
  GroupMemoryBarrierWithGroupSync();
  U[i] = gs[0] * 100 + gs[1];               // 10*100 + 9 = 1009
  U[4 + i] = old;
  uint cmpOut;
  InterlockedCompareExchange(U[8], 0, i + 100, cmpOut);
  // byte address buffer
  B.Store(i * 8, i);
  B.Store2(32 + i * 8, uint2(i, i * 2));
  uint2 l = B.Load2(32 + i * 8);
  uint prev;
  B.InterlockedAdd(64, 1, prev);
  U[12 + i] = l.x + l.y * 10 + B.Load(i * 8) * 100;
  float sn, cs;
  sincos(0.0, sn, cs);
  float ip;
  float fr = modf(2.75, ip);
  F[8 + i] = sn + cs * 10 + fr * 100 + ip * 1000;    // 0 + 10 + 75 + 2000 = 2085
  F[12 + i] = countbits(0xF0u) + firstbithigh(256u) * 10 + asuint(1.0f) / 0x100000;  // 4 + 80 + 1016 = 1100
}
