#pragma OPENCL EXTENSION cl_khr_subgroups : enable
// Subgroup reductions and broadcasts.
__kernel void subg(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int v = in[i];
  int s = sub_group_reduce_add(v);
  int m = sub_group_reduce_max(v);
  int b = sub_group_broadcast(v, 0);
  int any = sub_group_any(v > 10);
  out[i] = s + m + b + any + get_sub_group_local_id();
}
