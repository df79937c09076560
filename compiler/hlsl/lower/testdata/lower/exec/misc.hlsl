RWStructuredBuffer<float4> O : register(u0);
RWStructuredBuffer<uint> C : register(u1);
struct P { float2 xy; float z; };
void scale(inout float2 v, float k) { v *= k; }
void setP(out P p, float base) { p.xy = float2(base, base + 1); p.z = base * 2; }
void write(RWStructuredBuffer<float4> dst, uint i, float4 v) { dst[i] = v; }
float sumArr(float a[3]) { return a[0] + a[1] + a[2]; }

[numthreads(2, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  uint i = tid.x;
  float2x2 m = float2x2(1, 2, 3, 4);
  float2x2 n = m * 2 + 1;                  // 3 5 7 9
  bool2x2 gt = n > 5;                      // f f t t
  float4 v = float4(1, 2, 3, 4);
  scale(v.zw, 10);                         // 1 2 30 40
  P p;
  setP(p, 5);
  float arr[3] = { 1, 2, 3 };
  float arr2[3] = arr;
  arr2[1] = 20;
  RWStructuredBuffer<float4> alias = O;
  write(alias, i, float4(n[1], gt[1][0] ? 1 : 0, sumArr(arr) + sumArr(arr2)));  // 7 9 1 30
  float4 w = v;
  w.yx = w.zw;                             // 40 30 30 40
  O[2 + i] = w + float4(p.xy, p.z, 0);     // 45 36 40 40
  int3 iv = int3(-7, 7, 3);
  int3 q = iv / 2;                         // -3 3 1
  int3 r = iv % 2;                         // -1 1 1
  uint u = 0xFFFFFFFFu;
  O[4 + i] = float4(q.x * 10 + r.x, q.y * 10 + r.y, (float)(u >> 28), (float)(iv.x >> 1)); // -31 31 15 -4
  uint c = C.IncrementCounter();
  C[i] = c + 100;
  float3x3 id = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  float3 t = mul(id, float3(1, 2, 3)) + mul(float3(1, 1, 1), id);  // (2,3,4)
  float4x4 big = (float4x4)0;
  big[i + 1] = float4(t, 1);
  O[6 + i] = big[i + 1] + (float4)(float)m._m10;  // t + 3, 1 + 3
}
