// A picture to look at: a lit disc over a ringed gradient, drawn from an
// interpolated texture coordinate and a cbuffer (the lanes pane's image
// view, key p, and `passlens run --png`); every edge is smooth.
cbuffer Scene : register(b0) {
  float4 sky;    // colour at the top
  float4 ground; // colour at the bottom
  float4 disc;   // colour of the disc
  float2 center; // disc centre in texture coordinates
  float radius;
  float rings;   // rings per unit of distance from the centre
};

struct PSInput {
  float4 pos : SV_Position;
  float2 uv : TEXCOORD0;
};

float4 main(PSInput input) : SV_Target {
  float2 d = input.uv - center;
  float r = length(d);
  float3 bg = lerp(sky.rgb, ground.rgb, saturate(input.uv.y));
  bg *= 0.8 + 0.2 * cos(r * rings * 6.2831853);
  float2 q = d / radius;
  float3 n = float3(q, sqrt(saturate(1.0 - dot(q, q))));
  float light = saturate(dot(n, normalize(float3(-0.5, -0.6, 0.8))));
  float3 lit = disc.rgb * (0.2 + 0.8 * light);
  float inside = smoothstep(radius, radius - 0.02, r);
  return float4(lerp(bg, lit, inside), 1.0);
}
