; threads 8
module "gen-202.pir"

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
  %m.2 = and u32 85, 31
  %e.1 = shl u32 %x0, %m.2
  store u32 %e.1, ptr<function, u32> %v1
  %v2 = alloca u32
  %e.3 = sub u32 %x0, 56
  store u32 %e.3, ptr<function, u32> %v2
  %m.5 = and u32 51, 1
  %c.4 = icmp ugt u32 %m.5, 0
  selection_merge %exit.merge.7
  condbr bool %c.4, %exit.then.6, %exit.merge.7
exit.then.6:
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
exit.merge.7:
  %sel.18 = and u32 %tid, 3
  selection_merge %sw.end.19
  switch u32 %sel.18 [default: %sw.case.20] [case 0: %sw.case.21] [case 1: %sw.case.22]
sw.case.20:
  %l.24 = load ptr<function, u32> %v0
  %l.25 = load ptr<function, u32> %v2
  %c.27 = icmp ult u32 %l.24, %l.25
  %e.26 = select bool %c.27, u32 %l.24, %l.25
  %sel.23 = and u32 %e.26, 3
  selection_merge %sw.end.28
  switch u32 %sel.23 [default: %sw.case.29] [case 0: %sw.case.30] [case 1: %sw.case.31]
sw.case.29:
  %l.32 = load ptr<function, u32> %v1
  %e.33 = mul u32 %l.32, 1
  store u32 %e.33, ptr<function, u32> %v0
  br %sw.case.30
sw.case.30:
  %i.34 = alloca u32
  store u32 0, ptr<function, u32> %i.34
  br %loop.head.35
loop.head.35:
  %iv.39 = load ptr<function, u32> %i.34
  %lc.40 = icmp ult u32 %iv.39, 2
  loop_merge %loop.exit.38, %loop.cont.37
  condbr bool %lc.40, %loop.body.36, %loop.exit.38
loop.body.36:
  %l.42 = load ptr<function, u32> %v0
  %s.41 = add u32 %l.42, %iv.39
  store u32 %s.41, ptr<function, u32> %v0
  %l.43 = load ptr<function, u32> %v2
  %w.44 = intr u32 WaveActiveMax(u32 %l.43)
  store u32 %w.44, ptr<function, u32> %v0
  %l.45 = load ptr<function, u32> %v1
  %w.46 = intr u32 WavePrefixSum(u32 %l.45)
  store u32 %w.46, ptr<function, u32> %v0
  %l.47 = load ptr<function, u32> %v2
  %l.48 = load ptr<function, u32> %v0
  %m.50 = or u32 %l.48, 1
  %e.49 = urem u32 %l.47, %m.50
  store u32 %e.49, ptr<function, u32> %v1
  br %loop.cont.37
loop.cont.37:
  %in.51 = load ptr<function, u32> %i.34
  %inx.52 = add u32 %in.51, 1
  store u32 %inx.52, ptr<function, u32> %i.34
  br %loop.head.35
loop.exit.38:
  br %sw.case.31
sw.case.31:
  %l.54 = load ptr<function, u32> %v2
  %l.55 = load ptr<function, u32> %v1
  %e.56 = mul u32 %l.54, %l.55
  %m.57 = and u32 %e.56, 2
  %c.53 = icmp ne u32 %m.57, 2
  selection_merge %exit.merge.59
  condbr bool %c.53, %exit.then.58, %exit.merge.59
exit.then.58:
  %ob.60 = mul u32 %tid, 3
  %l.61 = load ptr<function, u32> %v0
  %oi.62 = add u32 %ob.60, 0
  %op.63 = access ptr<storage, [? x u32]> @out, u32 %oi.62
  store u32 %l.61, ptr<storage, u32> %op.63
  %l.64 = load ptr<function, u32> %v1
  %oi.65 = add u32 %ob.60, 1
  %op.66 = access ptr<storage, [? x u32]> @out, u32 %oi.65
  store u32 %l.64, ptr<storage, u32> %op.66
  %l.67 = load ptr<function, u32> %v2
  %oi.68 = add u32 %ob.60, 2
  %op.69 = access ptr<storage, [? x u32]> @out, u32 %oi.68
  store u32 %l.67, ptr<storage, u32> %op.69
  ret
exit.merge.59:
  br %sw.end.28
sw.end.28:
  br %sw.case.21
sw.case.21:
  %l.70 = load ptr<function, u32> %v2
  %lane.72 = intr u32 WaveGetLaneIndex()
  %w.71 = add u32 %l.70, %lane.72
  store u32 %w.71, ptr<function, u32> %v0
  br %sw.end.19
sw.case.22:
  %l.74 = load ptr<function, u32> %v2
  %e.75 = mul u32 %l.74, 1
  %m.76 = and u32 %e.75, 1
  %c.73 = icmp ult u32 %m.76, 3
  selection_merge %exit.merge.78
  condbr bool %c.73, %exit.then.77, %exit.merge.78
exit.then.77:
  %l.79 = load ptr<function, u32> %v2
  %lane.81 = intr u32 WaveGetLaneIndex()
  %w.80 = add u32 %l.79, %lane.81
  store u32 %w.80, ptr<function, u32> %v2
  br %exit.merge.78
exit.merge.78:
  br %sw.end.19
sw.end.19:
  %l.83 = load ptr<function, u32> %v1
  %l.84 = load ptr<function, u32> %v0
  %e.85 = xor u32 %l.83, %l.84
  %m.86 = and u32 %e.85, 1
  %c.82 = icmp ne u32 %m.86, 1
  selection_merge %exit.merge.88
  condbr bool %c.82, %exit.then.87, %exit.merge.88
exit.then.87:
  %l.89 = load ptr<function, u32> %v1
  %w.90 = intr u32 WaveActiveBitXor(u32 %l.89)
  store u32 %w.90, ptr<function, u32> %v2
  br %exit.merge.88
exit.merge.88:
  %l.91 = load ptr<function, u32> %v1
  %w.92 = intr u32 WaveActiveMin(u32 %l.91)
  store u32 %w.92, ptr<function, u32> %v2
  %l.93 = load ptr<function, u32> %v2
  %w.94 = intr u32 WaveActiveMax(u32 %l.93)
  store u32 %w.94, ptr<function, u32> %v0
  %ob.95 = mul u32 %tid, 3
  %l.96 = load ptr<function, u32> %v0
  %oi.97 = add u32 %ob.95, 0
  %op.98 = access ptr<storage, [? x u32]> @out, u32 %oi.97
  store u32 %l.96, ptr<storage, u32> %op.98
  %l.99 = load ptr<function, u32> %v1
  %oi.100 = add u32 %ob.95, 1
  %op.101 = access ptr<storage, [? x u32]> @out, u32 %oi.100
  store u32 %l.99, ptr<storage, u32> %op.101
  %l.102 = load ptr<function, u32> %v2
  %oi.103 = add u32 %ob.95, 2
  %op.104 = access ptr<storage, [? x u32]> @out, u32 %oi.103
  store u32 %l.102, ptr<storage, u32> %op.104
  ret
}
