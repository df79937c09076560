// Wave intrinsics and atomics.
RWStructuredBuffer<uint> counts : register(u0);
RWByteAddressBuffer bytes : register(u1);
groupshared uint total;

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint lane = WaveGetLaneIndex();
    uint sum = WaveActiveSum(id.x);
    uint4 ballot = WaveActiveBallot(id.x % 2 == 0);
    bool first = WaveIsFirstLane();
    uint prefix = WavePrefixCountBits(lane > 3);
    uint orig;
    if (first)
        InterlockedAdd(total, sum, orig);
    GroupMemoryBarrierWithGroupSync();
    InterlockedMax(counts[id.x], WaveReadLaneFirst(prefix));
    InterlockedCompareExchange(counts[0], 0, ballot.x, orig);
    bytes.InterlockedAdd(0, 1, orig);
    bytes.Store2(8, uint2(orig, WaveActiveCountBits(true)));
}
