// Seed dxil-scalarization.md, "DXIL OP CallInst example": cos(sin(a)) on a
// float4. The scalarize pass splits each elementwise intrinsic into four
// scalar calls with no redundant extract/insert chains.
float4 a;

float4 fn(float4 a) {
  return cos(sin(a));
}

float4 main() : SV_Target {
  return fn(a);
}
