module "sm3_intops.pir"

; run: sm3-lower
; data: 17 5 -17 5 100 -7 -100 -7 0 3 1234 13 -5 2 7 7

; Integer operations SM3 carries as floats: thread i reads a = In[2i],
; b = In[2i+1] (b != 0) and writes 16 results to Out[16i ...].

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(8, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %i2 = mul u32 %i, 2
  %a.p = access ptr<storage, [? x i32]> @In, u32 %i2
  %a = load ptr<storage, i32> %a.p
  %i2b = add u32 %i2, 1
  %b.p = access ptr<storage, [? x i32]> @In, u32 %i2b
  %b = load ptr<storage, i32> %b.p
  %base = mul u32 %i, 16
  %r0 = add i32 %a, %b
  %r1 = sub i32 %a, %b
  %r2 = mul i32 %a, %b
  %r3 = sdiv i32 %a, %b
  %r4 = srem i32 %a, %b
  %r5 = shl i32 %a, 3
  %r6 = ashr i32 %a, 2
  %r7 = and i32 %a, 15
  %r8 = not i32 %a
  %r9 = neg i32 %b
  %lt = icmp slt i32 %a, %b
  %r10 = zext bool %lt to i32
  %eq = icmp eq i32 %r7, 3
  %r11 = select bool %eq, i32 100, -100
  %af = sitofp i32 %a to f32
  %half = fmul f32 %af, 0.5
  %r12 = fptosi f32 %half to i32
  %v = construct <2 x i32> (i32 %a, i32 %b)
  %v2 = mul <2 x i32> %v, <3, -2>
  %r13 = extractvalue <2 x i32> %v2, 1
  %ua = bitcast i32 %r7 to u32
  %ub = add u32 %ua, 7
  %r14u = udiv u32 %ub, 3
  %r14 = bitcast u32 %r14u to i32
  %r15 = intr i32 abs(i32 %r1)
  %o0 = add u32 %base, 0
  %p0 = access ptr<storage, [? x i32]> @Out, u32 %o0
  store i32 %r0, ptr<storage, i32> %p0
  %o1 = add u32 %base, 1
  %p1 = access ptr<storage, [? x i32]> @Out, u32 %o1
  store i32 %r1, ptr<storage, i32> %p1
  %o2 = add u32 %base, 2
  %p2 = access ptr<storage, [? x i32]> @Out, u32 %o2
  store i32 %r2, ptr<storage, i32> %p2
  %o3 = add u32 %base, 3
  %p3 = access ptr<storage, [? x i32]> @Out, u32 %o3
  store i32 %r3, ptr<storage, i32> %p3
  %o4 = add u32 %base, 4
  %p4 = access ptr<storage, [? x i32]> @Out, u32 %o4
  store i32 %r4, ptr<storage, i32> %p4
  %o5 = add u32 %base, 5
  %p5 = access ptr<storage, [? x i32]> @Out, u32 %o5
  store i32 %r5, ptr<storage, i32> %p5
  %o6 = add u32 %base, 6
  %p6 = access ptr<storage, [? x i32]> @Out, u32 %o6
  store i32 %r6, ptr<storage, i32> %p6
  %o7 = add u32 %base, 7
  %p7 = access ptr<storage, [? x i32]> @Out, u32 %o7
  store i32 %r7, ptr<storage, i32> %p7
  %o8 = add u32 %base, 8
  %p8 = access ptr<storage, [? x i32]> @Out, u32 %o8
  store i32 %r8, ptr<storage, i32> %p8
  %o9 = add u32 %base, 9
  %p9 = access ptr<storage, [? x i32]> @Out, u32 %o9
  store i32 %r9, ptr<storage, i32> %p9
  %o10 = add u32 %base, 10
  %p10 = access ptr<storage, [? x i32]> @Out, u32 %o10
  store i32 %r10, ptr<storage, i32> %p10
  %o11 = add u32 %base, 11
  %p11 = access ptr<storage, [? x i32]> @Out, u32 %o11
  store i32 %r11, ptr<storage, i32> %p11
  %o12 = add u32 %base, 12
  %p12 = access ptr<storage, [? x i32]> @Out, u32 %o12
  store i32 %r12, ptr<storage, i32> %p12
  %o13 = add u32 %base, 13
  %p13 = access ptr<storage, [? x i32]> @Out, u32 %o13
  store i32 %r13, ptr<storage, i32> %p13
  %o14 = add u32 %base, 14
  %p14 = access ptr<storage, [? x i32]> @Out, u32 %o14
  store i32 %r14, ptr<storage, i32> %p14
  %o15 = add u32 %base, 15
  %p15 = access ptr<storage, [? x i32]> @Out, u32 %o15
  store i32 %r15, ptr<storage, i32> %p15
  ret
}
