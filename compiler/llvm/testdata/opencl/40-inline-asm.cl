// Inline asm with VGPR and SGPR outputs.
__kernel void iasm(__global int *out, int u) {
  int i = get_global_id(0);
  int v, s;
  __asm__ volatile("v_mov_b32 %0, %1" : "=v"(v) : "v"(i));
  __asm__ volatile("s_mov_b32 %0, %1" : "=s"(s) : "s"(u));
  if (s > 3)
    v += 1;
  out[i] = v + s;
}
