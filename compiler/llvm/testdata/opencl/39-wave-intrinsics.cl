// More AMDGPU builtins: readlane, wave barrier, s_barrier, permlane64-free ops.
__kernel void wave(__global int *out, int lane) {
  int i = get_global_id(0);
  int r = __builtin_amdgcn_readlane(i * 2, lane);
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_s_barrier();
  int u = __builtin_amdgcn_readlane(i, i & 3);
  out[i] = r + u + __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x();
}
