module "buffers.pir"

type %Params = { f32 scale, <3 x f32> offset, bool enabled, <2 x 2 x f32> m, [3 x u32] lut }
type %Item = { <4 x f32> pos, u32 id }
type %Counted = { u32 count, [? x f32] data }

@params = global uniform %Params binding 0, 0 kind "cbuffer"
@items = global storage [? x %Item] binding 0, 1 readonly kind "StructuredBuffer"
@out = global storage [? x f32] binding 0, 2 kind "RWStructuredBuffer"
@counted = global storage %Counted kind "RWByteAddressBuffer"
@counter = global storage u32 binding 1, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
@gi = global input u32 semantic "SV_GroupIndex"
@table = global private [4 x f32] = [1.0, 2.0, 0.5, -0.25]

define void @main() compute numthreads(8, 2, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %gi = load ptr<input, u32> @gi
  %params = load ptr<uniform, %Params> @params
  %scale = extractvalue %Params %params, 0
  %en.p = access ptr<uniform, %Params> @params, i32 2
  %en = load ptr<uniform, bool> %en.p
  %m = extractvalue %Params %params, 3
  %row1 = extractvalue <2 x 2 x f32> %m, 1
  %lutp = access ptr<uniform, %Params> @params, i32 4, u32 %gi
  %lut = load ptr<uniform, u32> %lutp
  %item.p = access ptr<storage, [? x %Item]> @items, u32 %i
  %item = load ptr<storage, %Item> %item.p
  %pos = extractvalue %Item %item, 0
  %x = extractelement <4 x f32> %pos, u32 0
  %k = urem u32 %i, 4
  %tp = access ptr<private, [4 x f32]> @table, u32 %k
  %tv = load ptr<private, f32> %tp
  %a = fmul f32 %x, %scale
  %b = fadd f32 %a, %tv
  %r0 = extractvalue <2 x f32> %row1, 0
  %c = fadd f32 %b, %r0
  %lutf = uitofp u32 %lut to f32
  %d = fadd f32 %c, %lutf
  %v = select bool %en, f32 %d, 0.0
  %op = access ptr<storage, [? x f32]> @out, u32 %i
  store f32 %v, ptr<storage, f32> %op
  %old = atomic add ptr<storage, u32> @counter, u32 1
  %cp = access ptr<storage, %Counted> @counted, i32 1, u32 %old
  store f32 %v, ptr<storage, f32> %cp
  %cnt = access ptr<storage, %Counted> @counted, i32 0
  %o2 = atomic umax ptr<storage, u32> %cnt, u32 %old
  ret
}
