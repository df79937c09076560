// Package lowertest holds the end-to-end tests of the HLSL lowering that
// need the rest of the compiler: loading samples through compiler/load,
// and running every default pass pipeline over lowered shaders while the
// interpreter checks that each pass preserves the shader's results. They
// live apart from packages hlsl and hlsl/lower so that their own tests do not
// depend on the passes, which change often.
package lowertest
