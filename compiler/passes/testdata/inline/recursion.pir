; A recursive call chain: inline must refuse it, naming the cycle
; (TestInlineRecursion; no run line: the pass fails).

module "t"

define u32 @a(u32 %x) {
entry:
  %r = call u32 @b(u32 %x)
  ret u32 %r
}

define u32 @b(u32 %x) {
entry:
  %r = call u32 @a(u32 %x)
  ret u32 %r
}

define void @main() compute numthreads(1, 1, 1) {
entry:
  %r = call u32 @a(u32 1)
  ret
}
