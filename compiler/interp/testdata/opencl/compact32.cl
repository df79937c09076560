// The wave32 form of compact64: ballot (i32), mbcnt.lo, and the first
// lane's value broadcast with readfirstlane.
__kernel void compact32(__global const int *in, __global int *pos, __global int *cnt) {
  size_t i = get_global_id(0);
  int keep = in[i] > 0;
  uint b = __builtin_amdgcn_ballot_w32(keep);
  uint p = __builtin_amdgcn_mbcnt_lo(b, 0u);
  pos[i] = keep ? (int)p : -1;
  cnt[i] = __builtin_popcount(b) * 1000 + __builtin_amdgcn_readfirstlane(in[i]);
}
