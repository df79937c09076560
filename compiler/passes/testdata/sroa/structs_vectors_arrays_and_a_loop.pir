; structs vectors arrays and a loop
; run: sroa
; input: {}

module "t"

type %S = { <3 x f32> pos, f32 w, [2 x i32] k }

@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %f = uitofp u32 %i to f32
  %s = alloca %S
  %v = alloca <4 x f32>
  %c = alloca <2 x f32>
  %acc = alloca f32
  %n = alloca u32
  %arr = alloca [4 x f32]
  %pp = access ptr<function, %S> %s, i32 0
  %v0 = construct <3 x f32> (f32 %f, f32 1.0, f32 2.0)
  store <3 x f32> %v0, ptr<function, <3 x f32>> %pp
  %wp = access ptr<function, %S> %s, i32 1
  store f32 3.0, ptr<function, f32> %wp
  %sv = load ptr<function, %S> %s
  %cx = access ptr<function, <2 x f32>> %c, i32 0
  store f32 %f, ptr<function, f32> %cx
  %cy = access ptr<function, <2 x f32>> %c, i32 1
  store f32 5.0, ptr<function, f32> %cy
  %vv = construct <4 x f32> (f32 %f, f32 %f, f32 %f, f32 %f)
  store <4 x f32> %vv, ptr<function, <4 x f32>> %v
  %vz = access ptr<function, <4 x f32>> %v, i32 2
  store f32 7.0, ptr<function, f32> %vz
  %dyn = access ptr<function, <4 x f32>> %v, u32 %i
  %vd = load ptr<function, f32> %dyn
  store f32 0.0, ptr<function, f32> %acc
  store u32 0, ptr<function, u32> %n
  %a0 = access ptr<function, [4 x f32]> %arr, u32 %i
  store f32 1.0, ptr<function, f32> %a0
  br %loop
loop:
  %nv = load ptr<function, u32> %n
  %done = icmp uge u32 %nv, 4
  loop_merge %exit, %cont
  condbr bool %done, %exit, %body
body:
  %old = load ptr<function, f32> %acc
  %ax = load ptr<function, f32> %cx
  %new = fadd f32 %old, %ax
  store f32 %new, ptr<function, f32> %acc
  br %cont
cont:
  %n2 = load ptr<function, u32> %n
  %n3 = add u32 %n2, 1
  store u32 %n3, ptr<function, u32> %n
  br %loop
exit:
  %r = load ptr<function, f32> %acc
  %sw = extractvalue %S %sv, 1
  %t1 = fadd f32 %r, %sw
  %t2 = fadd f32 %t1, %vd
  %cyv = load ptr<function, f32> %cy
  %t3 = fadd f32 %t2, %cyv
  %a1 = access ptr<function, [4 x f32]> %arr, u32 0
  %a1v = load ptr<function, f32> %a1
  %t4 = fadd f32 %t3, %a1v
  %p = access ptr<storage, [? x f32]> @Out, u32 %i
  store f32 %t4, ptr<storage, f32> %p
  ret
}
