// DXC issue 6957 / llvm-project issue 112056: a switch whose case 0 falls
// through into default, with a wave op on each side. With value = [0, 0, 1, 2]
// the result must be [42, 42, 40, 40]: lanes 0 and 1 add WaveActiveSum(1) = 2,
// then all four lanes reconverge in default and add WaveActiveSum(10) = 40.
// An OpSwitch is not required to reconverge the fallthrough, so a driver may
// give [22, 22, 20, 20]; switch-to-if makes the reconvergence explicit.
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
