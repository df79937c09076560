// A grab bag of language features.
#include "common.hlsli"
#define STR(x) #x
#define CAT(a, b) a##b
#define FIRST(x, ...) (x)
#if defined(USE_FAST) && USE_FAST > 1
#error fast path unsupported
#elif !defined(FOO)
#define FOO 3
#endif

typedef float4 color_t;
typedef int idx_t[2];

uniform float4 tint;
uniform int mode;
RWBuffer<float> outv : register(u1);
ByteAddressBuffer raw : register(t2);

int pick(int a) { return a; }
float pick(float a) { return a * 2; }
float2 pick(float2 a) { return a.yx; }

float4 main(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    color_t c = tint;
    int CAT(va, r) = FOO;
    float arr[] = {1, 2, 3, 4};
    float2x2 m = {arr};
    c.xy = mul(m, uv);
    c.zw += pick(uv);
    c *= FIRST(2, 3, 4);
    uint bits = raw.Load(4) | asuint(c.x);
    switch (mode) {
    case 0:
    case 1:
        c.x = (float)countbits(bits);
        break;
    default:
        c.y = sincos_demo(c.z);
        // fall through
    case 3:
        c = c.wzyx;
    }
    int i = 0;
    do { i += 2; } while (i < var);
    [branch] if (c.w > 0.5) c = lerp(c, 1, 0.5); else c = -c;
    outv[0] = c.x;
    return clamp(c, 0, 1) + (mode == 2 ? 1.0 : 0.0);
}
