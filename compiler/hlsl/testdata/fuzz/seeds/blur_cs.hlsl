// Separable blur compute shader using groupshared memory.
#define GROUP 64
#define RADIUS 4
cbuffer Params : register(b0)
{
    uint width;
    uint height;
    float weights[RADIUS + 1];
};
StructuredBuffer<float4> src : register(t0);
RWStructuredBuffer<float4> dst : register(u0);
groupshared float4 cache[GROUP + 2 * RADIUS];

uint clampIndex(int i, uint n) { return (uint)clamp(i, 0, (int)n - 1); }

[numthreads(GROUP, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID, uint3 gtid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    int x = (int)dtid.x;
    cache[gtid.x + RADIUS] = src[clampIndex(x, width) + dtid.y * width];
    if (gtid.x < RADIUS) {
        cache[gtid.x] = src[clampIndex(x - RADIUS, width) + dtid.y * width];
        cache[gtid.x + GROUP + RADIUS] = src[clampIndex(x + GROUP, width) + dtid.y * width];
    }
    GroupMemoryBarrierWithGroupSync();
    float4 acc = cache[gtid.x + RADIUS] * weights[0];
    [unroll]
    for (int i = 1; i <= RADIUS; ++i)
        acc += (cache[gtid.x + RADIUS - i] + cache[gtid.x + RADIUS + i]) * weights[i];
    if (dtid.x < width && dtid.y < height)
        dst[dtid.x + dtid.y * width] = acc;
}
