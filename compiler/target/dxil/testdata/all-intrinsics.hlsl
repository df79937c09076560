// Every HLSL intrinsic of the frontend's list (issue 3), wave operations,
// barriers and atomics, on scalars and vectors, plus helper functions with
// vector parameters and returns. Used by intrinsics_test.go: the
// interpreter's results before and after the dxil pipeline must be
// bit-identical, and the emitted DXIL-style LLVM must verify.
RWStructuredBuffer<float4> In : register(u0);
RWStructuredBuffer<float4> OutF : register(u1);
RWStructuredBuffer<int4> OutI : register(u2);
RWStructuredBuffer<uint4> OutU : register(u3);
RWStructuredBuffer<uint> Counter : register(u4);
groupshared uint shared_sum;
groupshared int shared_min;

float4 mix4(float4 a, float4 b, float t) {
  return lerp(a, b, t) + smoothstep(a, b, t.xxxx);
}

float3 orient(float3 a, float3 b, out float len, inout float2 ab) {
  float3 c = cross(a, b);
  len = length(c);
  ab = ab * 0.5 + float2(dot(a, b), distance(a, b));
  return reflect(normalize(a + 1.5), float3(0, 1, 0)) + c;
}

int3 signs(float3 v, int3 k) {
  return sign(v) * k + sign(k);
}

float2x2 rot(float a) {
  float s, c;
  sincos(a, s, c);
  return float2x2(c, -s, s, c);
}

