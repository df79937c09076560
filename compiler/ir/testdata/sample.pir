module "sample.hlsl"

type %Light = { <3 x f32> dir, f32 intensity }
type %Params = { %Light light, [4 x f32] weights, <4 x 4 x f32> xform }

@params = global uniform %Params binding 0, 0 kind "cbuffer"
@out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
@shared = global groupshared [64 x u32]
@k = global private <2 x f32> = <1.5, 0x7FC00000>

declare f32 @helper(f32 uniform %x, <4 x f32> %v)

; A compute kernel with a loop and a switch.
define void @main() compute numthreads(64, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %acc0 = alloca f32
  store f32 0.0, ptr<function, f32> %acc0
  br %loop
loop:
  %n = phi u32 [0, %entry], [%n.next, %cont]
  %done = icmp uge u32 %n, 4
  loop_merge %exit, %cont
  condbr bool %done, %exit, %body
body:
  %w = access ptr<uniform, %Params> @params, i32 1, u32 %n
  %wv = load ptr<uniform, f32> %w
  %s = intr f32 sqrt(f32 %wv) ; annotated
  %old = load ptr<function, f32> %acc0
  %new = fadd f32 %old, %s !loc 12:5
  store f32 %new, ptr<function, f32> %acc0
  br %cont
cont:
  %n.next = add u32 %n, 1
  br %loop
exit:
  %sel = bitcast u32 %i to i32
  selection_merge %m
  switch i32 %sel [case 1, 2: %a] [default: %m] [case 3, default: %b]
a:
  br %m
b:
  br %m
m:
  %r = load ptr<function, f32> %acc0
  %slot = access ptr<storage, [? x f32]> @out, u32 %i
  store f32 %r, ptr<storage, f32> %slot
  ret
}
