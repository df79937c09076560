// Vector shuffles and conversions.
__kernel void shuf(__global float4 *a, __global int4 *b) {
  int i = get_global_id(0);
  float4 v = a[i];
  int4 m = (int4)(3, 1, 2, 0);
  a[i] = shuffle(v, as_uint4(m));
  b[i] = convert_int4_sat(v * 100.0f) + b[i].yxwz;
}
