// Seed dxil-scalarization.md, "BitCast": a <4 x i32> reinterpreted as
// <4 x float> (asfloat) then added and multiplied; scalarized per element.
float4 f;
int4 i;

float4 add_float_int(float4 a, int4 b) { return a + asfloat(b); }
float4 mul_float_int(float4 a, int4 b) { return a * asfloat(b); }

float4 main() : SV_Target {
  return add_float_int(f, i) + mul_float_int(f, i);
}
