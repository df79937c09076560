// A do-while with a data-dependent exit (Collatz steps).
__kernel void collatz(__global uint *out) {
  uint x = get_global_id(0) + 1;
  uint steps = 0;
  do {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++steps;
  } while (x != 1 && steps < 1000);
  out[get_global_id(0)] = steps;
}
