// Float atomics and integer subtraction, which LLVM writes as atomicrmw
// fadd/fmin/fmax/sub and the importer keeps as opaque operations named
// after the operation (llvm.opaque.atomicrmw.fadd, ...); the interpreter
// runs them. The inputs are multiples of 0.25, so the float sum is exact
// in any order.
__kernel void fatomics(__global atomic_float *f, __global atomic_int *c, __global const float *in) {
  size_t i = get_global_id(0);
  float v = in[i];
  __opencl_atomic_fetch_add(f, v, __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
  __opencl_atomic_fetch_min(f + 1, v, __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
  __opencl_atomic_fetch_max(f + 2, v, __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
  __opencl_atomic_fetch_sub(c, (int)i, __ATOMIC_ACQ_REL, __OPENCL_MEMORY_SCOPE_WORK_GROUP);
}
