; call in a loop header, nested calls, allocas move to entry
; run: inline
; input: {}

module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define u32 @inc(u32 %x) {
entry:
  %t = alloca u32
  store u32 %x, ptr<function, u32> %t
  %v = load ptr<function, u32> %t
  %r = add u32 %v, 1
  ret u32 %r
}

define u32 @twice(u32 %x) {
entry:
  %a = call u32 @inc(u32 %x)
  %b = call u32 @inc(u32 %a)
  ret u32 %b
}

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  br %loop
loop:
  %n = phi u32 [%i, %entry], [%n1, %loop]
  %n1 = call u32 @twice(u32 %n)
  %c = icmp ult u32 %n1, 9
  loop_merge %exit, %loop
  condbr bool %c, %loop, %exit
exit:
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %n1, ptr<storage, u32> %p
  ret
}
