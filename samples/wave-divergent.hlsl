// A wave reduction under divergent control: only odd lanes take part in the
// first WaveActiveSum, then every lane reconverges for the second. The
// uniformity overlay shows the divergent branch and the uniform sums.
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(8, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  uint lane = WaveGetLaneIndex();
  uint partial = 0;
  if ((lane & 1) != 0) {
    partial = WaveActiveSum(lane);
  }
  uint total = WaveActiveSum(partial);
  uint first = WaveReadLaneFirst(tid.x);
  Out[tid.x] = total * 100 + partial + first;
}
