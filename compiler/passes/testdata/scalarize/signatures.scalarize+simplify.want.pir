module "t"

type %Light = { <3 x f32> dir, f32 power }
type %rot.ret = { f32 e0_x, f32 e0_y, f32 e1_x, f32 e1_y }
type %one.ret = { f32 x, f32 y }
type %chain.ret = { f32 x, f32 y, f32 z }

@In = global storage [? x f32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define %rot.ret @rot(f32 %a, f32 %s.x, f32 %s.y) {
entry:
  %c = intr f32 cos(f32 %a)
  %n = intr f32 sin(f32 %a)
  %cx = fmul f32 %c, %s.x
  %nx = fmul f32 %n, %s.y
  %nn = fneg f32 %nx
  %retval = construct %rot.ret (f32 %cx, f32 %nn, f32 %n, f32 %c)
  ret %rot.ret %retval
}

define f32 @shade(f32 %l.dir.x, f32 %l.dir.y, f32 %l.dir.z, f32 %l.power, f32 %n.x, f32 %n.y, f32 %n.z, ptr<function, <3 x f32>> %out) {
entry:
  %dn.1 = fmul f32 %l.dir.x, %n.x
  %dn.2 = fmul f32 %l.dir.y, %n.y
  %dn.3 = fadd f32 %dn.1, %dn.2
  %dn.4 = fmul f32 %l.dir.z, %n.z
  %dn = fadd f32 %dn.3, %dn.4
  %r = fmul f32 %dn, %l.power
  %sc.x = fmul f32 %n.x, 2.0
  %sc.y = fmul f32 %n.y, 2.0
  %sc.z = fmul f32 %n.z, 2.0
  %out.x = access ptr<function, <3 x f32>> %out, i32 0
  store f32 %sc.x, ptr<function, f32> %out.x
  %out.y = access ptr<function, <3 x f32>> %out, i32 1
  store f32 %sc.y, ptr<function, f32> %out.y
  %out.z = access ptr<function, <3 x f32>> %out, i32 2
  store f32 %sc.z, ptr<function, f32> %out.z
  ret f32 %r
}

define %one.ret @one(f32 %v.x, f32 %v.y, f32 %v.z) {
entry:
  ret %one.ret {0.5, 0.25}
}

define %chain.ret @chain(f32 %v.x, f32 %v.y, f32 %v.z, f32 %l.dir.x, f32 %l.dir.y, f32 %l.dir.z, f32 %l.power) {
entry:
  %o = call %one.ret @one(f32 %v.x, f32 %v.y, f32 %v.z)
  %o.y = extractvalue %one.ret %o, 1
  %r.x = fmul f32 %l.dir.x, %v.x
  %r.z = fmul f32 %l.dir.z, %v.z
  %retval = construct %chain.ret (f32 %r.x, f32 %o.y, f32 %r.z)
  ret %chain.ret %retval
}

define void @main() compute numthreads(8, 1, 1) {
entry:
  %tmp = alloca <3 x f32>
  %tid.x = access ptr<input, <3 x u32>> @tid, i32 0
  %id.x = load ptr<input, u32> %tid.x
  %xa = access ptr<storage, [? x f32]> @In, u32 %id.x
  %x = load ptr<storage, f32> %xa
  %j = add u32 %id.x, 8
  %ya = access ptr<storage, [? x f32]> @In, u32 %j
  %y = load ptr<storage, f32> %ya
  %m = call %rot.ret @rot(f32 %x, f32 1.5, f32 -0.5)
  %m.e0_y = extractvalue %rot.ret %m, 1
  %m.e1_x = extractvalue %rot.ret %m, 2
  %sh = call f32 @shade(f32 %x, f32 %y, f32 %m.e0_y, f32 %m.e1_x, f32 0.0, f32 1.0, f32 0.0, ptr<function, <3 x f32>> %tmp)
  %tmp.x = access ptr<function, <3 x f32>> %tmp, i32 0
  %tmp.y = access ptr<function, <3 x f32>> %tmp, i32 1
  %tmp.z = access ptr<function, <3 x f32>> %tmp, i32 2
  %tv.x = load ptr<function, f32> %tmp.x
  %tv.y = load ptr<function, f32> %tmp.y
  %tv.z = load ptr<function, f32> %tmp.z
  %c = call %chain.ret @chain(f32 %tv.x, f32 %tv.y, f32 %tv.z, f32 %x, f32 %y, f32 %m.e0_y, f32 %m.e1_x)
  %c.y = extractvalue %chain.ret %c, 1
  %c.z = extractvalue %chain.ret %c, 2
  %s0 = fadd f32 %sh, %c.z
  %s1 = fadd f32 %s0, %c.y
  %op = access ptr<storage, [? x f32]> @Out, u32 %id.x
  store f32 %s1, ptr<storage, f32> %op
  ret
}
