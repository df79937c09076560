// A bitonic sorting network step in local memory.
__kernel void bitonic(__global int *data, __local int *t, int n) {
  int l = get_local_id(0);
  t[l] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 2; k <= n; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      int p = l ^ j;
      if (p > l) {
        int a = t[l], b = t[p];
        bool up = (l & k) == 0;
        if ((a > b) == up) { t[l] = b; t[p] = a; }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  data[get_global_id(0)] = t[l];
}
