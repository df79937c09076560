// Selecting between two buffers, address-space casts to generic.
void store_generic(int *p, int v) { *p = v; }
__kernel void psel(__global int *a, __global int *b, int which) {
  int i = get_global_id(0);
  __global int *p = (i & 1) ? a : b;
  __global int *q = which ? a : b;
  p[i] = q[i] + 1;
  store_generic((int *)&a[i], i);
}
