; Functions that keep vectors, matrices and structs holding them in their
; signatures: calls with constant, constructed and loaded arguments, a
; constant return, an out pointer and a nested call chain
; (TestScalarizeSignatures).
; run: scalarize,simplify
; input: {"buffers":[{"name":"In","data":[-1.75,-1.25,-0.75,-0.25,0.25,0.75,1.25,1.75,2.25,-1.75,-1.25,-0.75,-0.25,0.25,0.75,1.25,1.75,2.25,-1.75,-1.25,-0.75,-0.25,0.25,0.75,1.25,1.75,2.25,-1.75,-1.25,-0.75,-0.25,0.25]}]}

module "t"

type %Light = { <3 x f32> dir, f32 power }

@In = global storage [? x f32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define <2 x 2 x f32> @rot(f32 %a, <2 x f32> %s) {
entry:
  %c = intr f32 cos(f32 %a)
  %n = intr f32 sin(f32 %a)
  %sx = extractvalue <2 x f32> %s, 0
  %sy = extractvalue <2 x f32> %s, 1
  %cx = fmul f32 %c, %sx
  %nx = fmul f32 %n, %sy
  %nn = fneg f32 %nx
  %r0 = construct <2 x f32> (f32 %cx, f32 %nn)
  %r1 = construct <2 x f32> (f32 %n, f32 %c)
  %m = construct <2 x 2 x f32> (<2 x f32> %r0, <2 x f32> %r1)
  ret <2 x 2 x f32> %m
}

define f32 @shade(%Light %l, <3 x f32> %n, ptr<function, <3 x f32>> %out) {
entry:
  %d = extractvalue %Light %l, 0
  %p = extractvalue %Light %l, 1
  %dn = intr f32 dot(<3 x f32> %d, <3 x f32> %n)
  %r = fmul f32 %dn, %p
  %sc = fmul <3 x f32> %n, <2.0, 2.0, 2.0>
  store <3 x f32> %sc, ptr<function, <3 x f32>> %out
  ret f32 %r
}

define <2 x f32> @one(<3 x f32> %v) {
entry:
  %l = intr f32 length(<3 x f32> %v)
  ret <2 x f32> <0.5, 0.25>
}

define <3 x f32> @chain(<3 x f32> %v, %Light %l) {
entry:
  %o = call <2 x f32> @one(<3 x f32> %v)
  %ox = extractvalue <2 x f32> %o, 1
  %d = extractvalue %Light %l, 0
  %r = fmul <3 x f32> %d, %v
  %s = insertelement <3 x f32> %r, f32 %ox, u32 1
  ret <3 x f32> %s
}

define void @main() compute numthreads(8, 1, 1) {
entry:
  %tmp = alloca <3 x f32>
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %xa = access ptr<storage, [? x f32]> @In, u32 %i
  %x = load ptr<storage, f32> %xa
  %j = add u32 %i, 8
  %ya = access ptr<storage, [? x f32]> @In, u32 %j
  %y = load ptr<storage, f32> %ya
  %m = call <2 x 2 x f32> @rot(f32 %x, <2 x f32> <1.5, -0.5>)
  %m01 = extractvalue <2 x 2 x f32> %m, 0, 1
  %m10 = extractvalue <2 x 2 x f32> %m, 1, 0
  %v = construct <3 x f32> (f32 %x, f32 %y, f32 %m01)
  %l = construct %Light (<3 x f32> %v, f32 %m10)
  %sh = call f32 @shade(%Light %l, <3 x f32> <0.0, 1.0, 0.0>, ptr<function, <3 x f32>> %tmp)
  %tv = load ptr<function, <3 x f32>> %tmp
  %c = call <3 x f32> @chain(<3 x f32> %tv, %Light %l)
  %cz = extractvalue <3 x f32> %c, 2
  %cy = extractvalue <3 x f32> %c, 1
  %s0 = fadd f32 %sh, %cz
  %s1 = fadd f32 %s0, %cy
  %op = access ptr<storage, [? x f32]> @Out, u32 %i
  store f32 %s1, ptr<storage, f32> %op
  ret
}
