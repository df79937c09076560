// Blinn-Phong pixel shader with struct input and multiple render targets.
struct Light
{
    float3 dir;
    float intensity;
    float4 color;
};

cbuffer Frame : register(b1)
{
    row_major float4x4 viewProj;
    float3 eye;
    uint lightCount;
    Light lights[4];
};

struct PSIn
{
    float4 pos : SV_Position;
    float3 normal : NORMAL;
    float3 world : TEXCOORD0;
    nointerpolation uint material : TEXCOORD1;
};

struct PSOut
{
    float4 color : SV_Target0;
    float4 normal : SV_Target1;
};

static const float PI = 3.14159265f;
static const float3 ambient = {0.05, 0.05, 0.08};

float3 shade(Light l, float3 n, float3 v, float shininess)
{
    float3 h = normalize(l.dir + v);
    float diff = saturate(dot(n, l.dir));
    float spec = pow(max(dot(n, h), 0.0), shininess);
    return (diff + spec) * l.color.rgb * l.intensity;
}

PSOut main(PSIn input)
{
    PSOut o;
    float3 n = normalize(input.normal);
    float3 v = normalize(eye - input.world);
    float3 c = ambient;
    for (uint i = 0; i < min(lightCount, 4u); i++)
        c += shade(lights[i], n, v, input.material == 1 ? 64.0 : 8.0);
    if (any(isnan(c)))
        discard;
    o.color = float4(c, 1);
    o.normal = float4(n * 0.5 + 0.5, 0);
    return o;
}
