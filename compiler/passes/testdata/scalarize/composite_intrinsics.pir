; smoothstep, step, sign, degrees, radians and ldexp (scalar and vector,
; float and int operands) expanded into scalar arithmetic, bit-identical
; on NaN, infinities, signed zeros and the saturate edges of smoothstep
; (TestScalarizeCompositeIntrinsics).
; run: scalarize,simplify
; input: {"buffers":[{"name":"In","data":["nan","inf","-inf","-0.0",0,1,-1,0.5,2.75,-3.25,1e-30,7,"0x7F7FFFFF",-0.125,0.999,1.001]},{"name":"Ints","data":[0,1,-1,5,-7,2147483647,-2147483648,3,0,2,-2,9,4,-4,6,-6]}]}

module "t"

@In = global storage [? x f32] binding 0, 0 readonly kind "StructuredBuffer"
@Ints = global storage [? x i32] binding 0, 1 readonly kind "StructuredBuffer"
@Out = global storage [? x f32] binding 0, 2 kind "RWStructuredBuffer"
@OutI = global storage [? x i32] binding 0, 3 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %j = xor u32 %i, 5
  %k = xor u32 %i, 10
  %xa = access ptr<storage, [? x f32]> @In, u32 %i
  %x = load ptr<storage, f32> %xa
  %ya = access ptr<storage, [? x f32]> @In, u32 %j
  %y = load ptr<storage, f32> %ya
  %za = access ptr<storage, [? x f32]> @In, u32 %k
  %z = load ptr<storage, f32> %za
  %na = access ptr<storage, [? x i32]> @Ints, u32 %i
  %n = load ptr<storage, i32> %na
  %ss = intr f32 smoothstep(f32 %x, f32 %y, f32 %z)
  %ss1 = intr f32 smoothstep(f32 0.0, f32 1.0, f32 %x)
  %st = intr f32 step(f32 %x, f32 %y)
  %sg = intr i32 sign(f32 %x)
  %sn = intr i32 sign(i32 %n)
  %dg = intr f32 degrees(f32 %x)
  %rd = intr f32 radians(f32 %y)
  %le = intr f32 ldexp(f32 %x, f32 %y)
  %v = construct <3 x f32> (f32 %x, f32 %y, f32 %z)
  %w = construct <3 x f32> (f32 %z, f32 %x, f32 %y)
  %vs = intr <3 x f32> smoothstep(<3 x f32> %v, <3 x f32> %w, <3 x f32> <0.25, 0.5, 0.75>)
  %vt = intr <3 x f32> step(<3 x f32> %w, <3 x f32> %v)
  %vg = intr <3 x i32> sign(<3 x f32> %v)
  %vd = intr <3 x f32> degrees(<3 x f32> %w)
  %vr = intr <3 x f32> radians(<3 x f32> %v)
  %vl = intr <3 x f32> ldexp(<3 x f32> %v, <3 x f32> <1.0, -2.0, 3.0>)
  %s0 = fadd f32 %ss, %ss1
  %s1 = fadd f32 %s0, %st
  %s2 = fadd f32 %s1, %dg
  %s3 = fadd f32 %s2, %rd
  %s4 = fadd f32 %s3, %le
  %d = intr f32 dot(<3 x f32> %vs, <3 x f32> %vt)
  %e = intr f32 dot(<3 x f32> %vd, <3 x f32> %vr)
  %l = intr f32 dot(<3 x f32> %vl, <3 x f32> <1.0, 1.0, 1.0>)
  %s5 = fadd f32 %s4, %d
  %s6 = fadd f32 %s5, %e
  %s7 = fadd f32 %s6, %l
  %o = mul u32 %i, 2
  %op = access ptr<storage, [? x f32]> @Out, u32 %o
  store f32 %s7, ptr<storage, f32> %op
  %o1 = add u32 %o, 1
  %op1 = access ptr<storage, [? x f32]> @Out, u32 %o1
  store f32 %ss, ptr<storage, f32> %op1
  %gx = extractvalue <3 x i32> %vg, 0
  %gy = extractvalue <3 x i32> %vg, 1
  %g0 = mul i32 %sg, 100
  %g1 = mul i32 %sn, 10
  %g2 = add i32 %g0, %g1
  %g3 = add i32 %g2, %gx
  %g4 = mul i32 %gy, 1000
  %g5 = add i32 %g3, %g4
  %oi = access ptr<storage, [? x i32]> @OutI, u32 %i
  store i32 %g5, ptr<storage, i32> %oi
  ret
}
