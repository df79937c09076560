// A switch on a kernel argument inside a loop.
__kernel void swu(__global float *out, int op, int n) {
  int i = get_global_id(0);
  float v = out[i];
  for (int k = 0; k < n; ++k) {
    switch (op) {
    case 0: v = v * 1.5f; break;
    case 1: v = v + 3.0f; break;
    case 7: v = sqrt(v); break;
    default: v = v - 1.0f;
    }
  }
  out[i] = v;
}
