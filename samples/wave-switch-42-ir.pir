; The DXC issue 6957 / llvm-project issue 112056 shader (wave-switch-42.hlsl)
; as passlens IR: case 0 falls through into default, with a wave op on each
; side. With value = [0, 0, 1, 2] (wave-switch-42-ir.json) the result must be
; [42, 42, 40, 40]; the switch-separate policy shows what an OpSwitch that
; does not reconverge the fallthrough gives, and switch-to-if fixes it.
module "wave-switch-42-ir.pir"

@value = global storage [? x i32] binding 0, 0 kind "RWBuffer"
@threadID = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %threadID = load ptr<input, <3 x u32>> @threadID
  %threadID.x = extractvalue <3 x u32> %threadID, 0
  %value.p = access ptr<storage, [? x i32]> @value, u32 %threadID.x
  %sel = load ptr<storage, i32> %value.p
  selection_merge %sw.merge
  switch i32 %sel [case 0: %sw.case0] [default: %sw.default]
sw.case0:
  %wsum1 = intr u32 WaveActiveSum(u32 1)
  br %sw.default
sw.default:
  %sum = phi u32 [0, %entry], [%wsum1, %sw.case0]
  %wsum10 = intr u32 WaveActiveSum(u32 10)
  %sum.1 = add u32 %sum, %wsum10
  br %sw.merge
sw.merge:
  %result = bitcast u32 %sum.1 to i32
  store i32 %result, ptr<storage, i32> %value.p
  ret
}
