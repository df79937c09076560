RWStructuredBuffer<int> Out : register(u0);
RWStructuredBuffer<float> F : register(u1);
static int counter;
int bump() { counter++; return counter; }
void twice(inout float x, out int y) { x = x * 2; y = 7; }
struct S { float2 a; int b[2]; };
S make(int k) { S s = { float2(k, k + 1), { k * 2, k * 3 } }; return s; }
int early(int n) {
  for (int i = 0; ; i++) {
    if (i * i >= n) return i;
  }
}
[numthreads(4, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  int i = tid.x;
  int r = 0;
  // short circuit: bump only when i > 1
  if (i > 1 && bump() > 0) r += 1;
  r = r * 10 + counter;
  // ternary with side effect
  int j = i;
  int t = (i & 1) ? j++ : j--;
  r = r * 10 + t + j;          // odd: i + i+1 ; even: i + i-1
  // comma
  int c = (j = 5, j + 1);
  r = r * 10 + c;
  float x = 1.5;
  int y = 0;
  twice(x, y);
  S s = make(i);
  r = r * 100 + s.b[1] + y;
  Out[tid.x] = r;
  F[tid.x] = x + s.a.y + early(10 + i);
  // swizzle write
  float4 v = float4(1, 2, 3, 4);
  v.wx = float2(9, 8);
  v.y += 0.5;
  F[tid.x + 4] = v.x * 1000 + v.y * 100 + v.z * 10 + v.w;
}
