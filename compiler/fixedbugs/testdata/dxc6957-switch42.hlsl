// DXC issue 6957 / llvm-project issue 112056 ("[SPIR-V] Don't lower switch
// statements to OpSwitch"), reproduced as written there. Given the input
// value = [0, 0, 1, 2] the computed output should be [42, 42, 40, 40]:
// lanes 0 and 1 add WaveActiveSum(1) = 2, then all four lanes reconverge in
// default and add WaveActiveSum(10) = 40. OpSwitch, even with
// SPV_KHR_maximal_reconvergence, need not reconverge the fallthrough, and a
// driver keeping the case-0 lanes apart gives [22, 22, 20, 20].
//
// The sm3 target has no wave operations and must say so, located:
// fixedbugs: sm3 rejects "wave operation"
// Input: dxc6957-switch42.json; the right result:
// fixedbugs: buffer value = 42 42 40 40
RWBuffer<int> value;

[numthreads(4, 1, 1)]
void main(uint3 threadID : SV_DispatchThreadID) {
  uint sum = 0;
  switch (value[threadID.x]) {
    case 0:
      sum += WaveActiveSum(1);
    default:
      sum += WaveActiveSum(10);
      break;
  }
  value[threadID.x] = sum;
}
