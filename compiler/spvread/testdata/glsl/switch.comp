#version 450
// A switch with fall-through, a default and a nested if.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = data[i];
    uint r = 0u;
    switch (v % 6u) {
    case 0u:
        r = 10u;
        break;
    case 1u:
    case 2u:
        r = v * 2u;
        if (v > 20u) { r += 1u; break; }
        // fall through
    case 3u:
        r += 7u;
        break;
    default:
        r = v ^ 0x55u;
    }
    data[i] = r;
}
