; mixed
; run: scalarize
; input: {"uniforms":{"color":[0.5,1.5,-2,4],"dir":[1,2,3],"scale":2}}

module "t"

type %Params = { <4 x f32> color, <3 x f32> dir, f32 scale }

@params = global uniform %Params binding 0, 0 kind "cbuffer"
@Out = global storage [? x <4 x f32>] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
@tmp = global groupshared [8 x <4 x f32>]

define void @main() compute numthreads(8, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %f = uitofp u32 %i to f32
  %P = load ptr<uniform, %Params> @params
  %col = extractvalue %Params %P, 0
  %dir = extractvalue %Params %P, 1
  %v = construct <4 x f32> (f32 %f, f32 1.0, f32 2.0, f32 3.0)
  %sum = fadd <4 x f32> %v, %col
  %gp = access ptr<groupshared, [8 x <4 x f32>]> @tmp, u32 %i
  store <4 x f32> %sum, ptr<groupshared, <4 x f32>> %gp
  %d3 = construct <3 x f32> (f32 %f, f32 %f, f32 1.0)
  %dt = intr f32 dot(<3 x f32> %d3, <3 x f32> %dir)
  %len = intr f32 length(<3 x f32> %d3)
  br %loop
loop:
  %acc = phi <4 x f32> [%sum, %entry], [%acc2, %body]
  %n = phi u32 [0, %entry], [%n2, %body]
  %c = icmp ult u32 %n, 3
  loop_merge %exit, %body
  condbr bool %c, %body, %exit
body:
  %e = extractelement <4 x f32> %acc, u32 %n
  %sp = construct <4 x f32> (f32 %e, f32 %e, f32 %e, f32 %e)
  %acc2 = fmul <4 x f32> %acc, %sp
  %n2 = add u32 %n, 1
  br %loop
exit:
  %ld = load ptr<groupshared, <4 x f32>> %gp
  %cmp = fcmp olt <4 x f32> %acc, %ld
  %sel = select <4 x bool> %cmp, <4 x f32> %acc, %ld
  %ins = insertelement <4 x f32> %sel, f32 %dt, u32 %i
  %sw = shuffle <4 x f32> %ins, <4 x f32> %col, [3, 2, 5, 0]
  %any = intr bool any(<4 x bool> %cmp)
  %l2 = select bool %any, f32 %len, 0.0
  %fin = insertvalue <4 x f32> %sw, f32 %l2, 1
  %op = access ptr<storage, [? x <4 x f32>]> @Out, u32 %i
  store <4 x f32> %fin, ptr<storage, <4 x f32>> %op
  ret
}
