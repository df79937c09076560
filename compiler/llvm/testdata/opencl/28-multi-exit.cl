// A loop with several exits and returns.
__kernel void mexit(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  for (int k = 0; k < n; ++k) {
    int v = in[k];
    if (v < 0) { out[i] = -k; return; }
    if (v == i) { out[i] = k; return; }
    if (v > 1000) break;
  }
  out[i] = n;
}
