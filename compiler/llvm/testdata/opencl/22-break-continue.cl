// Loop with break and continue on divergent conditions.
__kernel void brk(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int s = 0;
  for (int k = 0; k < n; ++k) {
    int v = in[k];
    if (v == i)
      break;
    if (v & 1)
      continue;
    s += v;
  }
  out[i] = s;
}
