// The worked example of seed switch-to-if-lowering.md, made a complete
// compute shader: the helper functions the seed leaves abstract write to a
// buffer so every path is observable. Case 4 has a conditional break and
// falls through into default, which falls through into case 1/3.
RWStructuredBuffer<uint> Out : register(u0);

static uint trace;

void first() { trace = trace * 10 + 1; }
bool checkSomething(uint sel) { return (sel & 8) != 0; }
void something() { trace = trace * 10 + 2; }
void somethingElse() { trace = trace * 10 + 3; }
void anotherThing() { trace = trace * 10 + 4; }

[numthreads(16, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  uint selector = tid.x % 6;
  if (tid.x >= 8)
    selector = 4;
  trace = 0;
  switch (selector) {
  case 0:
    first();
    break;
  case 4:
    bool cond = checkSomething(tid.x);
    if (cond)
      break;
    // fallthrough into default
  default:
    something();
  case 1:
  case 3:
    somethingElse();
    break;
  case 2:
    anotherThing();
    break;
  }
  Out[tid.x] = trace;
}
