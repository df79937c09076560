struct PSOut { float4 color : SV_Target0; float depth : SV_Depth; };
void main(float4 pos : SV_Position, float2 uv : TEXCOORD0, out float4 extra : SV_Target1, out PSOut o) {
  clip(uv.x - 0.5);
  if (pos.x > 3) discard;
  extra = float4(uv, pos.xy);
  o.color = float4(1, 2, 3, 4);
  o.depth = 0.25;

}
