// Buffers and memory: a read-only structured buffer of structs, a typed
// buffer, a byte address buffer, groupshared memory with a barrier and
// atomics returning the original value.
struct Item { float4 v; uint id; };
StructuredBuffer<Item> Items : register(t0);
RWBuffer<uint> Counts : register(u1, space2);
RWByteAddressBuffer Raw : register(u2);
groupshared uint total;

[numthreads(8, 1, 1)]
void main(uint gi : SV_GroupIndex) {
  if (gi == 0)
    total = 0;
  GroupMemoryBarrierWithGroupSync();
  uint before;
  InterlockedAdd(total, Items[gi].id, before);
  GroupMemoryBarrierWithGroupSync();
  Counts[gi] = before;
  Raw.Store2(gi * 8, uint2(total, asuint(Items[gi].v.w)));
}
