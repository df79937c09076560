#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
// Subgroup operations in uniform and divergent control flow.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = data[i];
    uint r = subgroupAdd(v) + subgroupMax(v) * 3u;
    if ((gl_SubgroupInvocationID & 1u) == 1u) {
        r += subgroupExclusiveAdd(v) + subgroupInclusiveAdd(v) * 5u;
        r += subgroupBallotBitCount(subgroupBallot(v > 10u)) * 100u;
        if (subgroupElect()) r += 1000u;
    }
    r += subgroupBroadcastFirst(v) * 7u + subgroupBroadcast(v, 2u);
    r += subgroupAll(v < 100u) ? 10000u : 0u;
    r += subgroupAny(v == 13u) ? 20000u : 0u;
    data[i] = r + gl_SubgroupSize;
}
