// Nested loops with an inner divergent while and an outer uniform for.
__kernel void nl2(__global int *out, __global const int *lim, int n) {
  int i = get_global_id(0);
  int t = 0;
  for (int a = 0; a < n; ++a) {
    int b = 0;
    while (b < lim[i] + a) {
      t += a ^ b;
      b += 2;
    }
    if (t > 1 << 20) t >>= 3;
  }
  out[i] = t;
}
