// Loop conditions that need blocks of their own: && with a control-flow
// ternary calling a function with an inout parameter, and ||.
RWStructuredBuffer<int> B;
int inc(inout int k) { return ++k; }
[numthreads(1,1,1)]
void main() {
  int i = 0, k = 0, n = 0;
  for (; i < 10 && (i < 3 ? true : inc(k) < 5); i++)
    n += i;
  while (n > 0 || k > 100)
    n -= 4;
  B[0] = n;
  B[1] = k;
  B[2] = i;
}
