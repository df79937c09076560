// OpenCL 2.0 work-group functions.
__kernel void wgf(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int s = work_group_reduce_add(in[i]);
  int b = work_group_broadcast(in[i], 0);
  int a = work_group_all(in[i] > 0);
  out[i] = s + b + a;
}
