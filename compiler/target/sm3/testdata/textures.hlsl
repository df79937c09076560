// SM3 texture reads: every kind of read and sampler declaration
// (golden: textures.golden.asm, TestTextureGolden).
Texture2D t2 : register(t0);
TextureCube tc : register(t1);
Texture3D tv : register(t2);
SamplerState s : register(s1);
SamplerState p : register(s0);

float4 main(float2 uv : TEXCOORD0, float3 dir : TEXCOORD1, float4 g : TEXCOORD2) : SV_Target
{
    float4 a = t2.Sample(s, uv);
    float4 b = t2.SampleLevel(p, uv, g.x);
    float4 c = t2.SampleGrad(s, uv, g.xy, g.zw);
    float4 d = t2.SampleBias(s, uv, g.w);
    float4 e = tc.Sample(s, dir);
    float f = tv.SampleLevel(p, dir, 2).y;
    return a + b + c + d + e + f;
}
