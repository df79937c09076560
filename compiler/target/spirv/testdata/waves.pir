module "waves.pir"

@io = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@fo = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"
@shared = global groupshared [64 x u32]
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
@ltid = global input <3 x u32> semantic "SV_GroupThreadID"

define void @main() compute numthreads(32, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %l3 = load ptr<input, <3 x u32>> @ltid
  %l = extractvalue <3 x u32> %l3, 0
  %p = access ptr<storage, [? x u32]> @io, u32 %i
  %v = load ptr<storage, u32> %p
  %lane = intr u32 WaveGetLaneIndex()
  %cnt = intr u32 WaveGetLaneCount()
  %sum = intr u32 WaveActiveSum(u32 %v)
  %prod = intr u32 WaveActiveProduct(u32 %v)
  %mn = intr u32 WaveActiveMin(u32 %v)
  %mx = intr u32 WaveActiveMax(u32 %v)
  %iv = bitcast u32 %v to i32
  %smn = intr i32 WaveActiveMin(i32 %iv)
  %band = intr u32 WaveActiveBitAnd(u32 %v)
  %bor = intr u32 WaveActiveBitOr(u32 %v)
  %bxor = intr u32 WaveActiveBitXor(u32 %v)
  %odd.b = and u32 %v, 1
  %odd = icmp ne u32 %odd.b, 0
  %all = intr bool WaveActiveAllTrue(bool %odd)
  %any = intr bool WaveActiveAnyTrue(bool %odd)
  %eq = intr bool WaveActiveAllEqual(u32 %v)
  %v2 = construct <2 x u32> (u32 %v, u32 %lane)
  %eq2 = intr <2 x bool> WaveActiveAllEqual(<2 x u32> %v2)
  %bits = intr u32 WaveActiveCountBits(bool %odd)
  %ballot = intr <4 x u32> WaveActiveBallot(bool %odd)
  %pre = intr u32 WavePrefixSum(u32 %v)
  %prep = intr u32 WavePrefixProduct(u32 %v)
  %prec = intr u32 WavePrefixCountBits(bool %odd)
  %first = intr u32 WaveReadLaneFirst(u32 %v)
  %at0 = intr u32 WaveReadLaneAt(u32 %v, u32 0)
  %nl = add u32 %lane, 1
  %nlm = urem u32 %nl, %cnt
  %atn = intr u32 WaveReadLaneAt(u32 %v, u32 %nlm)
  %isfirst = intr bool WaveIsFirstLane()
  %f = uitofp u32 %v to f32
  %fsum = intr f32 WaveActiveSum(f32 %f)
  %fmax = intr f32 WaveActiveMax(f32 %f)
  %fvec = construct <2 x f32> (f32 %f, f32 %fsum)
  %fvs = intr <2 x f32> WavePrefixSum(<2 x f32> %fvec)
  %sp = access ptr<groupshared, [64 x u32]> @shared, u32 %l
  store u32 %sum, ptr<groupshared, u32> %sp
  intr void GroupMemoryBarrierWithGroupSync()
  %l1 = add u32 %l, 1
  %l1m = urem u32 %l1, 32
  %sp2 = access ptr<groupshared, [64 x u32]> @shared, u32 %l1m
  %nb = load ptr<groupshared, u32> %sp2
  %old = atomic add ptr<groupshared, u32> %sp2, u32 1
  intr void AllMemoryBarrierWithGroupSync()
  intr void DeviceMemoryBarrier()
  %all.u = zext bool %all to u32
  %any.u = zext bool %any to u32
  %eq.u = zext bool %eq to u32
  %eq2x = extractelement <2 x bool> %eq2, i32 1
  %eq2.u = zext bool %eq2x to u32
  %first.u = zext bool %isfirst to u32
  %b0 = extractelement <4 x u32> %ballot, u32 0
  %s1 = add u32 %sum, %prod
  %s2 = add u32 %s1, %mn
  %s3 = add u32 %s2, %mx
  %smnu = bitcast i32 %smn to u32
  %s4 = add u32 %s3, %smnu
  %s5 = xor u32 %s4, %band
  %s6 = xor u32 %s5, %bor
  %s7 = xor u32 %s6, %bxor
  %s8 = add u32 %s7, %all.u
  %s9 = add u32 %s8, %any.u
  %s10 = add u32 %s9, %eq.u
  %s11 = add u32 %s10, %eq2.u
  %s12 = add u32 %s11, %bits
  %s13 = add u32 %s12, %b0
  %s14 = add u32 %s13, %pre
  %s15 = add u32 %s14, %prep
  %s16 = add u32 %s15, %prec
  %s17 = add u32 %s16, %first
  %s18 = add u32 %s17, %at0
  %s19 = add u32 %s18, %atn
  %s20 = add u32 %s19, %first.u
  %s21 = add u32 %s20, %nb
  store u32 %s21, ptr<storage, u32> %p
  %fp = access ptr<storage, [? x f32]> @fo, u32 %i
  %fvs1 = extractelement <2 x f32> %fvs, u32 1
  %fr = fadd f32 %fmax, %fvs1
  store f32 %fr, ptr<storage, f32> %fp
  ret
}
