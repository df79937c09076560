#version 450
// Loops with break and continue, a nested loop, integer arithmetic.
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint acc = 0u;
    for (uint k = 0u; k < i; k++) {
        if ((k & 3u) == 1u) continue;
        if (acc > 200u) break;
        // Not data[k]: another invocation (maybe of another workgroup,
        // which may run first on a device) writes it: a race.
        acc += ((7u * k + 3u) % 29u) * 3u + k;
        for (int j = 0; j < int(k % 3u); j++) acc ^= uint(j) << 2;
    }
    int s = int(data[i]) - 40;
    // GLSL leaves % of negative operands undefined (lavapipe computes
    // OpSMod as a remainder): only non-negative ones here.
    data[i] = acc + uint(s / 7) + uint((s + 100) % 7) + (acc >> 3);
}
