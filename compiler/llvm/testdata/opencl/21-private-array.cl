// A private array indexed dynamically (scratch, addrspace(5)).
__kernel void parr(__global int *out, __global const int *idx) {
  int i = get_global_id(0);
  int a[16];
  for (int k = 0; k < 16; ++k)
    a[k] = k * i;
  out[i] = a[idx[i] & 15];
}
