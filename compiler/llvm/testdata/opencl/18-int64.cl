// 64-bit arithmetic, division, shifts.
__kernel void i64(__global ulong *out, ulong seed, uint n) {
  ulong i = get_global_id(0);
  ulong h = seed ^ (i * 0x9E3779B97F4A7C15UL);
  for (uint k = 0; k < n; ++k) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdUL;
    h ^= h >> 29;
  }
  out[i] = h / (i + 1) + h % 7;
}
