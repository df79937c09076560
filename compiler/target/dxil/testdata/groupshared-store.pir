; Seed dxil-scalarization.md, "Store example": float3 stores into a
; groupshared array become per-element float stores.
module "groupshared-store.pir"

@sharedData = global groupshared [2 x <3 x f32>]
@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(2, 1, 1) {
entry:
  %p0 = access ptr<groupshared, [2 x <3 x f32>]> @sharedData, i32 0
  store <3 x f32> <1.0, 2.0, 3.0>, ptr<groupshared, <3 x f32>> %p0
  %p1 = access ptr<groupshared, [2 x <3 x f32>]> @sharedData, i32 1
  store <3 x f32> <2.0, 4.0, 6.0>, ptr<groupshared, <3 x f32>> %p1
  intr void GroupMemoryBarrierWithGroupSync()
  %tid = load ptr<input, <3 x u32>> @tid
  %x = extractvalue <3 x u32> %tid, 0
  %q = access ptr<groupshared, [2 x <3 x f32>]> @sharedData, u32 %x
  %v = load ptr<groupshared, <3 x f32>> %q
  %v0 = extractvalue <3 x f32> %v, 0
  %v1 = extractvalue <3 x f32> %v, 1
  %v2 = extractvalue <3 x f32> %v, 2
  %s = fadd f32 %v0, %v1
  %s2 = fadd f32 %s, %v2
  %o = access ptr<storage, [? x f32]> @Out, u32 %x
  store f32 %s2, ptr<storage, f32> %o
  ret
}
