// Math builtins lowering to llvm.* intrinsics.
__kernel void mathk(__global float *x) {
  int i = get_global_id(0);
  float v = x[i];
  x[i] = sin(v) + cos(v) + exp(v) + log(v + 2.0f) + pow(v, 1.5f) + floor(v) + mad(v, v, v) + rsqrt(v + 1.0f);
}
