module "kitchen sink.hlsl"

type %Light = { <3 x f32> dir, f32 intensity }
type %Params = { %Light light, [4 x f32] weights, <4 x 4 x f32> xform, bool "has space" }
type %"odd name" = { u32 "quote\"d", [2 x <2 x i32>] pairs }
type %Buf = { u32 count, [? x f32] data }

@params = global uniform %Params binding 0, 0 kind "cbuffer"
@out = global storage [? x u32] binding 0, 1 kind "RWStructuredBuffer"
@in = global storage %Buf binding 1, -1 readonly kind "StructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
@uv = global input <2 x f32> semantic "TEXCOORD0" flat
@color = global output <4 x f32> semantic "SV_Target0"
@shared = global groupshared [64 x u32] = zero
@k = global private <2 x f32> = <1.5, 0x7FC00000>
@table = global private [3 x %"odd name"] = [{1, [<1, -2>, <3, 4>]}, zero, {4294967295, undef}]
@neg = global private f32 = 0x80000000
@wide = global private [2 x i64] = [-9223372036854775808, 42]
@u64 = global private u64 = 18446744073709551615
@h = global private <2 x f16> = <0x3C00, 0x8000>
@"weird global" = global private <2 x f64> = <0.1, 0xFFF0000000000000>

declare f32 @helper(f32 uniform %x, <4 x f32> %v)

declare void @sink(u32 %n) pixel

define f32 @lerp3(f32 %a, f32 %b, f32 uniform %t) {
entry:
  %d = fsub f32 %b, %a
  %m = intr f32 mad(f32 %d, f32 %t, f32 %a)
  ret f32 %m
}

define void @main() compute numthreads(64, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %acc = alloca f32
  store f32 0.0, ptr<function, f32> %acc
  br %loop
loop:
  %n = phi u32 [0, %entry], [%n.next, %cont]
  %done = icmp uge u32 %n, 4
  loop_merge %exit, %cont
  condbr bool %done, %exit, %body
body:
  %w = access ptr<uniform, %Params> @params, i32 1, u32 %n
  %wv = load ptr<uniform, f32> %w
  %s = intr f32 sqrt(f32 %wv)
  %old = load ptr<function, f32> %acc
  %new = fadd f32 %old, %s
  store f32 %new, ptr<function, f32> %acc
  br %cont
cont:
  %n.next = add u32 %n, 1
  br %loop
exit:
  %sel = bitcast u32 %i to i32
  selection_merge %sw.end
  switch i32 %sel [case 1, 2: %a] [default: %sw.end] [case -3: %b]
a:
  %slot = access ptr<storage, [? x u32]> @out, u32 %i
  %prev = atomic add ptr<storage, u32> %slot, u32 1
  %cas = atomic cmpxchg ptr<storage, u32> %slot, u32 %prev, u32 7
  br %sw.end
b:
  intr void GroupMemoryBarrierWithGroupSync()
  br %sw.end
sw.end:
  %r = load ptr<function, f32> %acc
  %l = call f32 @lerp3(f32 %r, f32 1.0, f32 0.25)
  %h = call f32 @helper(f32 %l, <4 x f32> <1.0, 2.0, 3.0, 4.0>)
  %pos = icmp sgt i32 %sel, 0
  selection_merge %if.end
  condbr bool %pos, %if.then, %if.end
if.then:
  %u = fptoui f32 %h to u32
  %dst = access ptr<storage, [? x u32]> @out, u32 %i
  store u32 %u, ptr<storage, u32> %dst
  br %if.end
if.end:
  ret
}

define void @ps() pixel {
entry:
  %uv = load ptr<input, <2 x f32>> @uv
  %x = extractelement <2 x f32> %uv, i32 0
  %y = extractvalue <2 x f32> %uv, 1
  %neg = fcmp olt f32 %x, 0.0
  selection_merge %keep
  condbr bool %neg, %kill, %keep
kill:
  discard
keep:
  %sw = shuffle <2 x f32> %uv, <2 x f32> %uv, [1, 0, 3, 2]
  %v = insertelement <4 x f32> %sw, f32 %y, u32 3
  %m = construct <2 x 2 x f32> (<2 x f32> %uv, <2 x f32> <0.5, 0x80000000>)
  %row = extractvalue <2 x 2 x f32> %m, 1
  %e = extractvalue <2 x 2 x f32> %m, 1, 0
  %m2 = insertvalue <2 x 2 x f32> %m, f32 %e, 0, 1
  %c = select bool %neg, <4 x f32> %v, zero
  %bits = bitcast <4 x f32> %c to <4 x u32>
  %nz = icmp ne <4 x u32> %bits, <0, 0, 0, 0>
  %any = intr bool any(<4 x bool> %nz)
  %notany = not bool %any
  %wide = zext bool %notany to i32
  %fw = sitofp i32 %wide to f32
  %cp = copy f32 %fw
  %fn = fneg f32 %cp
  %ni = neg i32 %wide
  %sh = shl i32 %ni, 2
  %big = sext i32 %sh to i64
  %dbl = fpext f32 %fn to f64
  %half = fptrunc f32 %fn to f16
  %t = trunc i64 %big to i16
  %tmp = alloca [4 x f32]
  memset ptr<function, [4 x f32]> %tmp, u32 0
  %tmp2 = alloca [4 x f32]
  memcpy ptr<function, [4 x f32]> %tmp2, ptr<function, [4 x f32]> %tmp
  %el = access ptr<function, [4 x f32]> %tmp2, i32 2
  store f32 %fn, ptr<function, f32> %el
  store <4 x f32> %c, ptr<output, <4 x f32>> @color
  call void @sink(u32 7)
  ret
}

define void @odd() vertex {
"entry block":
  %"has space" = add i32 1, 2
  %"" = mul i32 %"has space", %"has space"
  %"ünï" = fmul f32 1e+10, 1.5e-07
  %-1 = icmp eq i32 %"", 0
  br %"next\tblock"
"next\tblock":
  %p = phi i32 [%"", %"entry block"], [%q, %"next\tblock"]
  %q = sub i32 %p, 1
  %z = icmp sle i32 %q, 0
  condbr bool %z, %done, %"next\tblock"
done:
  unreachable
}
