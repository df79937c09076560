// Nested loops, inner bound from the outer index.
__kernel void nested(__global float *m, int rows, int cols) {
  int g = get_global_id(0);
  float acc = 0.0f;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c <= r && c < cols; ++c)
      acc += m[r * cols + c] * (float)g;
  m[g] = acc;
}
