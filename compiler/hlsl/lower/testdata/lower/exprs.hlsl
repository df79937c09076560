// Expressions: short-circuit &&, a ternary as select and one with side
// effects as control flow, compound assignment with conversion, ++ and
// --, a masked swizzle write, a comma, and conversions.
RWStructuredBuffer<float4> Out : register(u0);

[numthreads(1, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  int i = tid.x;
  float f = 2.5;
  bool b = i > 0 && f < 3.0;
  float s = b ? f : 1.0;
  int k = (i == 0) ? i++ : --i;
  f += i;
  k *= f;
  float4 v = float4(f, s, 0, 1);
  v.zx = float2(k, 3);
  uint u = (i = 4, i + 1);
  Out[tid.x] = v * (float)u;
}
