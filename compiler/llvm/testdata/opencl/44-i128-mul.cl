// mul_hi and 64x64->128-bit style arithmetic.
__kernel void mulhi(__global ulong *out, __global const ulong *a, __global const ulong *b) {
  int i = get_global_id(0);
  out[i] = mul_hi(a[i], b[i]) ^ mad_hi(a[i], b[i], out[i]);
}
