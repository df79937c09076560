// Operators, conversions and intrinsics on per-thread data, written to
// buffers: checked against glslangValidator + a Vulkan driver
// (lowertest.TestGlslangDifferential), so no && / || / ?: with side
// effects (glslang evaluates both operands, as HLSL before 2021 did).
RWStructuredBuffer<int> I : register(u0);
RWStructuredBuffer<uint> U : register(u1);
RWStructuredBuffer<float4> F : register(u2);
groupshared uint hist[4];

struct Acc { int sum; float2 w; int last[2]; };

Acc step(Acc a, int v) {
  Acc r = a;
  r.sum += v;
  r.w = r.w * 0.5 + float2(v, -v);
  r.last[1] = r.last[0];
  r.last[0] = v;
  return r;
}

void minmax(int a, int b, out int lo, out int hi) {
  lo = min(a, b);
  hi = max(a, b);
}

[numthreads(16, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
  int t = (int)tid.x - 7;            // -7 .. 8
  uint u = tid.x * 2654435761u;      // wraps
  float f = t * 0.75;
  if (gi < 4)
    hist[gi] = 0;
  GroupMemoryBarrierWithGroupSync();
  InterlockedAdd(hist[tid.x & 3], tid.x);
  InterlockedMax(hist[(tid.x + 1) & 3], u >> 20);

  int base = tid.x * 16;
  I[base + 0] = t / 3;
  I[base + 1] = t % 3;
  I[base + 2] = t >> 1;
  I[base + 3] = t << 3;
  I[base + 4] = (int)f;
  I[base + 5] = (int)(uint)tid.x - 20;
  I[base + 6] = abs(t) * sign(t);
  I[base + 7] = clamp(t * 5, -12, 13);
  I[base + 8] = firstbithigh(t);
  int lo, hi;
  minmax(t, 2 - t, lo, hi);
  I[base + 9] = lo * 100 + hi;
  Acc a = { 0, float2(1, 2), { 0, 0 } };
  for (int k = 0; k < 5; ++k) {
    if (k == t)
      continue;
    a = step(a, k * t);
    if (a.sum > 20)
      break;
  }
  I[base + 10] = a.sum;
  I[base + 11] = a.last[1];
  int2 v2 = int2(t, -t);
  v2.yx += int2(1, 2);
  I[base + 12] = v2.x * 10 + v2.y;
  bool b = t > 0;
  I[base + 13] = b + (t == 0) * 2 + !b * 4;
  int x = t;
  x *= 3;
  x -= 2;
  x &= 0x3F;
  x |= 0x100;
  x ^= 0x5;
  I[base + 14] = x;
  switch (t & 3) {
  case 0: x = 1; break;
  case 1:
  case 2: x = 2;
  default: x += 10;
  }
  I[base + 15] = x;

  U[tid.x * 8 + 0] = u;
  U[tid.x * 8 + 1] = u / 7u + u % 7u;
  U[tid.x * 8 + 2] = countbits(u) + reversebits(u) % 1000u;
  U[tid.x * 8 + 3] = firstbitlow(u) * 100 + firstbithigh(u);
  U[tid.x * 8 + 4] = (uint)(float)(u >> 8);
  U[tid.x * 8 + 5] = asuint(f);
  U[tid.x * 8 + 6] = (uint)max(f, 0.0) + (t < 0 ? 1000u : 2000u);
  GroupMemoryBarrierWithGroupSync();
  U[tid.x * 8 + 7] = hist[tid.x & 3];

  float2x2 m = float2x2(f, 1, 2, f * f);
  float2 r = mul(m, float2(1, -1));
  float2 s = mul(float2(2, 3), m);
  float3 c = cross(float3(f, 1, 0), float3(0, 1, f));
  float4 e = float4(floor(f), ceil(f), frac(f), round(f));
  F[tid.x * 4 + 0] = float4(r, s);
  F[tid.x * 4 + 1] = float4(c, dot(c, c));
  F[tid.x * 4 + 2] = e;
  // fmod of a positive value: glslang lowers fmod to GLSL mod (the sign
  // of y), HLSL fmod has the sign of x.
  F[tid.x * 4 + 3] = float4(lerp(1.0, f, 0.25), saturate(f), fmod(abs(f), 2.0), step(0.5, f));
}
