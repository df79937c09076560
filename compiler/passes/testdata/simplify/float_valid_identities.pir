; valid identities
; run: simplify
; The special floats as x: each gives the same bits before and after.
; input: {"uniforms":{"x":"0.0"}}
; input: {"uniforms":{"x":"-0.0"}}
; input: {"uniforms":{"x":"inf"}}
; input: {"uniforms":{"x":"-inf"}}
; input: {"uniforms":{"x":"nan"}}
; input: {"uniforms":{"x":1.5}}
; input: {"uniforms":{"x":-2.25}}
; input: {"uniforms":{"x":"0x00000001"}}

module "t"

@x = global uniform f32 binding 0, 0 kind "cbuffer"
@Out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %x = load ptr<uniform, f32> @x
  %g = fneg f32 %x
  %h = fneg f32 %g
  %p = access ptr<storage, [? x f32]> @Out, i32 0
  store f32 %h, ptr<storage, f32> %p
  ret
}
