// float4/int8 vector arithmetic and swizzles.
__kernel void vecs(__global float4 *a, __global int8 *b, __global float *out) {
  int i = get_global_id(0);
  float4 v = a[i];
  float4 w = v.wzyx * (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  int8 q = b[i] + (int8)(1);
  b[i] = q.s76543210;
  out[i] = dot(v, w) + (float)q.s3;
}
