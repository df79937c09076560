// Stream compaction within a wave: ballot (i64) and mbcnt.lo/hi give each
// kept element its position among the kept lanes below it; popcount of the
// ballot is the wave's count. Correct for wave32 and wave64.
__kernel void compact64(__global const int *in, __global int *pos, __global int *cnt) {
  size_t i = get_global_id(0);
  int keep = in[i] > 0;
  ulong b = __builtin_amdgcn_ballot_w64(keep);
  uint p = __builtin_amdgcn_mbcnt_hi((uint)(b >> 32), __builtin_amdgcn_mbcnt_lo((uint)b, 0u));
  pos[i] = keep ? (int)p : -1;
  cnt[i] = __builtin_popcountl(b);
}
