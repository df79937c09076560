// A noinline helper: calls are sources of divergence.
__attribute__((noinline)) float helper(float a, float b) { return a * b + 1.0f; }
__kernel void calls(__global float *out, float u) {
  int i = get_global_id(0);
  float x = helper(u, u);
  float y = helper((float)i, u);
  out[i] = x + y;
}
