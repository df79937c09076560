// One result per slot for every intrinsic the DXIL back end maps to a dx.op
// call or expands itself (dxop.go). dxop_semantics_test.go maps the dx.op
// calls back to the intrinsics DXIL's opcode table says they compute and
// compares the interpreter's results with the original's: exact, except
// for the documented ulp bounds of the transcendental expansions.
RWStructuredBuffer<float> X : register(u0);
RWStructuredBuffer<float> Y : register(u1);
RWStructuredBuffer<float> OutF : register(u2);
RWStructuredBuffer<int> OutI : register(u3);
RWStructuredBuffer<uint> OutU : register(u4);

#define F(k, e) OutF[i * 40 + k] = e
#define I(k, e) OutI[i * 12 + k] = e
#define U(k, e) OutU[i * 12 + k] = e

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  uint i = tid.x;
  float x = X[i], y = Y[i];
  float s = x * 0.05;
  F(0, exp(x)); F(1, log(abs(x))); F(2, log10(abs(x))); F(3, pow(abs(x), y)); F(4, atan2(x, y));
  F(5, rcp(x)); F(6, lerp(x, y, 0.3)); F(7, fmod(x, y)); F(8, clamp(x, -1.5, 2.5)); F(9, abs(x));
  F(10, saturate(s)); F(11, cos(x)); F(12, sin(x)); F(13, tan(x)); F(14, acos(s)); F(15, asin(s));
  F(16, atan(x)); F(17, cosh(s)); F(18, sinh(s)); F(19, tanh(x)); F(20, exp2(x)); F(21, frac(x));
  F(22, log2(abs(x))); F(23, sqrt(abs(x))); F(24, rsqrt(abs(x))); F(25, round(x)); F(26, floor(x));
  F(27, ceil(x)); F(28, trunc(x)); F(29, max(x, y)); F(30, min(x, y)); F(31, mad(x, y, s));
  F(32, isnan(x / y) ? 1.0 : 0.0); F(33, isinf(x / s) ? 1.0 : 0.0); F(34, f16tof32(asuint(x) & 0xffff));
  F(35, WaveActiveSum(x)); F(36, WavePrefixSum(y)); F(37, WaveActiveMax(x)); F(38, WaveActiveMin(y));
  F(39, WaveReadLaneAt(x, 5));
  int a = int(x * 1000), b = int(y * 77);
  uint u = asuint(x), v = asuint(y);
  I(0, abs(a)); I(1, max(a, b)); I(2, min(a, b)); I(3, mad(a, b, 7)); I(4, firstbithigh(a));
  I(5, clamp(a, -300, 400)); I(6, WaveActiveSum(a)); I(7, WaveActiveMin(b)); I(8, WavePrefixProduct(b & 3));
  I(9, WaveActiveMax(a)); I(10, WaveReadLaneFirst(a)); I(11, WaveActiveBitXor(a));
  U(0, max(u, v)); U(1, min(u, v)); U(2, mad(u, v, 3u)); U(3, countbits(u)); U(4, firstbitlow(u));
  U(5, firstbithigh(u)); U(6, reversebits(u)); U(7, f32tof16(x)); U(8, WaveActiveSum(u & 255));
  U(9, WaveActiveBallot(x > y).x + WaveActiveCountBits(x > 0) * 1000 + WavePrefixCountBits(y > 0) * 100000);
  U(10, (WaveActiveAnyTrue(x > 19) ? 1 : 0) + (WaveActiveAllTrue(x < 100) ? 2 : 0) + (WaveActiveAllEqual(u) ? 4 : 0) + (WaveIsFirstLane() ? 8 : 0));
  U(11, WaveGetLaneIndex() + WaveGetLaneCount() * 100 + WaveActiveBitAnd(u) + WaveActiveBitOr(v) + WaveActiveProduct(u & 1));
  AllMemoryBarrierWithGroupSync();
}
