module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(8, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %x = mul u32 %i, 7
  selection_merge %find.exit
  switch i32 0 [default: %find.entry]
find.entry:
  br %find.loop
find.loop:
  %k = phi u32 [0, %find.entry], [%k1, %find.cont]
  %c = icmp ult u32 %k, 8
  loop_merge %find.done, %find.cont
  condbr bool %c, %find.body, %find.done
find.body:
  %s = mul u32 %k, %k
  %hit = icmp uge u32 %s, %x
  selection_merge %find.cont
  condbr bool %hit, %find.found, %find.cont
find.found:
  br %find.exit
find.cont:
  %k1 = add u32 %k, 1
  br %find.loop
find.done:
  br %find.exit
find.exit:
  %r = phi u32 [%k, %find.found], [99, %find.done]
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %r, ptr<storage, u32> %p
  ret
}
