#version 450
// Workgroup memory and barriers: reverse each group's slice.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
shared uint tile[8];
void main() {
    uint l = gl_LocalInvocationIndex;
    tile[l] = data[gl_GlobalInvocationID.x] + gl_WorkGroupID.x * 1000u;
    barrier();
    uint v = tile[7u - l];
    barrier();
    tile[l] = v * 2u;
    memoryBarrierShared();
    barrier();
    data[gl_GlobalInvocationID.x] = tile[l] + tile[(l + 1u) % 8u];
}
