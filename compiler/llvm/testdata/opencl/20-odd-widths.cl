// Char/short arithmetic and a 33-bit style trip count computation.
__kernel void oddw(__global uchar *c, __global short *s, int n) {
  int i = get_global_id(0);
  uint acc = 0;
  for (int k = i; k < n; k += 3)
    acc += c[k] * (uint)s[k];
  c[i] = (uchar)acc;
  s[i] = (short)(acc >> 8);
}
