// Struct members, nested struct copy.
typedef struct { float x, y, z; int tag; } P;
typedef struct { P a, b; } Pair;
__kernel void structs(__global Pair *ps, __global float *out) {
  int i = get_global_id(0);
  Pair p = ps[i];
  P t = p.a;
  p.a = p.b;
  p.b = t;
  ps[i] = p;
  out[i] = p.a.x * p.b.y + (float)p.a.tag;
}
