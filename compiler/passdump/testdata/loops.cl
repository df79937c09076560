// Loops, a helper function and an early exit: exercises function, SCC and
// loop dumps (LoopRotate, LICM, IndVarSimplify) of opt -O3.
static int weight(int x) { return x * 3 + 1; }

__kernel void prefix(__global float *out, __global const float *in, int n) {
  int i = get_global_id(0);
  float acc = 0;
  for (int j = 0; j <= i && j < n; j++)
    acc += in[j];
  out[i] = acc;
}

__kernel void capped(__global int *out, int n) {
  int s = 0;
  for (int j = 0; j < n; j++) {
    s += weight(j);
    if (s > 100)
      break;
  }
  out[get_global_id(0)] = s;
}

__kernel void nested(__global float *m, int rows, int cols) {
  int r = get_global_id(0);
  for (int k = 0; k < rows; k++)
    for (int c = 0; c < cols; c++)
      if (k != r)
        m[r * cols + c] -= m[k * cols + c] * 0.5f;
}
