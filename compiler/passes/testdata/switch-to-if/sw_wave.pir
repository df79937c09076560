module "sw_wave.pir"

; The reconvergence hazard of the seed (DXC issue 6957): case 0 runs a wave
; op and falls into default, which runs another. HLSL expects the lanes
; that fall through to meet the lanes that entered default directly:
; with In = [0, 0, 1, 2] the result is [42, 42, 40, 40]. SPIR-V lets a
; driver keep them apart (the interpreter's switch-separate policy).

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %sel = load ptr<storage, i32> %in.p
  selection_merge %merge
  switch i32 %sel [case 0: %case0] [default: %dflt]
case0:
  %w1 = intr i32 WaveActiveSum(i32 1)
  br %dflt
dflt:
  %sum = phi i32 [0, %entry], [%w1, %case0]
  %w10 = intr i32 WaveActiveSum(i32 10)
  %r = add i32 %sum, %w10
  br %merge
merge:
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
