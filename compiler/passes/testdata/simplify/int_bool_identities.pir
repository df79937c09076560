; identities
; run: simplify
; input: {}

module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %a = add u32 %i, 0
  %b = mul u32 1, %a
  %c = or u32 %b, 0
  %d = and u32 %c, 4294967295
  %e = shl u32 %d, 0
  %f = udiv u32 %e, 1
  %g = xor u32 %f, %f
  %h = add u32 %f, %g
  %k = mul u32 %h, 0
  %l = add u32 %h, %k
  %n = not u32 %l
  %o = not u32 %n
  %c1 = icmp ult u32 %o, %o
  %c2 = icmp uge u32 %o, %o
  %c3 = and bool %c2, true
  %c4 = xor bool %c3, true
  %c5 = or bool %c4, %c1
  %s = select bool %c5, u32 7, %o
  %t = select bool %c3, bool true, false
  %u = select bool %t, u32 %s, %s
  %v = copy u32 %u
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %v, ptr<storage, u32> %p
  ret
}
