// Atomic min/max/xchg/cmpxchg on global and local memory.
__kernel void atomm(__global int *g, __local int *l, __global int *out) {
  int i = get_local_id(0);
  if (i == 0) *l = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_max(l, i);
  atomic_min(g, i);
  int x = atomic_xchg(g + 1, i);
  int c = atomic_cmpxchg(g + 2, 0, i);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = *l + x + c;
}
