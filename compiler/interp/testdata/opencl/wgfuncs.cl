// OpenCL 2.0 work-group functions across the waves of a 64-item group:
// reductions, scans, a broadcast from local id 5, any and all. Each
// work-item writes its eight results at out[8*i ...].
__kernel void wgfuncs(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  __global int *o = out + 8 * i;
  o[0] = work_group_reduce_add(v);
  o[1] = work_group_reduce_max(v);
  o[2] = work_group_reduce_min(v);
  o[3] = work_group_scan_inclusive_add(v);
  o[4] = work_group_scan_exclusive_max(v);
  o[5] = work_group_broadcast(v, (size_t)5);
  o[6] = work_group_any(v > 45);
  o[7] = work_group_all(v > -50);
}
