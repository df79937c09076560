// A dynamically indexed local array used in a switch case that falls
// through into default (BENCHMARKS.md, "Correctness found on the way": with
// hlslgen -index-in-switch, switch-to-if left a pointer phi that the SPIR-V
// back end rejected, "SPIR-V logical addressing cannot merge pointers",
// after CSE reused a GEP of the fallthrough default past the switch). The
// shape of that reproducer, small: every target but sm3 (no compute stage)
// must compile it and keep its results.
// fixedbugs: sm3 rejects "compute shaders have no SM3 profile"
RWStructuredBuffer<uint> Out;

[numthreads(4, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  uint arr[4] = {1, 2, 3, 4};
  uint s = 0;
  switch (tid.x) {
    case 0:
      s += arr[tid.x & 3];
    default:
      s += arr[(tid.x + 1) & 3];
      arr[(tid.x + 1) & 3] = s;
      break;
    case 2:
      s = 7;
      break;
  }
  Out[tid.x] = s + arr[(tid.x + 1) & 3];
}
