module "control.pir"

@out = global storage [? x i32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input u32 semantic "SV_DispatchThreadID"

define i32 @collatz(i32 %n) {
entry:
  br %loop
loop:
  %x = phi i32 [%n, %entry], [%x.next, %cont]
  %steps = phi i32 [0, %entry], [%steps.next, %cont]
  %done = icmp sle i32 %x, 1
  loop_merge %exit, %cont
  condbr bool %done, %exit, %body
body:
  %odd.bit = and i32 %x, 1
  %odd = icmp ne i32 %odd.bit, 0
  selection_merge %join
  condbr bool %odd, %isodd, %iseven
isodd:
  %t3 = mul i32 %x, 3
  %t3p = add i32 %t3, 1
  br %join
iseven:
  %half = sdiv i32 %x, 2
  br %join
join:
  %x.new = phi i32 [%t3p, %isodd], [%half, %iseven]
  br %cont
cont:
  %x.next = copy i32 %x.new
  %steps.next = add i32 %steps, 1
  br %loop
exit:
  ret i32 %steps
}

define void @main() compute numthreads(16, 1, 1) {
entry:
  %t = load ptr<input, u32> @tid
  %n = bitcast u32 %t to i32
  %n1 = add i32 %n, 1
  %s = call i32 @collatz(i32 %n1)
  %k = srem i32 %n, 3
  selection_merge %sw.end
  switch i32 %k [case 0: %c0] [case 1: %c1] [default: %sw.end]
c0:
  %a0 = mul i32 %s, 10
  br %sw.end
c1:
  %a1 = sub i32 0, %s
  br %sw.end
sw.end:
  %r = phi i32 [%a0, %c0], [%a1, %c1], [%s, %entry]
  %p = access ptr<storage, [? x i32]> @out, u32 %t
  store i32 %r, ptr<storage, i32> %p
  ret
}
