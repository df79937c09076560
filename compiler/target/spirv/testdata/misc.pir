module "misc.pir"

type %S = { f32 a, <2 x i32> b, bool c, [2 x f32] d }

@out = global storage [? x %S] binding 0, 0 kind "RWStructuredBuffer"
@m = global storage [? x <3 x 3 x f32>] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <2 x u32> semantic "SV_DispatchThreadID"

define void @fill(ptr<function, %S> %s, f32 %x) {
entry:
  %ap = access ptr<function, %S> %s, i32 0
  store f32 %x, ptr<function, f32> %ap
  ret
}

define void @main() compute numthreads(4, 1, 1) {
entry:
  %tid = load ptr<input, <2 x u32>> @tid
  %i = extractelement <2 x u32> %tid, i32 0
  %tmp = alloca %S
  memset ptr<function, %S> %tmp, u32 0
  %f = uitofp u32 %i to f32
  call void @fill(ptr<function, %S> %tmp, f32 %f)
  %op = access ptr<storage, [? x %S]> @out, u32 %i
  memcpy ptr<storage, %S> %op, ptr<function, %S> %tmp
  %s = load ptr<function, %S> %tmp
  %odd = trunc u32 %i to bool
  %z = insertvalue %S %s, bool %odd, 2
  %w = select bool %odd, %S %s, %z
  store %S %w, ptr<storage, %S> %op
  %mp = access ptr<storage, [? x <3 x 3 x f32>]> @m, u32 %i
  %mat = load ptr<storage, <3 x 3 x f32>> %mp
  %t = intr <3 x 3 x f32> transpose(<3 x 3 x f32> %mat)
  %mm = intr <3 x 3 x f32> mul(<3 x 3 x f32> %mat, <3 x 3 x f32> %t)
  %v = construct <3 x f32> (f32 1.0, f32 2.0, f32 %f)
  %mv = intr <3 x f32> mul(<3 x 3 x f32> %mm, <3 x f32> %v)
  %vm = intr <3 x f32> mul(<3 x f32> %v, <3 x 3 x f32> %mm)
  %d = intr f32 dot(<3 x f32> %mv, <3 x f32> %vm)
  %det = intr f32 determinant(<3 x 3 x f32> %mm)
  %r = fadd f32 %d, %det
  %row = construct <3 x f32> (f32 %r, f32 %r, f32 %r)
  %mm2 = insertvalue <3 x 3 x f32> %mm, <3 x f32> %row, 0
  store <3 x 3 x f32> %mm2, ptr<storage, <3 x 3 x f32>> %mp
  %si = bitcast u32 %i to i32
  %neg = sub i32 0, %si
  %ab = intr i32 abs(i32 %neg)
  %cl = intr i32 clamp(i32 %neg, i32 -2, i32 2)
  %sg = intr i32 sign(i32 %neg)
  %fb = intr u32 firstbithigh(u32 %i)
  %fl = intr u32 firstbitlow(u32 %i)
  %cb = intr u32 countbits(u32 %i)
  %rb = intr u32 reversebits(u32 %i)
  %ud = udiv i32 %si, 3
  %ur = urem i32 %si, 3
  %sh = shl i32 %ud, 2
  %ash = ashr i32 %neg, 1
  %lsh = lshr i32 %neg, 1
  %fi = fptoui f32 %f to i32
  %fs = fptosi f32 %f to i32
  %z64 = zext i32 %fi to i64
  %s64 = sext i32 %fs to i64
  %a64 = add i64 %z64, %s64
  %t32 = trunc i64 %a64 to i32
  %bb = icmp ult i32 %t32, %sh
  %bz = zext bool %bb to i32
  %bs = sext bool %bb to i32
  %acc1 = add i32 %ab, %cl
  %acc2 = add i32 %acc1, %sg
  %fbi = bitcast u32 %fb to i32
  %acc3 = add i32 %acc2, %fbi
  %acc4 = add i32 %acc3, %ur
  %acc5 = add i32 %acc4, %ash
  %acc6 = xor i32 %acc5, %lsh
  %acc7 = add i32 %acc6, %bz
  %acc8 = add i32 %acc7, %bs
  %fl.i = bitcast u32 %fl to i32
  %cb.i = bitcast u32 %cb to i32
  %rb.i = bitcast u32 %rb to i32
  %acc9 = add i32 %acc8, %fl.i
  %acc10 = add i32 %acc9, %cb.i
  %acc11 = xor i32 %acc10, %rb.i
  %bp = access ptr<storage, [? x %S]> @out, u32 %i, i32 1
  %bv = construct <2 x i32> (i32 %acc11, i32 %acc11)
  store <2 x i32> %bv, ptr<storage, <2 x i32>> %bp
  %nan = fcmp uno f32 %r, %f
  %ord = fcmp ord f32 %r, %f
  %ne = fcmp une f32 %r, %f
  %x1 = xor bool %nan, %ord
  %x2 = and bool %x1, %ne
  %cp = access ptr<storage, [? x %S]> @out, u32 %i, i32 2
  store bool %x2, ptr<storage, bool> %cp
  %pw = intr f32 pow(f32 %f, f32 2.0)
  %lg = intr f32 log10(f32 %pw)
  %rc = intr f32 rcp(f32 %lg)
  %fm = intr f32 fmod(f32 %rc, f32 3.0)
  %md = intr f32 mad(f32 %fm, f32 2.0, f32 1.0)
  %lp = intr f32 lerp(f32 %md, f32 1.0, f32 0.5)
  %mx = intr f32 max(f32 %lp, f32 0.0)
  %ld = intr f32 ldexp(f32 %mx, f32 2.0)
  %sgf = intr i32 sign(f32 %ld)
  %sgff = sitofp i32 %sgf to f32
  %dp = access ptr<storage, [? x %S]> @out, u32 %i, i32 3, i32 1
  store f32 %sgff, ptr<storage, f32> %dp
  ret
}