[numthreads(8, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
  float4 a = In[tid.x];
  float4 b = In[tid.x + 8];
  float4 p = abs(a) + 0.25;
  float x = a.x, y = b.y;
  int4 ia = int4(a * 7);
  uint4 ua = uint4(abs(b) * 1000);
  if (gi == 0) {
    shared_sum = 0;
    shared_min = 1000;
  }
  GroupMemoryBarrierWithGroupSync();

  // Float elementwise intrinsics.
  float4 r = 0;
  r += abs(a) + acos(saturate(b)) + asin(clamp(a, -1, 1)) + atan(a);
  r += atan2(a, b) + ceil(a) + cos(a) + cosh(saturate(a)) + degrees(a) + exp(saturate(b));
  r += exp2(b) + floor(a) + fmod(a, p) + frac(a) + ldexp(a, floor(b)) + lerp(a, b, 0.3);
  r += log(p) + log10(p) + log2(p) + mad(a, b, p) + max(a, b) + min(a, b) + pow(p, b);
  r.x += (float)fma((double)a.x, (double)b.x, (double)p.x); // fma is double-only
  r += radians(a) + rcp(p) + round(a) + rsqrt(p) + saturate(a) + sin(a) + sinh(saturate(b));
  r += smoothstep(a, p, b) + sqrt(p) + step(a, b) + tan(saturate(a)) + tanh(b) + trunc(a);
  float4 ip;
  r += modf(a * 3.5, ip) + ip;
  float sn, cs;
  sincos(x, sn, cs);
  r.x += sn * cs + smoothstep(0.0, 1.0, y) + step(x, y) + degrees(x) + radians(y) + sign(x);
  r.y += dot(a, b) + length(a) + distance(a, b) + determinant(float3x3(a.xyz, b.xyz, p.xyz));
  r.z += determinant(float2x2(a.xy, b.zw)) + determinant(float4x4(a, b, p, a.wzyx));
  r.xyz += cross(a.xyz, b.xyz) + normalize(p.xyz) + reflect(a.xyz, normalize(b.xyz));
  r.xyz += refract(normalize(a.xyz), normalize(b.xyz), 0.7);
  r.z += normalize(x) + reflect(x, y) + refract(x, y, 0.5) + determinant(y) + dot(x, y) + length(y);
  r.w += distance(x, y) + mul(x, y) + transpose(x) + (any(x) ? 1.0 : 0.0) + (all(y) ? 2.0 : 0.0);
  r += mul(float4x4(a, b, p, a.yzwx), b) + mul(a, float4x4(b, p, a, b.wxyz)) + mul(x, b);
  float2x2 m = mul(rot(x), rot(y));
  r.xy += mul(m, a.xy);
  r.w += mul(a.xy, b.xy) + (any(a > b) ? 1.0 : 0.0) + (all(p > 0) ? 2.0 : 0.0);
  r += float4(isinf(a / b)) + 4.0 * float4(isnan(a - a));
  r += mix4(a, b, y);
  float l;
  float2 ab = b.wz;
  r.xyz += orient(a.xyz, b.xyz, l, ab);
  r.w += l + ab.x - ab.y;
  r += mul(rot(b.z), a.zw).xyxy;
  r += f16tof32(uint4(abs(a) * 9000)) + f16tof32(f32tof16(b));
  OutF[tid.x] = r;

  // Integer and bit intrinsics.
  int4 ri = abs(ia) + max(ia, -ia.yzwx) + min(ia, 3) + clamp(ia, -2, 5) + mad(ia, ia, 1);
  ri += sign(a) + sign(ia) + signs(a.xyz, ia.xyz).xyzx + asint(a) + int4(firstbithigh(ia));
  ri += int4(countbits(ia)) + int4(firstbitlow(ia)) + int4(reversebits(ua)) + sign(x);
  OutI[tid.x] = ri;
  uint4 ru = max(ua, 5) + min(ua, 7) + mad(ua, ua, 3u) + countbits(ua) + firstbithigh(ua);
  ru += firstbitlow(ua) + reversebits(ua) + asuint(b) + asuint(asfloat(ua)) + uint4(abs(asfloat(ua)) > 1.0);
  // SM6.4 packed dot products (dot2add's float2 operands round to halves).
  ru.xy += uint2(dot4add_u8packed(ua.x, ua.y, ua.z), (uint)dot4add_i8packed(ua.y, ua.z, ia.w));
  ru.z += asuint(dot2add(a.xy, b.zw, x));

  // Wave operations.
  ru.x += WaveActiveSum(ua.x) + WaveActiveProduct(ua.y & 3) + WaveActiveMin(ua.z) + WaveActiveMax(ua.w);
  ru.y += WaveActiveBitAnd(ua.x) | WaveActiveBitOr(ua.y) ^ WaveActiveBitXor(ua.z);
  ru.z += WavePrefixSum(ua.x) + WavePrefixProduct(ua.y & 1) + WaveReadLaneFirst(ua.z) + WaveReadLaneAt(ua.w, 2);
  ru.w += WaveGetLaneIndex() + WaveGetLaneCount() + (WaveIsFirstLane() ? 1 : 0) + WaveActiveCountBits(ua.x > 500) + WavePrefixCountBits(ua.y > 500);
  ru.w += (WaveActiveAnyTrue(ua.x > 900) ? 10 : 0) + (WaveActiveAllTrue(ua.x < 2000) ? 20 : 0) + (all(WaveActiveAllEqual(ua.xy)) ? 40 : 0) + (WaveActiveAllEqual(ua.z) ? 80 : 0);
  uint4 ballot = WaveActiveBallot(ua.x > 300);
  ru += ballot;
  ru.xy += WaveActiveSum(ua.zw) + WaveReadLaneFirst(ua.xy);
  float4 wf = WaveActiveSum(a) + WaveActiveMax(b) + WavePrefixSum(p);
  ru += asuint(wf);

  // Quad operations (derivatives in compute: shader model 6.6; lanes
  // 4k..4k+3 form a quad).
  float4 qd = ddx(a) + ddy(b) + ddx_coarse(p) + ddy_coarse(a.x) + ddx_fine(b) + ddy_fine(a.yz).xyxy + fwidth(p);
  qd += QuadReadAcrossX(a) + QuadReadAcrossY(b.x) + QuadReadAcrossDiagonal(p.zw).xyxy + QuadReadLaneAt(a, 3);
  ru += asuint(qd) + QuadReadAcrossX(ua) + (QuadAny(ua.x > 500) ? 1 : 0) + (QuadAll(ua.y > 100) ? 2 : 0);

  // Atomics and barriers.
  uint old;
  InterlockedAdd(shared_sum, ua.x, old);
  InterlockedMin(shared_min, ia.x);
  InterlockedMax(Counter[1], ua.y);
  InterlockedAnd(Counter[2], ua.z);
  InterlockedOr(Counter[3], ua.w);
  InterlockedXor(Counter[4], ua.x);
  uint prev;
  InterlockedExchange(Counter[5], tid.x, prev);
  uint cmp;
  InterlockedCompareExchange(Counter[6], 0, tid.x + 1, cmp);
  InterlockedCompareStore(Counter[7], 0, tid.x + 100);
  InterlockedAdd(Counter[0], 1);
  AllMemoryBarrierWithGroupSync();
  DeviceMemoryBarrier();
  GroupMemoryBarrier();
  AllMemoryBarrier();
  DeviceMemoryBarrierWithGroupSync();
  ru.x += shared_sum + uint(shared_min) + (old & 0) + (prev & 0) + (cmp & 0);
  OutU[tid.x] = ru;
}
