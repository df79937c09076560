// Hillis-Steele scan in local memory.
__kernel void scan(__global float *data, __local float *t) {
  int l = get_local_id(0), n = get_local_size(0);
  t[l] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < n; off <<= 1) {
    float v = l >= off ? t[l - off] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    t[l] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = t[l];
}
