// A pixel shader with a discard before derivatives (lowered as ps.demote:
// DXIL's dx.op.discard does not end the shader) and quad reads.
float4 main(float4 pos : SV_Position) : SV_Target {
  if (frac((floor(pos.x) + floor(pos.y)) / 2) == 0.5)
    discard;
  float v = pos.x * pos.y;
  float2 w = float2(pos.x * pos.x, pos.y);
  return float4(ddx(v), ddy_fine(v), fwidth(w)) + QuadReadAcrossY(w).xyxy;
}
