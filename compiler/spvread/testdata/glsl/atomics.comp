#version 450
// Atomics whose final values do not depend on the order of lanes.
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) buffer Counters { uint sum; uint maxv; uint minv; uint ored; int signedmin; uint swapped; } c;
void main() {
    uint v = data[gl_GlobalInvocationID.x];
    atomicAdd(c.sum, v);
    atomicMax(c.maxv, v);
    atomicMin(c.minv, v + 5u);
    atomicOr(c.ored, 1u << (v % 32u));
    atomicMin(c.signedmin, int(v) - 30);
    if (gl_GlobalInvocationID.x == 3u) atomicCompSwap(c.swapped, 0u, 77u);
}
