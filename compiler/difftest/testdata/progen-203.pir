; threads 8
module "gen-203.pir"

@in = global storage [? x u32] binding 0, 0 readonly kind "StructuredBuffer"
@out = global storage [? x u32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(8, 1, 1) {
entry:
  %tid3 = load ptr<input, <3 x u32>> @tid
  %tid = extractvalue <3 x u32> %tid3, 0
  %inp = access ptr<storage, [? x u32]> @in, u32 %tid
  %x0 = load ptr<storage, u32> %inp
  %v0 = alloca u32
  store u32 %x0, ptr<function, u32> %v0
  %v1 = alloca u32
  %e.1 = mul u32 %x0, 18
  store u32 %e.1, ptr<function, u32> %v1
  %v2 = alloca u32
  %m.3 = and u32 95, 31
  %e.2 = shl u32 %x0, %m.3
  store u32 %e.2, ptr<function, u32> %v2
  store u32 33, ptr<function, u32> %v1
  %l.4 = load ptr<function, u32> %v0
  %l.5 = load ptr<function, u32> %v2
  %c.7 = icmp ult u32 %l.4, %l.5
  %e.6 = select bool %c.7, u32 %l.4, %l.5
  store u32 %e.6, ptr<function, u32> %v2
  %ob.8 = mul u32 %tid, 3
  %l.9 = load ptr<function, u32> %v0
  %oi.10 = add u32 %ob.8, 0
  %op.11 = access ptr<storage, [? x u32]> @out, u32 %oi.10
  store u32 %l.9, ptr<storage, u32> %op.11
  %l.12 = load ptr<function, u32> %v1
  %oi.13 = add u32 %ob.8, 1
  %op.14 = access ptr<storage, [? x u32]> @out, u32 %oi.13
  store u32 %l.12, ptr<storage, u32> %op.14
  %l.15 = load ptr<function, u32> %v2
  %oi.16 = add u32 %ob.8, 2
  %op.17 = access ptr<storage, [? x u32]> @out, u32 %oi.16
  store u32 %l.15, ptr<storage, u32> %op.17
  ret
}
