// Global atomics from every work-item, no barriers: sum, max, min, a count
// of odd values and an xor. The final values do not depend on the order
// the work-items run in, so a sequential host run is a truth for them.
__kernel void atomics(__global const int *in, __global int *acc) {
  int v = in[get_global_id(0)];
  atomic_add(&acc[0], v);
  atomic_max(&acc[1], v);
  atomic_min(&acc[2], v);
  if (v & 1)
    atomic_inc(&acc[3]);
  atomic_xor(&acc[4], v);
}
