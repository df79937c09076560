// A uniform trip count loop with a divergent body.
__kernel void loopsum(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int s = 0;
  for (int k = 0; k < n; ++k)
    s += in[i * n + k];
  out[i] = s;
}
