#version 450
// The triangle (0,0) (2w,0) (0,2h) covering the viewport, and a constant
// flat color for pixel.frag.
layout(location = 0) flat out vec4 color;
void main() {
    vec2 uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0);
    color = vec4(0.25, 0.5, 0.75, 1.0);
}
