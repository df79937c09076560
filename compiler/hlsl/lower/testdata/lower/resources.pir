module "resources.hlsl"

type %Item = { <4 x f32> v, u32 id }

@Items = global storage [? x %Item] binding 0, 0 readonly kind "StructuredBuffer"
@Counts = global storage [? x u32] binding 2, 1 kind "RWBuffer"
@Raw = global storage [? x u32] binding 0, 2 kind "RWByteAddressBuffer"
@total = global groupshared u32
@gi = global input u32 semantic "SV_GroupIndex"

define void @main() compute numthreads(8, 1, 1) {
entry:
  %gi = alloca u32
  %before = alloca u32
  %gi.1 = load ptr<input, u32> @gi
  store u32 %gi.1, ptr<function, u32> %gi
  %gi.2 = load ptr<function, u32> %gi
  %cmp = icmp eq u32 %gi.2, 0
  selection_merge %if.end
  condbr bool %cmp, %if.then, %if.end
if.then:
  store u32 0, ptr<groupshared, u32> @total
  br %if.end
if.end:
  intr void GroupMemoryBarrierWithGroupSync()
  %gi.3 = load ptr<function, u32> %gi
  %Items.gi = access ptr<storage, [? x %Item]> @Items, u32 %gi.3
  %Items.gi.id = access ptr<storage, %Item> %Items.gi, i32 1
  %Items.gi.id.1 = load ptr<storage, u32> %Items.gi.id
  %old = atomic add ptr<groupshared, u32> @total, u32 %Items.gi.id.1
  store u32 %old, ptr<function, u32> %before
  intr void GroupMemoryBarrierWithGroupSync()
  %before.1 = load ptr<function, u32> %before
  %gi.4 = load ptr<function, u32> %gi
  %Counts.gi = access ptr<storage, [? x u32]> @Counts, u32 %gi.4
  store u32 %before.1, ptr<storage, u32> %Counts.gi
  %gi.5 = load ptr<function, u32> %gi
  %mul = mul u32 %gi.5, 8
  %total = load ptr<groupshared, u32> @total
  %gi.6 = load ptr<function, u32> %gi
  %Items.gi.1 = access ptr<storage, [? x %Item]> @Items, u32 %gi.6
  %Items.gi.v = access ptr<storage, %Item> %Items.gi.1, i32 0
  %Items.gi.v.1 = load ptr<storage, <4 x f32>> %Items.gi.v
  %Items.gi.v.w = extractvalue <4 x f32> %Items.gi.v.1, 3
  %asuint = bitcast f32 %Items.gi.v.w to u32
  %vec = construct <2 x u32> (u32 %total, u32 %asuint)
  %elem = extractvalue <2 x u32> %vec, 0
  %word = lshr u32 %mul, 2
  %Raw.p = access ptr<storage, [? x u32]> @Raw, u32 %word
  store u32 %elem, ptr<storage, u32> %Raw.p
  %elem.1 = extractvalue <2 x u32> %vec, 1
  %word.1 = lshr u32 %mul, 2
  %word.2 = add u32 %word.1, 1
  %Raw.p.1 = access ptr<storage, [? x u32]> @Raw, u32 %word.2
  store u32 %elem.1, ptr<storage, u32> %Raw.p.1
  ret
}
