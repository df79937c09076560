// Work-group tree reduction in local memory with barriers, then one
// atomic per group into the grand total; each group's sum is kept too.
__kernel void reduce(__global const int *in, __global int *total,
                     __global int *groups, __local int *tmp) {
  int l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (l < s)
      tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) {
    groups[get_group_id(0)] = tmp[0];
    atomic_add(total, tmp[0]);
  }
}
