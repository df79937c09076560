// User functions: in, out and inout parameters (copy-in/copy-out through
// temporaries, with a conversion on the way back), a struct returned by
// value and an early return from a loop.
struct Pair { float a; int b; };
RWStructuredBuffer<float> Out : register(u0);

Pair make(float x) {
  Pair p;
  p.a = x;
  p.b = 2;
  return p;
}

void update(inout float x, out float y) {
  x = x + 1;
  y = x * 2;
}

int firstOver(int limit) {
  for (int i = 0; i < 10; ++i) {
    if (i * i > limit)
      return i;
  }
  return -1;
}

[numthreads(1, 1, 1)]
void main() {
  Pair p = make(1.5);
  int y;
  update(p.a, y);
  Out[0] = p.a + y + firstOver(p.b);
}
