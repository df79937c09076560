// Scoped atomics on float and int with orderings (clang's __opencl_atomic builtins).
__kernel void fatom(__global atomic_float *f, __global atomic_int *c, float v) {
  __opencl_atomic_fetch_add(f, v * (float)get_global_id(0), __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
  int o = __opencl_atomic_fetch_sub(c, 1, __ATOMIC_ACQ_REL, __OPENCL_MEMORY_SCOPE_WORK_GROUP);
  __opencl_atomic_store(c + 1, o, __ATOMIC_RELEASE, __OPENCL_MEMORY_SCOPE_DEVICE);
  int r = __opencl_atomic_load(c + 2, __ATOMIC_ACQUIRE, __OPENCL_MEMORY_SCOPE_DEVICE);
  __opencl_atomic_fetch_max(c + 3, r, __ATOMIC_SEQ_CST, __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES);
  __opencl_atomic_fetch_min(f + 1, v, __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_SUB_GROUP);
}
