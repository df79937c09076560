; Every vector intrinsic expanded: bit-identical results, no vector value
; left (TestScalarizeIntrinsicsDifferential).
; run: scalarize,simplify
; input: {"buffers":[{"name":"In","data":[-1.1,-0.618888888888889,-0.1377777777777779,0.3433333333333331,0.8244444444444443,1.3055555555555556,1.7866666666666662,-0.3222222222222223,0.15888888888888875,0.6399999999999999,1.121111111111111,1.6022222222222222,2.083333333333333,2.564444444444444,0.4555555555555555,0.9366666666666666,1.4177777777777776,1.8988888888888886,2.38,2.861111111111111,3.342222222222222,1.2333333333333334,1.7144444444444447,2.195555555555555,2.6766666666666663,3.1577777777777776,3.638888888888889,4.119999999999999,2.011111111111111,2.4922222222222223,2.9733333333333336,3.4544444444444444]}]}

module "t"

@In = global storage [? x f32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"
@Bits = global storage [? x u32] binding 0, 2 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
@k = global private <2 x f32> = <0.25, -0.5>

define void @main() compute numthreads(8, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %ia = access ptr<storage, [? x f32]> @In, u32 %i
  %x = load ptr<storage, f32> %ia
  %j = add u32 %i, 8
  %ja = access ptr<storage, [? x f32]> @In, u32 %j
  %y = load ptr<storage, f32> %ja
  %kp = load ptr<private, <2 x f32>> @k
  %kx = extractvalue <2 x f32> %kp, 0
  %a = construct <3 x f32> (f32 %x, f32 %y, f32 1.5)
  %b = construct <3 x f32> (f32 %y, f32 -2.0, f32 %x)
  %cr = intr <3 x f32> cross(<3 x f32> %a, <3 x f32> %b)
  %nm = intr <3 x f32> normalize(<3 x f32> %cr)
  %rf = intr <3 x f32> reflect(<3 x f32> %nm, <3 x f32> %b)
  %rr = intr <3 x f32> refract(<3 x f32> %rf, <3 x f32> %nm, f32 %kx)
  %ds = intr f32 distance(<3 x f32> %rr, <3 x f32> %a)
  %m = construct <3 x 3 x f32> (<3 x f32> %a, <3 x f32> %b, <3 x f32> %cr)
  %mt = intr <3 x 3 x f32> transpose(<3 x 3 x f32> %m)
  %mm = intr <3 x 3 x f32> mul(<3 x 3 x f32> %m, <3 x 3 x f32> %mt)
  %mv = intr <3 x f32> mul(<3 x 3 x f32> %mm, <3 x f32> %rr)
  %vm = intr <3 x f32> mul(<3 x f32> %mv, <3 x 3 x f32> %m)
  %sv = intr <3 x f32> mul(f32 %x, <3 x f32> %vm)
  %vv = intr f32 mul(<3 x f32> %sv, <3 x f32> %a)
  %det = intr f32 determinant(<3 x 3 x f32> %mm)
  %cl = intr <3 x f32> clamp(<3 x f32> %sv, <3 x f32> <-1.0, -1.0, -1.0>, <3 x f32> <1.0, 1.0, 1.0>)
  %ws = intr <3 x f32> WaveActiveSum(<3 x f32> %cl)
  %wr = intr <3 x f32> WaveReadLaneAt(<3 x f32> %ws, u32 2)
  %we = intr bool WaveActiveAllEqual(<3 x f32> %wr)
  %gt = fcmp ogt <3 x f32> %wr, %a
  %al = intr bool all(<3 x bool> %gt)
  %ballot = intr <4 x u32> WaveActiveBallot(bool %al)
  %bx = extractvalue <4 x u32> %ballot, 0
  %s0 = fadd f32 %ds, %vv
  %s1 = fadd f32 %s0, %det
  %wx = extractelement <3 x f32> %wr, u32 %i
  %s2 = fadd f32 %s1, %wx
  %s3 = select bool %we, f32 %s2, %x
  %op = access ptr<storage, [? x f32]> @Out, u32 %i
  store f32 %s3, ptr<storage, f32> %op
  %bp = access ptr<storage, [? x u32]> @Bits, u32 %i
  store u32 %bx, ptr<storage, u32> %bp
  ret
}
