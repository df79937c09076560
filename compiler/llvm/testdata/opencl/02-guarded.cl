// Divergent early return on the global id.
__kernel void guarded(__global int *out, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  out[i] = i * 3;
}
