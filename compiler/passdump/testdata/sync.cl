// Switches, atomics, barriers and subgroup operations: divergent control
// flow that the uniformity overlay explains.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

__kernel void classify(__global int *out, __global const int *in, volatile __global int *counts) {
  int i = get_global_id(0);
  int v = in[i];
  int k;
  switch (v & 3) {
  case 0: k = v * 2; break;
  case 1: k = v + 7; break;
  case 2: k = -v; break;
  default: k = 0;
  }
  atomic_add(&counts[v & 3], 1);
  out[i] = k;
}

__kernel void reduce(__global int *out, __global const int *in, __local int *tmp) {
  int l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = tmp[0];
}

__kernel void wave(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int v = in[i];
  int total = sub_group_reduce_add(v);
  if (v > 0)
    total += sub_group_broadcast(v, 0);
  out[i] = total;
}
