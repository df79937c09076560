// An array of structs of mixed widths (char at byte 0, int at 4, short at
// 8, float at 12, 16 bytes each): clang addresses the fields with byte
// offsets (getelementptr i8), which the interpreter maps through the
// struct's layout.
typedef struct {
  char c;
  int i;
  short s;
  float f;
} rec;

__kernel void structs(__global const rec *in, __global rec *out) {
  size_t k = get_global_id(0);
  rec r = in[k];
  out[k].c = (char)(r.c + 1);
  out[k].i = r.c * 1000000 + r.i * 100 + r.s + (int)r.f;
  out[k].s = (short)(r.s * 2);
  out[k].f = r.f * 0.5f;
}
