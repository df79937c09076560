#version 450
// Exact float and integer built-ins, conversions, vectors, a function
// with inout parameters.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) buffer Out { vec4 res[]; };
void bump(inout uint x, inout vec2 y, float s) {
    x += uint(s);
    y = y * s + vec2(1.0, -1.0);
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint u = data[i];
    float f = float(u) * 0.75 - 3.0;
    vec2 p = vec2(f, float(i));
    bump(u, p, 2.0);
    vec4 v = vec4(floor(f), fract(f), mod(f, 2.5), sqrt(abs(f)));
    v = clamp(v, vec4(-2.0), vec4(4.0)) + vec4(min(p.x, p.y), max(p.x, p.y), dot(p, p), 0.0);
    ivec2 q = ivec2(v.xy * 3.0);
    uvec4 bits = uvec4(bitCount(u), findMSB(u), bitfieldReverse(u) >> 24, uint(any(greaterThan(v, vec4(3.0)))));
    res[i] = v + vec4(q.x, q.y, 0.0, 0.0);
    uint fields = bitfieldExtract(u * 2654435761u, 3, 5) + uint(bitfieldExtract(int(u) - 20, 2, 6)) * 64u
        + bitfieldInsert(u, 5u, 4, 3) * 4096u + bitfieldExtract(u, int(i), 0);
    data[i] = bits.x + bits.y * 16u + bits.z * 256u + bits.w * 65536u + u + fields;
}
