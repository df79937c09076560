module "emb_ifbreak.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  %c1 = icmp sgt i32 %x, 2
  br %entry.loop
entry.loop:
  loop_merge %out, %entry.loop.cont
  br %entry.sel
entry.sel:
  selection_merge %out.inner
  condbr bool %c1, %then, %out.inner
then:
  %c2 = icmp sgt i32 %x, 5
  selection_merge %then.2
  condbr bool %c2, %early, %then.2
early:
  br %out
then.2:
  br %out.inner
out.inner:
  %r.1 = phi i32 [1, %entry.sel], [20, %then.2]
  br %entry.loop.cont
entry.loop.cont:
  condbr bool false, %entry.loop, %out
out:
  %r = phi i32 [50, %early], [%r.1, %entry.loop.cont]
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
