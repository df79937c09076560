#version 450
// A fragment shader: the pixel position, a flat input, a uniform block,
// a loop, a discard and two render targets.
layout(location = 0) flat in vec4 color;
layout(location = 0) out vec4 result;
layout(location = 1) out vec4 extra;
layout(set = 0, binding = 0) uniform Params { int count; float scale; } p;
void main() {
    vec2 pos = gl_FragCoord.xy;
    if (int(pos.x) == 3 && int(pos.y) == 1) discard;
    vec4 acc = vec4(0.0);
    for (int i = 0; i < p.count; i++) {
        if (pos.x > float(i)) acc += color * p.scale;
        else acc -= vec4(0.125);
    }
    result = acc + vec4(pos, 0.0, 0.0);
    extra = vec4(floor(pos.x / 2.0), mod(pos.y, 3.0), float(p.count), 1.0);
}
