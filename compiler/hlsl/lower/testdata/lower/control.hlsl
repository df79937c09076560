// Structured control flow: if/else, for with break and continue, while,
// do-while, and a switch with fallthrough, a grouped label and default in
// the middle.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(4, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  int n = tid.x;
  int acc = 0;
  if (n > 2)
    acc = 1;
  else
    acc = -1;
  for (int i = 0; i < 4; ++i) {
    if (i == n)
      continue;
    if (acc > 10)
      break;
    acc += i;
  }
  while (acc < 20)
    acc *= 2;
  do {
    acc--;
  } while (acc > 30);
  switch (n) {
  case 0:
    acc += 100;
  default:
    acc += 1000;
    break;
  case 1:
  case 2:
    acc = 0;
  }
  Out[n] = acc;
}
