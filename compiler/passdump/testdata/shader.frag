#version 450
// A loop with a divergent branch for spirv-opt --print-all -O.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 result;
layout(set = 0, binding = 0) uniform Params { int count; vec4 step; };

void main() {
  vec4 acc = vec4(0);
  for (int i = 0; i < count; i++) {
    if (color.x > float(i))
      acc += step;
    else
      acc -= color;
  }
  result = acc;
}
