module "switch42-alloca.pir"

@value = global storage [? x i32] binding 0, 0 kind "RWBuffer"
@threadID = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %sum.addr = alloca u32
  store u32 0, ptr<function, u32> %sum.addr
  %threadID = load ptr<input, <3 x u32>> @threadID
  %threadID.x = extractvalue <3 x u32> %threadID, 0
  %value.p = access ptr<storage, [? x i32]> @value, u32 %threadID.x
  %sel = load ptr<storage, i32> %value.p
  selection_merge %sw.merge
  switch i32 %sel [case 0: %sw.case0] [default: %sw.default]
sw.case0:
  %t0 = intr u32 WaveActiveSum(u32 1)
  %t1 = load ptr<function, u32> %sum.addr
  %t2 = add u32 %t1, %t0
  store u32 %t2, ptr<function, u32> %sum.addr
  br %sw.default
sw.default:
  %t3 = intr u32 WaveActiveSum(u32 10)
  %t4 = load ptr<function, u32> %sum.addr
  %t5 = add u32 %t4, %t3
  store u32 %t5, ptr<function, u32> %sum.addr
  br %sw.merge
sw.merge:
  %t6 = load ptr<function, u32> %sum.addr
  %t7 = bitcast u32 %t6 to i32
  store i32 %t7, ptr<storage, i32> %value.p
  ret
}
