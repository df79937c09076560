// Byte-wise packing/unpacking of colours (uchar4 <-> uint).
__kernel void pack(__global uchar4 *px, __global uint *packed) {
  int i = get_global_id(0);
  uchar4 p = px[i];
  uint v = (uint)p.x | ((uint)p.y << 8) | ((uint)p.z << 16) | ((uint)p.w << 24);
  packed[i] = v;
  px[i] = (uchar4)(p.w, p.z, p.y, p.x);
}
