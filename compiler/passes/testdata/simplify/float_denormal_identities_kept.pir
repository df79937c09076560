; identities that would keep a denormal are kept
; Exact under IEEE, but each drops the flush of a float32 denormal x
; (D3D's fp32 rule, the interpreter's default).
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
  %a = fsub f32 %x, 0.0
  %b = fadd f32 %a, 0x80000000
  %c = fmul f32 %b, 1.0
  %d = fdiv f32 %c, 1.0
  %e = fmul f32 %d, -1.0
  %f = fsub f32 0x80000000, %e
  %p = access ptr<storage, [? x f32]> @Out, i32 0
  store f32 %f, ptr<storage, f32> %p
  ret
}
