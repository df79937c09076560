// OpenCL integer built-ins that clang leaves as calls with -nogpulib
// (clamp, max, min, abs, popcount, clz, rotate, mul_hi, mad24, add_sat),
// signed and unsigned, accumulated without signed overflow.
__kernel void clmath(__global const int *in, __global int *out) {
  int i = get_global_id(0);
  int v = in[i];
  uint u = (uint)v * 2654435761u;
  uint acc = (uint)clamp(v, -10, 10);
  acc += (uint)max(v, 3) * 7u;
  acc += min(u, 1000u);
  acc += abs(v);
  acc += popcount(u) + clz(u >> (v & 15));
  acc ^= rotate(u, 7u);
  acc += mul_hi(u, 3000000000u) + (uint)mul_hi(v, 100000000);
  acc += (uint)mad24(v, 3, 5) + (uint)add_sat(v, 2147483600);
  out[i] = (int)acc;
}
