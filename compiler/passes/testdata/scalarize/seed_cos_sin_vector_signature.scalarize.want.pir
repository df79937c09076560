module "t"

type %cos_sin.ret = { f32 x, f32 y, f32 z, f32 w }

@In = global storage [? x <4 x f32>] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x <4 x f32>] binding 0, 1 kind "RWStructuredBuffer"

define %cos_sin.ret @cos_sin(f32 %a.x, f32 %a.y, f32 %a.z, f32 %a.w) {
entry:
  %s.x = intr f32 sin(f32 %a.x)
  %s.y = intr f32 sin(f32 %a.y)
  %s.z = intr f32 sin(f32 %a.z)
  %s.w = intr f32 sin(f32 %a.w)
  %c.x = intr f32 cos(f32 %s.x)
  %c.y = intr f32 cos(f32 %s.y)
  %c.z = intr f32 cos(f32 %s.z)
  %c.w = intr f32 cos(f32 %s.w)
  %retval = construct %cos_sin.ret (f32 %c.x, f32 %c.y, f32 %c.z, f32 %c.w)
  ret %cos_sin.ret %retval
}

define void @main() compute numthreads(1, 1, 1) {
entry:
  %ip.x = access ptr<storage, [? x <4 x f32>]> @In, i32 0, i32 0
  %ip.y = access ptr<storage, [? x <4 x f32>]> @In, i32 0, i32 1
  %ip.z = access ptr<storage, [? x <4 x f32>]> @In, i32 0, i32 2
  %ip.w = access ptr<storage, [? x <4 x f32>]> @In, i32 0, i32 3
  %a.x = load ptr<storage, f32> %ip.x
  %a.y = load ptr<storage, f32> %ip.y
  %a.z = load ptr<storage, f32> %ip.z
  %a.w = load ptr<storage, f32> %ip.w
  %r = call %cos_sin.ret @cos_sin(f32 %a.x, f32 %a.y, f32 %a.z, f32 %a.w)
  %r.x = extractvalue %cos_sin.ret %r, 0
  %r.y = extractvalue %cos_sin.ret %r, 1
  %r.z = extractvalue %cos_sin.ret %r, 2
  %r.w = extractvalue %cos_sin.ret %r, 3
  %b.x = bitcast f32 %r.x to i32
  %b.y = bitcast f32 %r.y to i32
  %b.z = bitcast f32 %r.z to i32
  %b.w = bitcast f32 %r.w to i32
  %c.x = sitofp i32 %b.x to f32
  %c.y = sitofp i32 %b.y to f32
  %c.z = sitofp i32 %b.z to f32
  %c.w = sitofp i32 %b.w to f32
  %op.x = access ptr<storage, [? x <4 x f32>]> @Out, i32 0, i32 0
  store f32 %c.x, ptr<storage, f32> %op.x
  %op.y = access ptr<storage, [? x <4 x f32>]> @Out, i32 0, i32 1
  store f32 %c.y, ptr<storage, f32> %op.y
  %op.z = access ptr<storage, [? x <4 x f32>]> @Out, i32 0, i32 2
  store f32 %c.z, ptr<storage, f32> %op.z
  %op.w = access ptr<storage, [? x <4 x f32>]> @Out, i32 0, i32 3
  store f32 %c.w, ptr<storage, f32> %op.w
  ret
}
