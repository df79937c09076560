// Cross-lane data movement: ds_swizzle in bit-mask mode (swap neighbours:
// xor 1) and quad mode (reverse each quad), ds_bpermute (read lane
// (i + 5) mod 32 by byte address), and permlane64 (the other half of a
// wave of 64).
__kernel void lanes(__global const int *in, __global int *sw, __global int *quad,
                    __global int *perm, __global int *other) {
  size_t i = get_global_id(0);
  int v = in[i];
  uint l = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
  sw[i] = __builtin_amdgcn_ds_swizzle(v, (1 << 10) | 0x1F);
  quad[i] = __builtin_amdgcn_ds_swizzle(v, 0x8000 | (0 << 6) | (1 << 4) | (2 << 2) | 3);
  perm[i] = __builtin_amdgcn_ds_bpermute((int)(((l + 5) & 31) * 4), v);
  other[i] = __builtin_amdgcn_permlane64(v);
}
