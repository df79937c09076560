// Trip count depends on the lane: divergent loop exit, temporal divergence.
__kernel void dloop(__global int *out) {
  int i = get_global_id(0);
  int s = 0, k = 0;
  while (k < i % 17) {
    s += k * k;
    ++k;
  }
  out[i] = s + k;
}
