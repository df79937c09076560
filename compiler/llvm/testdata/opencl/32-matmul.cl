// Tiled matrix multiply with a local tile.
#define T 8
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int N) {
  __local float As[T][T], Bs[T][T];
  int r = get_global_id(1), c = get_global_id(0);
  int lr = get_local_id(1), lc = get_local_id(0);
  float acc = 0.0f;
  for (int t = 0; t < N / T; ++t) {
    As[lr][lc] = A[r * N + t * T + lc];
    Bs[lr][lc] = B[(t * T + lr) * N + c];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < T; ++k)
      acc += As[lr][k] * Bs[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[r * N + c] = acc;
}
