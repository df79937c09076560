// A branch on a readfirstlane value is uniform; on the lane id divergent.
__kernel void rfl(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int u = __builtin_amdgcn_readfirstlane(in[i]);
  int r = 0;
  if (u > 4)
    r = in[u];
  else
    r = i;
  if (i & 1)
    r += 3;
  out[i] = r;
}
