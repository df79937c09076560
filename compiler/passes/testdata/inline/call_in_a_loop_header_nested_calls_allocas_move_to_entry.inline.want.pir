module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %t = alloca u32
  %t.1 = alloca u32
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  br %loop
loop:
  %n = phi u32 [%i, %entry], [%n1, %loop.continue]
  loop_merge %exit, %loop.continue
  br %loop.body
loop.body:
  br %twice.entry
twice.entry:
  br %inc.entry
inc.entry:
  store u32 %n, ptr<function, u32> %t
  %v = load ptr<function, u32> %t
  %a = add u32 %v, 1
  br %inc.exit
inc.exit:
  br %inc.entry.1
inc.entry.1:
  store u32 %a, ptr<function, u32> %t.1
  %v.1 = load ptr<function, u32> %t.1
  %n1 = add u32 %v.1, 1
  br %inc.exit.1
inc.exit.1:
  br %twice.exit
twice.exit:
  %c = icmp ult u32 %n1, 9
  br %loop.continue
loop.continue:
  condbr bool %c, %loop, %exit
exit:
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %n1, ptr<storage, u32> %p
  ret
}
