// Seed dxil-scalarization.md, "Example 3 add and mul": componentwise fadd and
// fmul on float4, scalarized into four scalar operations each.
float4 x;
float4 y;

float4 add_float(float4 a, float4 b) { return a + b; }
float4 mul_float(float4 a, float4 b) { return a * b; }

float4 main() : SV_Target {
  return add_float(x, y) + mul_float(x, y);
}
