module "switch42-lowered.pir"

@value = global storage [? x i32] binding 0, 0 kind "RWBuffer"
@threadID = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %threadID = load ptr<input, <3 x u32>> @threadID
  %threadID.x = extractvalue <3 x u32> %threadID, 0
  %value.p = access ptr<storage, [? x i32]> @value, u32 %threadID.x
  %sel = load ptr<storage, i32> %value.p
  br %sw.loop
sw.loop:
  %isCase0 = icmp eq i32 %sel, 0
  %reachesDefault = or bool %isCase0, true
  loop_merge %sw.merge, %sw.cont
  br %sw.body
sw.body:
  selection_merge %case0.merge
  condbr bool %isCase0, %case0.then, %case0.merge
case0.then:
  %wsum1 = intr u32 WaveActiveSum(u32 1)
  br %case0.merge
case0.merge:
  %sum = phi u32 [0, %sw.body], [%wsum1, %case0.then]
  selection_merge %default.merge
  condbr bool %reachesDefault, %default.then, %default.merge
default.then:
  %wsum10 = intr u32 WaveActiveSum(u32 10)
  %sum.1 = add u32 %sum, %wsum10
  br %sw.merge
default.merge:
  br %sw.cont
sw.cont:
  condbr bool false, %sw.loop, %sw.merge
sw.merge:
  %sum.out = phi u32 [%sum.1, %default.then], [%sum, %sw.cont]
  %result = bitcast u32 %sum.out to i32
  store i32 %result, ptr<storage, i32> %value.p
  ret
}
