// Manual bit-fields: narrow masks and shifts that the optimiser turns into odd-width integers.
__kernel void bitf(__global uint *bf, __global uint *out) {
  int i = get_global_id(0);
  uint v = bf[i];
  uint a = v & 7, b = (v >> 3) & 0x1fff, c = (v >> 16) & 0x7f, d = v >> 23;
  b = (b + a) & 0x1fff;
  c = d & 0x7f;
  bf[i] = a | (b << 3) | (c << 16) | (d << 23);
  out[i] = a + b + c + d;
}
