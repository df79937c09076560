; escaping allocas stay; memcpy is split
; run: sroa
; input: {}

module "t"

type %P = { u32 a, u32 b }

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @bump(ptr<function, u32> %p) {
entry:
  %v = load ptr<function, u32> %p
  %w = mul u32 %v, 3
  store u32 %w, ptr<function, u32> %p
  ret
}

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %cnt = alloca u32
  store u32 %i, ptr<function, u32> %cnt
  call void @bump(ptr<function, u32> %cnt)
  %old = load ptr<function, u32> %cnt
  %src = alloca %P
  %dst = alloca %P
  %sa = access ptr<function, %P> %src, i32 0
  store u32 %i, ptr<function, u32> %sa
  %sb = access ptr<function, %P> %src, i32 1
  store u32 %old, ptr<function, u32> %sb
  memcpy ptr<function, %P> %dst, ptr<function, %P> %src
  %db = access ptr<function, %P> %dst, i32 1
  %v = load ptr<function, u32> %db
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %v, ptr<storage, u32> %p
  ret
}
