module "sm3_intops.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(8, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %tid.f = uitofp <3 x u32> %tid to <3 x f32>
  %i = extractvalue <3 x f32> %tid.f, 0
  %i2 = fmul f32 %i, 2.0
  %i2.idx = fptosi f32 %i2 to i32
  %a.p = access ptr<storage, [? x i32]> @In, i32 %i2.idx
  %a = load ptr<storage, i32> %a.p
  %a.f = sitofp i32 %a to f32
  %i2b = fadd f32 %i2, 1.0
  %i2b.idx = fptosi f32 %i2b to i32
  %b.p = access ptr<storage, [? x i32]> @In, i32 %i2b.idx
  %b = load ptr<storage, i32> %b.p
  %b.f = sitofp i32 %b to f32
  %base = fmul f32 %i, 16.0
  %r0 = fadd f32 %a.f, %b.f
  %r1 = fsub f32 %a.f, %b.f
  %r2 = fmul f32 %a.f, %b.f
  %r3.q = fdiv f32 %a.f, %b.f
  %r3 = intr f32 trunc(f32 %r3.q)
  %r4 = frem f32 %a.f, %b.f
  %r5 = fmul f32 %a.f, 8.0
  %r6.q = fmul f32 %a.f, 0.25
  %r6 = intr f32 floor(f32 %r6.q)
  %r7.q = fmul f32 %a.f, 0.0625
  %r7.fl = intr f32 floor(f32 %r7.q)
  %r7.hi = fmul f32 %r7.fl, 16.0
  %r7 = fsub f32 %a.f, %r7.hi
  %r8 = fsub f32 -1.0, %a.f
  %r9 = fneg f32 %b.f
  %lt = fcmp olt f32 %a.f, %b.f
  %r10 = select bool %lt, f32 1.0, 0.0
  %eq = fcmp oeq f32 %r7, 3.0
  %r11 = select bool %eq, f32 100.0, -100.0
  %af = copy f32 %a.f
  %half = fmul f32 %af, 0.5
  %r12 = intr f32 trunc(f32 %half)
  %v = construct <2 x f32> (f32 %a.f, f32 %b.f)
  %v2 = fmul <2 x f32> %v, <3.0, -2.0>
  %r13 = extractvalue <2 x f32> %v2, 1
  %ua = copy f32 %r7
  %ub = fadd f32 %ua, 7.0
  %r14u.q = fdiv f32 %ub, 3.0
  %r14u = intr f32 trunc(f32 %r14u.q)
  %r14 = copy f32 %r14u
  %r15 = intr f32 abs(f32 %r1)
  %o0 = fadd f32 %base, 0.0
  %o0.idx = fptosi f32 %o0 to i32
  %p0 = access ptr<storage, [? x i32]> @Out, i32 %o0.idx
  %r0.i = fptosi f32 %r0 to i32
  store i32 %r0.i, ptr<storage, i32> %p0
  %o1 = fadd f32 %base, 1.0
  %o1.idx = fptosi f32 %o1 to i32
  %p1 = access ptr<storage, [? x i32]> @Out, i32 %o1.idx
  %r1.i = fptosi f32 %r1 to i32
  store i32 %r1.i, ptr<storage, i32> %p1
  %o2 = fadd f32 %base, 2.0
  %o2.idx = fptosi f32 %o2 to i32
  %p2 = access ptr<storage, [? x i32]> @Out, i32 %o2.idx
  %r2.i = fptosi f32 %r2 to i32
  store i32 %r2.i, ptr<storage, i32> %p2
  %o3 = fadd f32 %base, 3.0
  %o3.idx = fptosi f32 %o3 to i32
  %p3 = access ptr<storage, [? x i32]> @Out, i32 %o3.idx
  %r3.i = fptosi f32 %r3 to i32
  store i32 %r3.i, ptr<storage, i32> %p3
  %o4 = fadd f32 %base, 4.0
  %o4.idx = fptosi f32 %o4 to i32
  %p4 = access ptr<storage, [? x i32]> @Out, i32 %o4.idx
  %r4.i = fptosi f32 %r4 to i32
  store i32 %r4.i, ptr<storage, i32> %p4
  %o5 = fadd f32 %base, 5.0
  %o5.idx = fptosi f32 %o5 to i32
  %p5 = access ptr<storage, [? x i32]> @Out, i32 %o5.idx
  %r5.i = fptosi f32 %r5 to i32
  store i32 %r5.i, ptr<storage, i32> %p5
  %o6 = fadd f32 %base, 6.0
  %o6.idx = fptosi f32 %o6 to i32
  %p6 = access ptr<storage, [? x i32]> @Out, i32 %o6.idx
  %r6.i = fptosi f32 %r6 to i32
  store i32 %r6.i, ptr<storage, i32> %p6
  %o7 = fadd f32 %base, 7.0
  %o7.idx = fptosi f32 %o7 to i32
  %p7 = access ptr<storage, [? x i32]> @Out, i32 %o7.idx
  %r7.i = fptosi f32 %r7 to i32
  store i32 %r7.i, ptr<storage, i32> %p7
  %o8 = fadd f32 %base, 8.0
  %o8.idx = fptosi f32 %o8 to i32
  %p8 = access ptr<storage, [? x i32]> @Out, i32 %o8.idx
  %r8.i = fptosi f32 %r8 to i32
  store i32 %r8.i, ptr<storage, i32> %p8
  %o9 = fadd f32 %base, 9.0
  %o9.idx = fptosi f32 %o9 to i32
  %p9 = access ptr<storage, [? x i32]> @Out, i32 %o9.idx
  %r9.i = fptosi f32 %r9 to i32
  store i32 %r9.i, ptr<storage, i32> %p9
  %o10 = fadd f32 %base, 10.0
  %o10.idx = fptosi f32 %o10 to i32
  %p10 = access ptr<storage, [? x i32]> @Out, i32 %o10.idx
  %r10.i = fptosi f32 %r10 to i32
  store i32 %r10.i, ptr<storage, i32> %p10
  %o11 = fadd f32 %base, 11.0
  %o11.idx = fptosi f32 %o11 to i32
  %p11 = access ptr<storage, [? x i32]> @Out, i32 %o11.idx
  %r11.i = fptosi f32 %r11 to i32
  store i32 %r11.i, ptr<storage, i32> %p11
  %o12 = fadd f32 %base, 12.0
  %o12.idx = fptosi f32 %o12 to i32
  %p12 = access ptr<storage, [? x i32]> @Out, i32 %o12.idx
  %r12.i = fptosi f32 %r12 to i32
  store i32 %r12.i, ptr<storage, i32> %p12
  %o13 = fadd f32 %base, 13.0
  %o13.idx = fptosi f32 %o13 to i32
  %p13 = access ptr<storage, [? x i32]> @Out, i32 %o13.idx
  %r13.i = fptosi f32 %r13 to i32
  store i32 %r13.i, ptr<storage, i32> %p13
  %o14 = fadd f32 %base, 14.0
  %o14.idx = fptosi f32 %o14 to i32
  %p14 = access ptr<storage, [? x i32]> @Out, i32 %o14.idx
  %r14.i = fptosi f32 %r14 to i32
  store i32 %r14.i, ptr<storage, i32> %p14
  %o15 = fadd f32 %base, 15.0
  %o15.idx = fptosi f32 %o15 to i32
  %p15 = access ptr<storage, [? x i32]> @Out, i32 %o15.idx
  %r15.i = fptosi f32 %r15 to i32
  store i32 %r15.i, ptr<storage, i32> %p15
  ret
}
