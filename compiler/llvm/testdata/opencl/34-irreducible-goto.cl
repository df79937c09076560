// Two loops entered from a divergent branch at either point (a state machine).
__kernel void statem(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int s = in[i] & 3, acc = 0;
  for (int step = 0; step < 20; ++step) {
    switch (s) {
    case 0: acc += 1; s = (acc & 1) ? 1 : 2; break;
    case 1: acc *= 3; s = (acc > 50) ? 3 : 0; break;
    case 2: acc -= 2; s = 1; break;
    default: step = 100;
    }
  }
  out[i] = acc;
}
