module "t"

type %Params = { <4 x f32> color, <3 x f32> dir, f32 scale }

@params = global uniform %Params binding 0, 0 kind "cbuffer"
@Out = global storage [? x <4 x f32>] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
@tmp = global groupshared [8 x [4 x f32]]

define void @main() compute numthreads(8, 1, 1) {
entry:
  %tid.x = access ptr<input, <3 x u32>> @tid, i32 0
  %tid.y = access ptr<input, <3 x u32>> @tid, i32 1
  %tid.z = access ptr<input, <3 x u32>> @tid, i32 2
  %id.x = load ptr<input, u32> %tid.x
  %id.y = load ptr<input, u32> %tid.y
  %id.z = load ptr<input, u32> %tid.z
  %f = uitofp u32 %id.x to f32
  %params.color.x = access ptr<uniform, %Params> @params, i32 0, i32 0
  %params.color.y = access ptr<uniform, %Params> @params, i32 0, i32 1
  %params.color.z = access ptr<uniform, %Params> @params, i32 0, i32 2
  %params.color.w = access ptr<uniform, %Params> @params, i32 0, i32 3
  %params.dir.x = access ptr<uniform, %Params> @params, i32 1, i32 0
  %params.dir.y = access ptr<uniform, %Params> @params, i32 1, i32 1
  %params.dir.z = access ptr<uniform, %Params> @params, i32 1, i32 2
  %params.scale = access ptr<uniform, %Params> @params, i32 2
  %P.color.x = load ptr<uniform, f32> %params.color.x
  %P.color.y = load ptr<uniform, f32> %params.color.y
  %P.color.z = load ptr<uniform, f32> %params.color.z
  %P.color.w = load ptr<uniform, f32> %params.color.w
  %P.dir.x = load ptr<uniform, f32> %params.dir.x
  %P.dir.y = load ptr<uniform, f32> %params.dir.y
  %P.dir.z = load ptr<uniform, f32> %params.dir.z
  %P.scale = load ptr<uniform, f32> %params.scale
  %sum.x = fadd f32 %f, %P.color.x
  %sum.y = fadd f32 1.0, %P.color.y
  %sum.z = fadd f32 2.0, %P.color.z
  %sum.w = fadd f32 3.0, %P.color.w
  %gp.x = access ptr<groupshared, [8 x [4 x f32]]> @tmp, u32 %id.x, i32 0
  store f32 %sum.x, ptr<groupshared, f32> %gp.x
  %gp.y = access ptr<groupshared, [8 x [4 x f32]]> @tmp, u32 %id.x, i32 1
  store f32 %sum.y, ptr<groupshared, f32> %gp.y
  %gp.z = access ptr<groupshared, [8 x [4 x f32]]> @tmp, u32 %id.x, i32 2
  store f32 %sum.z, ptr<groupshared, f32> %gp.z
  %gp.w = access ptr<groupshared, [8 x [4 x f32]]> @tmp, u32 %id.x, i32 3
  store f32 %sum.w, ptr<groupshared, f32> %gp.w
  %dt.1 = fmul f32 %f, %P.dir.x
  %dt.2 = fmul f32 %f, %P.dir.y
  %dt.3 = fadd f32 %dt.1, %dt.2
  %dt.4 = fmul f32 1.0, %P.dir.z
  %dt = fadd f32 %dt.3, %dt.4
  %len.1 = fmul f32 %f, %f
  %len.2 = fmul f32 %f, %f
  %len.3 = fadd f32 %len.1, %len.2
  %len.4 = fmul f32 1.0, 1.0
  %len.5 = fadd f32 %len.3, %len.4
  %len = intr f32 sqrt(f32 %len.5)
  br %loop
loop:
  %acc.x = phi f32 [%sum.x, %entry], [%acc2.x, %body]
  %acc.y = phi f32 [%sum.y, %entry], [%acc2.y, %body]
  %acc.z = phi f32 [%sum.z, %entry], [%acc2.z, %body]
  %acc.w = phi f32 [%sum.w, %entry], [%acc2.w, %body]
  %n = phi u32 [0, %entry], [%n2, %body]
  %c = icmp ult u32 %n, 3
  loop_merge %exit, %body
  condbr bool %c, %body, %exit
body:
  %e.is0 = icmp eq u32 %n, 0
  %e.upto0 = select bool %e.is0, f32 %acc.x, 0.0
  %e.is1 = icmp eq u32 %n, 1
  %e.upto1 = select bool %e.is1, f32 %acc.y, %e.upto0
  %e.is2 = icmp eq u32 %n, 2
  %e.upto2 = select bool %e.is2, f32 %acc.z, %e.upto1
  %e.is3 = icmp eq u32 %n, 3
  %e = select bool %e.is3, f32 %acc.w, %e.upto2
  %acc2.x = fmul f32 %acc.x, %e
  %acc2.y = fmul f32 %acc.y, %e
  %acc2.z = fmul f32 %acc.z, %e
  %acc2.w = fmul f32 %acc.w, %e
  %n2 = add u32 %n, 1
  br %loop
exit:
  %gp.x_1 = access ptr<groupshared, [8 x [4 x f32]]> @tmp, u32 %id.x, i32 0
  %gp.y_1 = access ptr<groupshared, [8 x [4 x f32]]> @tmp, u32 %id.x, i32 1
  %gp.z_1 = access ptr<groupshared, [8 x [4 x f32]]> @tmp, u32 %id.x, i32 2
  %gp.w_1 = access ptr<groupshared, [8 x [4 x f32]]> @tmp, u32 %id.x, i32 3
  %ld.x = load ptr<groupshared, f32> %gp.x_1
  %ld.y = load ptr<groupshared, f32> %gp.y_1
  %ld.z = load ptr<groupshared, f32> %gp.z_1
  %ld.w = load ptr<groupshared, f32> %gp.w_1
  %cmp.x = fcmp olt f32 %acc.x, %ld.x
  %cmp.y = fcmp olt f32 %acc.y, %ld.y
  %cmp.z = fcmp olt f32 %acc.z, %ld.z
  %cmp.w = fcmp olt f32 %acc.w, %ld.w
  %sel.x = select bool %cmp.x, f32 %acc.x, %ld.x
  %sel.y = select bool %cmp.y, f32 %acc.y, %ld.y
  %sel.z = select bool %cmp.z, f32 %acc.z, %ld.z
  %sel.w = select bool %cmp.w, f32 %acc.w, %ld.w
  %ins.is0 = icmp eq u32 %id.x, 0
  %ins.x = select bool %ins.is0, f32 %dt, %sel.x
  %ins.is1 = icmp eq u32 %id.x, 1
  %ins.y = select bool %ins.is1, f32 %dt, %sel.y
  %ins.is2 = icmp eq u32 %id.x, 2
  %ins.z = select bool %ins.is2, f32 %dt, %sel.z
  %ins.is3 = icmp eq u32 %id.x, 3
  %ins.w = select bool %ins.is3, f32 %dt, %sel.w
  %any.or = or bool %cmp.x, %cmp.y
  %any.or_1 = or bool %any.or, %cmp.z
  %any = or bool %any.or_1, %cmp.w
  %l2 = select bool %any, f32 %len, 0.0
  %op.x = access ptr<storage, [? x <4 x f32>]> @Out, u32 %id.x, i32 0
  store f32 %ins.w, ptr<storage, f32> %op.x
  %op.y = access ptr<storage, [? x <4 x f32>]> @Out, u32 %id.x, i32 1
  store f32 %l2, ptr<storage, f32> %op.y
  %op.z = access ptr<storage, [? x <4 x f32>]> @Out, u32 %id.x, i32 2
  store f32 %P.color.y, ptr<storage, f32> %op.z
  %op.w = access ptr<storage, [? x <4 x f32>]> @Out, u32 %id.x, i32 3
  store f32 %ins.x, ptr<storage, f32> %op.w
  ret
}
