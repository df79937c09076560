// Nested loops with break and continue: the inner loop's exit depends on a
// per-lane value (divergent cycle exit), so values carried out of it are
// temporally divergent.
RWStructuredBuffer<uint> Out : register(u0);
cbuffer Params : register(b0) {
  uint rows;
  uint cols;
};

[numthreads(8, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  uint acc = 0;
  for (uint i = 0; i < rows; ++i) {
    if (i == 2)
      continue;
    uint j = 0;
    while (true) {
      if (j >= cols || j > tid.x)
        break;
      if ((j & 1) == 1) {
        ++j;
        continue;
      }
      acc += i * j;
      ++j;
    }
    if (acc > 1000)
      break;
  }
  Out[tid.x] = acc;
}
