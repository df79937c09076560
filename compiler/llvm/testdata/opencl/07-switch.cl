// A switch on a divergent value.
__kernel void sw(__global int *out, __global const int *op) {
  int i = get_global_id(0);
  int r;
  switch (op[i] & 7) {
  case 0: r = i + 1; break;
  case 1: r = i * 2; break;
  case 2: r = i - 5; break;
  case 3: r = i ^ 0x55; break;
  case 5: r = i << 3; break;
  default: r = 0;
  }
  out[i] = r;
}
