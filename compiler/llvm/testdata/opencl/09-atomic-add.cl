// Global atomics: add and the returned old value.
__kernel void atom(__global int *counter, __global int *slots) {
  int old = atomic_add(counter, 1);
  slots[get_global_id(0)] = old;
}
