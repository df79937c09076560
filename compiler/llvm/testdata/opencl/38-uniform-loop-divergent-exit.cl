// A uniform loop with a divergent break: values used after the loop.
__kernel void uloop(__global const float *in, __global float *out, int n, float lim) {
  int i = get_global_id(0);
  float acc = 0.0f;
  int k;
  for (k = 0; k < n; ++k) {
    acc += in[k];
    if (acc > lim + (float)i)
      break;
  }
  out[i] = acc + (float)k;
}
