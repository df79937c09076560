module "t"

type %S = { <3 x f32> pos, f32 w, [2 x i32] k }

@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %f = uitofp u32 %i to f32
  %arr = alloca [4 x f32]
  %v0 = construct <3 x f32> (f32 %f, f32 1.0, f32 2.0)
  %s.k = construct [2 x i32] (i32 undef, i32 undef)
  %sv = construct %S (<3 x f32> %v0, f32 3.0, [2 x i32] %s.k)
  %vv = construct <4 x f32> (f32 %f, f32 %f, f32 %f, f32 %f)
  %v.1 = insertvalue <4 x f32> %vv, f32 7.0, 2
  %vd = extractelement <4 x f32> %v.1, u32 %i
  %a0 = access ptr<function, [4 x f32]> %arr, u32 %i
  store f32 1.0, ptr<function, f32> %a0
  br %loop
loop:
  %acc = phi f32 [0.0, %entry], [%new, %cont]
  %n = phi u32 [0, %entry], [%n3, %cont]
  %done = icmp uge u32 %n, 4
  loop_merge %exit, %cont
  condbr bool %done, %exit, %body
body:
  %new = fadd f32 %acc, %f
  br %cont
cont:
  %n3 = add u32 %n, 1
  br %loop
exit:
  %sw = extractvalue %S %sv, 1
  %t1 = fadd f32 %acc, %sw
  %t2 = fadd f32 %t1, %vd
  %t3 = fadd f32 %t2, 5.0
  %a1 = access ptr<function, [4 x f32]> %arr, u32 0
  %a1v = load ptr<function, f32> %a1
  %t4 = fadd f32 %t3, %a1v
  %p = access ptr<storage, [? x f32]> @Out, u32 %i
  store f32 %t4, ptr<storage, f32> %p
  ret
}
