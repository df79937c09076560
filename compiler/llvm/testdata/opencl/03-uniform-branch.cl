// A branch on a kernel argument only: uniform.
__kernel void ubranch(__global float *out, int mode, float v) {
  int i = get_global_id(0);
  float r;
  if (mode == 1)
    r = v * 2.0f;
  else if (mode == 2)
    r = v + 1.0f;
  else
    r = -v;
  out[i] = r;
}
