// A 2D stencil with boundary conditions.
__kernel void stencil(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h) return;
  float s = in[y * w + x] * 4.0f;
  if (x > 0) s -= in[y * w + x - 1];
  if (x < w - 1) s -= in[y * w + x + 1];
  if (y > 0) s -= in[(y - 1) * w + x];
  if (y < h - 1) s -= in[(y + 1) * w + x];
  out[y * w + x] = s;
}
