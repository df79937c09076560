RWStructuredBuffer<int> Out : register(u0);
int next() { static int n = 10; n += 1; return n; }
int classify(int x) {
  switch (x) {
  case -1: return 100;
  default:
  case 0: x += 5;
  case 1:
  case 2: { x *= 2; break; }
  case 3: return -3;
  }
  return x;
}
int loops(int n) {
  int s = 0;
  while (true) { s += 1; break; }          // continue unreachable
  do { s += 10; } while (false);
  for (;;) { if (s > 5) break; s = 100; }  // continue reachable? no: both paths exit... 
  for (int i = 0; i < n; i++) {
    switch (i % 3) {
    case 0: continue;
    case 1: s += i; break;
    default: s += 1000;
    }
    if (i == 4) break;
    s += 1;
  }
  int k = 0;
  do { k++; if (k == 2) continue; s += k; } while (k < 3 && s > 0);
  return s;
}
[numthreads(4, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  int i = (int)tid.x - 1;
  Out[tid.x] = classify(i);
  Out[4 + tid.x] = loops(tid.x + 3);
  Out[8 + tid.x] = next() + next();
  if (tid.x == 3) return;
  Out[12 + tid.x] = 1;
}
