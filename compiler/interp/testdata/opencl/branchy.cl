// Divergent control flow: an early return, a loop with a data-dependent
// trip count, continue and break, a switch with a fallthrough, and the
// patterns clang turns into llvm.smax/smin, llvm.abs, llvm.ctpop,
// llvm.ctlz and llvm.fshl.
__kernel void branchy(__global const int *in, __global int *out) {
  int i = get_global_id(0);
  int v = in[i];
  if (v < -40) {
    out[i] = -v * 3;
    return;
  }
  int acc = v < 0 ? -v : v;
  for (int k = 0; k < (acc & 15); ++k) {
    if ((k ^ v) & 1)
      continue;
    acc += k * 7;
    if (acc > 90)
      break;
  }
  switch (acc % 5) {
  case 0:
    acc += 7;
    break;
  case 1:
    acc -= 3; // fall through
  case 2:
    acc *= 2;
    break;
  case 3:
    acc = acc > 100 ? 100 : acc;
    break;
  default:
    acc = __builtin_popcount(v) + __builtin_clz(v | 1);
  }
  int m = acc > v ? acc : v;
  uint r = ((uint)m << 5) | ((uint)m >> 27);
  out[i] = (int)(r ^ (uint)(v < 50 ? v : 50));
}
