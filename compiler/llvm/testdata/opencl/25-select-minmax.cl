// Selects, min/max, clamp, abs.
__kernel void sel(__global int *a, __global float *f) {
  int i = get_global_id(0);
  int v = a[i];
  a[i] = clamp(v, -10, 10) + abs(v) + max(v, i) + (v > 0 ? 1 : -1);
  f[i] = fmin(f[i], 2.0f) + fmax(f[i], -1.0f) + fabs(f[i]);
}
