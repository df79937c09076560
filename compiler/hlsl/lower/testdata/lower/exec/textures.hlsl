// Texture methods lowered to tex.* intrinsics (lower_texture.go): the
// location's last component is Load's mip, operator[] reads level 0,
// GetDimensions stores its out parameters in order, a four-offset Gather
// takes component k of the gather at offset k, GatherCmp compares.
Texture2D<float> t : register(t0);
SamplerState s : register(s0);
SamplerComparisonState c : register(s1);
RWStructuredBuffer<float4> Out : register(u0);

[numthreads(1, 1, 1)]
void main() {
    Out[0] = float4(t.Load(int3(1, 0, 0)), t.Load(int3(0, 0, 1)), t.Load(int3(0, 0, 0), int2(1, 1)), t[uint2(1, 1)]);
    uint w, h, l;
    t.GetDimensions(1, w, h, l);
    float fw, fh;
    t.GetDimensions(fw, fh);
    Out[1] = float4(w * 100 + h * 10 + l, fw, fh, 0);
    Out[2] = t.GatherRed(s, float2(0.5, 0.5), int2(1, 0), int2(0, 0), int2(0, 0), int2(0, 0));
    Out[3] = t.GatherCmp(c, float2(0.5, 0.5), 2.5);
}
