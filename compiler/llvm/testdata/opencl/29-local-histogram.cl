// Local histogram with local atomics, then a global merge.
__kernel void hist(__global const uchar *data, __global uint *bins, int n, __local uint *lbins) {
  int l = get_local_id(0);
  if (l < 256) lbins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = get_global_id(0); k < n; k += get_global_size(0))
    atomic_inc(&lbins[data[k]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 256) atomic_add(&bins[l], lbins[l]);
}
