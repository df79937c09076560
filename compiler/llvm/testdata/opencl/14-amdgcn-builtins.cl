// AMDGPU builtins: readfirstlane, ballot, mbcnt, ds_bpermute.
__kernel void amdb(__global unsigned *out) {
  unsigned i = get_global_id(0);
  unsigned f = __builtin_amdgcn_readfirstlane(i);
  unsigned long bal = __builtin_amdgcn_ballot_w64(i & 1);
  unsigned lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  int p = __builtin_amdgcn_ds_bpermute((int)(lane ^ 1) << 2, (int)i);
  out[i] = f + (unsigned)bal + lane + (unsigned)p;
}
