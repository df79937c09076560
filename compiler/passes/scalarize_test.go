package passes

import (
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// vectorValues lists instructions of m producing vector or matrix values,
// except the boundary cases scalarize documents (call results and
// arguments, returns, intrinsics whose result is inherently a vector).
func vectorValues(m *ir.Module) []string {
	var out []string
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				t := in.Type()
				if t == nil || !(t.Kind == ir.KVector || t.Kind == ir.KMatrix) {
					continue
				}
				if in.Op == ir.OpCall || in.Op == ir.OpIntrinsic && !in.Intr.Attrs.Has(ir.AttrElementwise) && !waveComponentwise[in.Intr.Name] {
					continue
				}
				if in.Op == ir.OpConstruct || in.Op == ir.OpExtractValue && len(in.Args) == 1 {
					continue // rebuilt for (or taken from) a boundary
				}
				out = append(out, f.Name()+": "+ir.InstrString(in))
			}
		}
	}
	return out
}

func TestScalarize(t *testing.T) {
	t.Parallel()
	runCases(t, []passCase{
		{
			name:   "mixed",
			passes: "scalarize",
			run: &interp.Input{Uniforms: map[string]any{
				"color": []any{0.5, 1.5, -2, 4}, "dir": []any{1, 2, 3}, "scale": 2,
			}},
			in: `
				module "t"

				type %Params = { <4 x f32> color, <3 x f32> dir, f32 scale }

				@params = global uniform %Params binding 0, 0 kind "cbuffer"
				@Out = global storage [? x <4 x f32>] binding 0, 1 kind "RWStructuredBuffer"
				@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
				@tmp = global groupshared [8 x <4 x f32>]

				define void @main() compute numthreads(8, 1, 1) {
				entry:
				  %id = load ptr<input, <3 x u32>> @tid
				  %i = extractvalue <3 x u32> %id, 0
				  %f = uitofp u32 %i to f32
				  %P = load ptr<uniform, %Params> @params
				  %col = extractvalue %Params %P, 0
				  %dir = extractvalue %Params %P, 1
				  %v = construct <4 x f32> (f32 %f, f32 1.0, f32 2.0, f32 3.0)
				  %sum = fadd <4 x f32> %v, %col
				  %gp = access ptr<groupshared, [8 x <4 x f32>]> @tmp, u32 %i
				  store <4 x f32> %sum, ptr<groupshared, <4 x f32>> %gp
				  %d3 = construct <3 x f32> (f32 %f, f32 %f, f32 1.0)
				  %dt = intr f32 dot(<3 x f32> %d3, <3 x f32> %dir)
				  %len = intr f32 length(<3 x f32> %d3)
				  br %loop
				loop:
				  %acc = phi <4 x f32> [%sum, %entry], [%acc2, %body]
				  %n = phi u32 [0, %entry], [%n2, %body]
				  %c = icmp ult u32 %n, 3
				  loop_merge %exit, %body
				  condbr bool %c, %body, %exit
				body:
				  %e = extractelement <4 x f32> %acc, u32 %n
				  %sp = construct <4 x f32> (f32 %e, f32 %e, f32 %e, f32 %e)
				  %acc2 = fmul <4 x f32> %acc, %sp
				  %n2 = add u32 %n, 1
				  br %loop
				exit:
				  %ld = load ptr<groupshared, <4 x f32>> %gp
				  %cmp = fcmp olt <4 x f32> %acc, %ld
				  %sel = select <4 x bool> %cmp, <4 x f32> %acc, %ld
				  %ins = insertelement <4 x f32> %sel, f32 %dt, u32 %i
				  %sw = shuffle <4 x f32> %ins, <4 x f32> %col, [3, 2, 5, 0]
				  %any = intr bool any(<4 x bool> %cmp)
				  %l2 = select bool %any, f32 %len, 0.0
				  %fin = insertvalue <4 x f32> %sw, f32 %l2, 1
				  %op = access ptr<storage, [? x <4 x f32>]> @Out, u32 %i
				  store <4 x f32> %fin, ptr<storage, <4 x f32>> %op
				  ret
				}`,
			want: `
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
			}`,
		}, {
			name:   "seed store example: groupshared float3 sharedData[2]",
			passes: "scalarize",
			run:    &interp.Input{},
			in: `
			module "t"

			@sharedData = global groupshared [2 x <3 x f32>]
			@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"

			define void @fn2() compute numthreads(1, 1, 1) {
			entry:
			  %p0 = access ptr<groupshared, [2 x <3 x f32>]> @sharedData, i32 0
			  store <3 x f32> <1.0, 2.0, 3.0>, ptr<groupshared, <3 x f32>> %p0
			  %p1 = access ptr<groupshared, [2 x <3 x f32>]> @sharedData, i32 1
			  store <3 x f32> <2.0, 4.0, 6.0>, ptr<groupshared, <3 x f32>> %p1
			  %e = access ptr<groupshared, [2 x <3 x f32>]> @sharedData, i32 1, i32 2
			  %v = load ptr<groupshared, f32> %e
			  %o = access ptr<storage, [? x f32]> @Out, i32 0
			  store f32 %v, ptr<storage, f32> %o
			  ret
			}`,
			want: `
			module "t"

			@sharedData = global groupshared [2 x [3 x f32]]
			@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"

			define void @fn2() compute numthreads(1, 1, 1) {
			entry:
			  %p0.x = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 0, i32 0
			  store f32 1.0, ptr<groupshared, f32> %p0.x
			  %p0.y = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 0, i32 1
			  store f32 2.0, ptr<groupshared, f32> %p0.y
			  %p0.z = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 0, i32 2
			  store f32 3.0, ptr<groupshared, f32> %p0.z
			  %p1.x = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 1, i32 0
			  store f32 2.0, ptr<groupshared, f32> %p1.x
			  %p1.y = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 1, i32 1
			  store f32 4.0, ptr<groupshared, f32> %p1.y
			  %p1.z = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 1, i32 2
			  store f32 6.0, ptr<groupshared, f32> %p1.z
			  %e = access ptr<groupshared, [2 x [3 x f32]]> @sharedData, i32 1, i32 2
			  %v = load ptr<groupshared, f32> %e
			  %o = access ptr<storage, [? x f32]> @Out, i32 0
			  store f32 %v, ptr<storage, f32> %o
			  ret
			}`,
		}, {
			name:   "seed cos(sin(a)) in a function with a vector signature (flattened: scalar parameters, struct return)",
			passes: "scalarize",
			run:    &interp.Input{Buffers: []interp.BufferInput{{Name: "In", Data: []any{[]any{0.5, 1, 2, -3}}}}},
			in: `
			module "t"

			@In = global storage [? x <4 x f32>] binding 0, 0 readonly kind "StructuredBuffer"
			@Out = global storage [? x <4 x f32>] binding 0, 1 kind "RWStructuredBuffer"

			define <4 x f32> @cos_sin(<4 x f32> %a) {
			entry:
			  %s = intr <4 x f32> sin(<4 x f32> %a)
			  %c = intr <4 x f32> cos(<4 x f32> %s)
			  ret <4 x f32> %c
			}

			define void @main() compute numthreads(1, 1, 1) {
			entry:
			  %ip = access ptr<storage, [? x <4 x f32>]> @In, i32 0
			  %a = load ptr<storage, <4 x f32>> %ip
			  %r = call <4 x f32> @cos_sin(<4 x f32> %a)
			  %b = bitcast <4 x f32> %r to <4 x i32>
			  %c = sitofp <4 x i32> %b to <4 x f32>
			  %op = access ptr<storage, [? x <4 x f32>]> @Out, i32 0
			  store <4 x f32> %c, ptr<storage, <4 x f32>> %op
			  ret
			}`,
			want: `
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
			}`,
		}})
}

// TestScalarizeIntrinsicsDifferential expands every vector intrinsic and
// checks, with the interpreter, that results are bit-identical and that no
// vector value is left.
func TestScalarizeIntrinsicsDifferential(t *testing.T) {
	t.Parallel()
	data := []any{}
	for i := 0; i < 32; i++ {
		data = append(data, float64(i%7)*0.37-1.1+float64(i)/9)
	}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "In", Data: data}}}
	src := `
		module "t"

		@In = global storage [? x f32] binding 0, 0 readonly kind "StructuredBuffer"
		@Out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"
		@Bits = global storage [? x u32] binding 0, 2 kind "RWStructuredBuffer"
		@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
		@k = global private <2 x f32> = <0.25, -0.5>

		define void @main() compute numthreads(8, 1, 1) {
		entry:
		  %id = load ptr<input, <3 x u32>> @tid
		  %i = extractvalue <3 x u32> %id, 0
		  %ia = access ptr<storage, [? x f32]> @In, u32 %i
		  %x = load ptr<storage, f32> %ia
		  %j = add u32 %i, 8
		  %ja = access ptr<storage, [? x f32]> @In, u32 %j
		  %y = load ptr<storage, f32> %ja
		  %kp = load ptr<private, <2 x f32>> @k
		  %kx = extractvalue <2 x f32> %kp, 0
		  %a = construct <3 x f32> (f32 %x, f32 %y, f32 1.5)
		  %b = construct <3 x f32> (f32 %y, f32 -2.0, f32 %x)
		  %cr = intr <3 x f32> cross(<3 x f32> %a, <3 x f32> %b)
		  %nm = intr <3 x f32> normalize(<3 x f32> %cr)
		  %rf = intr <3 x f32> reflect(<3 x f32> %nm, <3 x f32> %b)
		  %rr = intr <3 x f32> refract(<3 x f32> %rf, <3 x f32> %nm, f32 %kx)
		  %ds = intr f32 distance(<3 x f32> %rr, <3 x f32> %a)
		  %m = construct <3 x 3 x f32> (<3 x f32> %a, <3 x f32> %b, <3 x f32> %cr)
		  %mt = intr <3 x 3 x f32> transpose(<3 x 3 x f32> %m)
		  %mm = intr <3 x 3 x f32> mul(<3 x 3 x f32> %m, <3 x 3 x f32> %mt)
		  %mv = intr <3 x f32> mul(<3 x 3 x f32> %mm, <3 x f32> %rr)
		  %vm = intr <3 x f32> mul(<3 x f32> %mv, <3 x 3 x f32> %m)
		  %sv = intr <3 x f32> mul(f32 %x, <3 x f32> %vm)
		  %vv = intr f32 mul(<3 x f32> %sv, <3 x f32> %a)
		  %det = intr f32 determinant(<3 x 3 x f32> %mm)
		  %cl = intr <3 x f32> clamp(<3 x f32> %sv, <3 x f32> <-1.0, -1.0, -1.0>, <3 x f32> <1.0, 1.0, 1.0>)
		  %ws = intr <3 x f32> WaveActiveSum(<3 x f32> %cl)
		  %wr = intr <3 x f32> WaveReadLaneAt(<3 x f32> %ws, u32 2)
		  %we = intr bool WaveActiveAllEqual(<3 x f32> %wr)
		  %gt = fcmp ogt <3 x f32> %wr, %a
		  %al = intr bool all(<3 x bool> %gt)
		  %ballot = intr <4 x u32> WaveActiveBallot(bool %al)
		  %bx = extractvalue <4 x u32> %ballot, 0
		  %s0 = fadd f32 %ds, %vv
		  %s1 = fadd f32 %s0, %det
		  %wx = extractelement <3 x f32> %wr, u32 %i
		  %s2 = fadd f32 %s1, %wx
		  %s3 = select bool %we, f32 %s2, %x
		  %op = access ptr<storage, [? x f32]> @Out, u32 %i
		  store f32 %s3, ptr<storage, f32> %op
		  %bp = access ptr<storage, [? x u32]> @Bits, u32 %i
		  store u32 %bx, ptr<storage, u32> %bp
		  ret
		}`
	m := parseIR(t, "intrinsics", src)
	before := mustRun(t, m, in)
	runPasses(t, m, "scalarize,simplify", "dxil")
	after := mustRun(t, m, in)
	if ok, diff := before.Equal(after); !ok {
		t.Fatalf("results differ: %s\n%s", diff, m)
	}
	if vs := vectorValues(m); len(vs) > 0 {
		t.Errorf("vector values left after scalarize:\n%v\n%s", vs, m)
	}
	if m.Global("k").ValType.String() != "[2 x f32]" {
		t.Errorf("private <2 x f32> not flattened: %s", m.Global("k").ValType)
	}
}

// TestScalarizeMemory covers the seed's three load/store cases on
// flattened local memory, memcpy and memset, and dynamically indexed
// arrays of vectors.
func TestScalarizeMemory(t *testing.T) {
	t.Parallel()
	runCases(t, []passCase{{
		name:   "memcpy memset and a dynamically indexed array of vectors",
		passes: "scalarize",
		run: &interp.Input{Buffers: []interp.BufferInput{{Name: "In", Data: []any{
			[]any{[]any{1, 2}, 7}, []any{[]any{3, 4}, 8}, []any{[]any{5, 6}, 9}, []any{[]any{-1, 0.5}, 10},
		}}}},
		in: `
			module "t"

			type %V = { <2 x f32> uv, u32 id }

			@In = global storage [? x %V] binding 0, 0 readonly kind "StructuredBuffer"
			@Out = global storage [? x %V] binding 0, 1 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %id = load ptr<input, <3 x u32>> @tid
			  %i = extractvalue <3 x u32> %id, 0
			  %arr = alloca [4 x <2 x f32>]
			  %loc = alloca %V
			  memset ptr<function, [4 x <2 x f32>]> %arr, u32 0
			  %src = access ptr<storage, [? x %V]> @In, u32 %i
			  memcpy ptr<function, %V> %loc, ptr<storage, %V> %src
			  %lv = load ptr<function, %V> %loc
			  %uv = extractvalue %V %lv, 0
			  %slot = access ptr<function, [4 x <2 x f32>]> %arr, u32 %i
			  store <2 x f32> %uv, ptr<function, <2 x f32>> %slot
			  %j = xor u32 %i, 1
			  %other = access ptr<function, [4 x <2 x f32>]> %arr, u32 %j
			  %ov = load ptr<function, <2 x f32>> %other
			  %sum = fadd <2 x f32> %uv, %ov
			  %nv = insertvalue %V %lv, <2 x f32> %sum, 0
			  %dst = access ptr<storage, [? x %V]> @Out, u32 %i
			  store %V %nv, ptr<storage, %V> %dst
			  ret
			}`,
		want: `
			module "t"

			type %V = { <2 x f32> uv, u32 id }
			type %V.flat = { [2 x f32] uv, u32 id }

			@In = global storage [? x %V] binding 0, 0 readonly kind "StructuredBuffer"
			@Out = global storage [? x %V] binding 0, 1 kind "RWStructuredBuffer"
			@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

			define void @main() compute numthreads(4, 1, 1) {
			entry:
			  %tid.x = access ptr<input, <3 x u32>> @tid, i32 0
			  %tid.y = access ptr<input, <3 x u32>> @tid, i32 1
			  %tid.z = access ptr<input, <3 x u32>> @tid, i32 2
			  %id.x = load ptr<input, u32> %tid.x
			  %id.y = load ptr<input, u32> %tid.y
			  %id.z = load ptr<input, u32> %tid.z
			  %arr = alloca [4 x [2 x f32]]
			  %loc = alloca %V.flat
			  %arr.0.0 = access ptr<function, [4 x [2 x f32]]> %arr, i32 0, i32 0
			  store f32 0.0, ptr<function, f32> %arr.0.0
			  %arr.0.1 = access ptr<function, [4 x [2 x f32]]> %arr, i32 0, i32 1
			  store f32 0.0, ptr<function, f32> %arr.0.1
			  %arr.1.0 = access ptr<function, [4 x [2 x f32]]> %arr, i32 1, i32 0
			  store f32 0.0, ptr<function, f32> %arr.1.0
			  %arr.1.1 = access ptr<function, [4 x [2 x f32]]> %arr, i32 1, i32 1
			  store f32 0.0, ptr<function, f32> %arr.1.1
			  %arr.2.0 = access ptr<function, [4 x [2 x f32]]> %arr, i32 2, i32 0
			  store f32 0.0, ptr<function, f32> %arr.2.0
			  %arr.2.1 = access ptr<function, [4 x [2 x f32]]> %arr, i32 2, i32 1
			  store f32 0.0, ptr<function, f32> %arr.2.1
			  %arr.3.0 = access ptr<function, [4 x [2 x f32]]> %arr, i32 3, i32 0
			  store f32 0.0, ptr<function, f32> %arr.3.0
			  %arr.3.1 = access ptr<function, [4 x [2 x f32]]> %arr, i32 3, i32 1
			  store f32 0.0, ptr<function, f32> %arr.3.1
			  %src.uv.x = access ptr<storage, [? x %V]> @In, u32 %id.x, i32 0, i32 0
			  %loc.uv.x = access ptr<function, %V.flat> %loc, i32 0, i32 0
			  %src.uv.x.val = load ptr<storage, f32> %src.uv.x
			  store f32 %src.uv.x.val, ptr<function, f32> %loc.uv.x
			  %src.uv.y = access ptr<storage, [? x %V]> @In, u32 %id.x, i32 0, i32 1
			  %loc.uv.y = access ptr<function, %V.flat> %loc, i32 0, i32 1
			  %src.uv.y.val = load ptr<storage, f32> %src.uv.y
			  store f32 %src.uv.y.val, ptr<function, f32> %loc.uv.y
			  %src.id = access ptr<storage, [? x %V]> @In, u32 %id.x, i32 1
			  %loc.id = access ptr<function, %V.flat> %loc, i32 1
			  %src.id.val = load ptr<storage, u32> %src.id
			  store u32 %src.id.val, ptr<function, u32> %loc.id
			  %loc.uv.x_1 = access ptr<function, %V.flat> %loc, i32 0, i32 0
			  %loc.uv.y_1 = access ptr<function, %V.flat> %loc, i32 0, i32 1
			  %loc.id_1 = access ptr<function, %V.flat> %loc, i32 1
			  %lv.uv.x = load ptr<function, f32> %loc.uv.x_1
			  %lv.uv.y = load ptr<function, f32> %loc.uv.y_1
			  %lv.id = load ptr<function, u32> %loc.id_1
			  %slot.x = access ptr<function, [4 x [2 x f32]]> %arr, u32 %id.x, i32 0
			  store f32 %lv.uv.x, ptr<function, f32> %slot.x
			  %slot.y = access ptr<function, [4 x [2 x f32]]> %arr, u32 %id.x, i32 1
			  store f32 %lv.uv.y, ptr<function, f32> %slot.y
			  %j = xor u32 %id.x, 1
			  %other.x = access ptr<function, [4 x [2 x f32]]> %arr, u32 %j, i32 0
			  %other.y = access ptr<function, [4 x [2 x f32]]> %arr, u32 %j, i32 1
			  %ov.x = load ptr<function, f32> %other.x
			  %ov.y = load ptr<function, f32> %other.y
			  %sum.x = fadd f32 %lv.uv.x, %ov.x
			  %sum.y = fadd f32 %lv.uv.y, %ov.y
			  %dst.uv.x = access ptr<storage, [? x %V]> @Out, u32 %id.x, i32 0, i32 0
			  store f32 %sum.x, ptr<storage, f32> %dst.uv.x
			  %dst.uv.y = access ptr<storage, [? x %V]> @Out, u32 %id.x, i32 0, i32 1
			  store f32 %sum.y, ptr<storage, f32> %dst.uv.y
			  %dst.id = access ptr<storage, [? x %V]> @Out, u32 %id.x, i32 1
			  store u32 %lv.id, ptr<storage, u32> %dst.id
			  ret
			}`,
	}, {
		name:   "seed case 3: plain aggregate loads and stores",
		passes: "scalarize",
		run: &interp.Input{Buffers: []interp.BufferInput{{Name: "In", Data: []any{
			[]any{1, 2, []any{3, 4}}, []any{5, 6, []any{7, 8}},
		}}}},
		in: `
			module "t"

			type %P = { u32 a, i32 b, [2 x u32] c }

			@In = global storage [? x %P] binding 0, 0 readonly kind "StructuredBuffer"
			@Out = global storage [? x %P] binding 0, 1 kind "RWStructuredBuffer"

			define void @main() compute numthreads(1, 1, 1) {
			entry:
			  %src = access ptr<storage, [? x %P]> @In, i32 1
			  %v = load ptr<storage, %P> %src
			  %c = extractvalue %P %v, 2
			  %w = insertvalue %P %v, [2 x u32] [9, 10], 2
			  %dst = access ptr<storage, [? x %P]> @Out, i32 0
			  store %P %w, ptr<storage, %P> %dst
			  %dc = access ptr<storage, [? x %P]> @Out, i32 1, i32 2
			  store [2 x u32] %c, ptr<storage, [2 x u32]> %dc
			  ret
			}`,
		want: `
			module "t"

			type %P = { u32 a, i32 b, [2 x u32] c }

			@In = global storage [? x %P] binding 0, 0 readonly kind "StructuredBuffer"
			@Out = global storage [? x %P] binding 0, 1 kind "RWStructuredBuffer"

			define void @main() compute numthreads(1, 1, 1) {
			entry:
			  %src.a = access ptr<storage, [? x %P]> @In, i32 1, i32 0
			  %src.b = access ptr<storage, [? x %P]> @In, i32 1, i32 1
			  %src.c.0 = access ptr<storage, [? x %P]> @In, i32 1, i32 2, i32 0
			  %src.c.1 = access ptr<storage, [? x %P]> @In, i32 1, i32 2, i32 1
			  %v.a = load ptr<storage, u32> %src.a
			  %v.b = load ptr<storage, i32> %src.b
			  %v.c.0 = load ptr<storage, u32> %src.c.0
			  %v.c.1 = load ptr<storage, u32> %src.c.1
			  %dst.a = access ptr<storage, [? x %P]> @Out, i32 0, i32 0
			  store u32 %v.a, ptr<storage, u32> %dst.a
			  %dst.b = access ptr<storage, [? x %P]> @Out, i32 0, i32 1
			  store i32 %v.b, ptr<storage, i32> %dst.b
			  %dst.c.0 = access ptr<storage, [? x %P]> @Out, i32 0, i32 2, i32 0
			  store u32 9, ptr<storage, u32> %dst.c.0
			  %dst.c.1 = access ptr<storage, [? x %P]> @Out, i32 0, i32 2, i32 1
			  store u32 10, ptr<storage, u32> %dst.c.1
			  %dc.0 = access ptr<storage, [? x %P]> @Out, i32 1, i32 2, i32 0
			  store u32 %v.c.0, ptr<storage, u32> %dc.0
			  %dc.1 = access ptr<storage, [? x %P]> @Out, i32 1, i32 2, i32 1
			  store u32 %v.c.1, ptr<storage, u32> %dc.1
			  ret
			}`,
	}})
}

// TestScalarizeCompositeIntrinsics expands smoothstep, step, sign,
// degrees, radians and ldexp (scalar and vector, float and int operands)
// into scalar arithmetic: no call of them may remain, and the
// interpreter's results must be bit-identical, including NaN, infinities,
// signed zeros and the saturate edges of smoothstep.
func TestScalarizeCompositeIntrinsics(t *testing.T) {
	t.Parallel()
	data := []any{"nan", "inf", "-inf", "-0.0", 0, 1, -1, 0.5, 2.75, -3.25, 1e-30, 7, "0x7F7FFFFF", -0.125, 0.999, 1.001}
	ints := []any{0, 1, -1, 5, -7, 2147483647, -2147483648, 3, 0, 2, -2, 9, 4, -4, 6, -6}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "In", Data: data}, {Name: "Ints", Data: ints}}}
	src := `
		module "t"

		@In = global storage [? x f32] binding 0, 0 readonly kind "StructuredBuffer"
		@Ints = global storage [? x i32] binding 0, 1 readonly kind "StructuredBuffer"
		@Out = global storage [? x f32] binding 0, 2 kind "RWStructuredBuffer"
		@OutI = global storage [? x i32] binding 0, 3 kind "RWStructuredBuffer"
		@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

		define void @main() compute numthreads(16, 1, 1) {
		entry:
		  %id = load ptr<input, <3 x u32>> @tid
		  %i = extractvalue <3 x u32> %id, 0
		  %j = xor u32 %i, 5
		  %k = xor u32 %i, 10
		  %xa = access ptr<storage, [? x f32]> @In, u32 %i
		  %x = load ptr<storage, f32> %xa
		  %ya = access ptr<storage, [? x f32]> @In, u32 %j
		  %y = load ptr<storage, f32> %ya
		  %za = access ptr<storage, [? x f32]> @In, u32 %k
		  %z = load ptr<storage, f32> %za
		  %na = access ptr<storage, [? x i32]> @Ints, u32 %i
		  %n = load ptr<storage, i32> %na
		  %ss = intr f32 smoothstep(f32 %x, f32 %y, f32 %z)
		  %ss1 = intr f32 smoothstep(f32 0.0, f32 1.0, f32 %x)
		  %st = intr f32 step(f32 %x, f32 %y)
		  %sg = intr i32 sign(f32 %x)
		  %sn = intr i32 sign(i32 %n)
		  %dg = intr f32 degrees(f32 %x)
		  %rd = intr f32 radians(f32 %y)
		  %le = intr f32 ldexp(f32 %x, f32 %y)
		  %v = construct <3 x f32> (f32 %x, f32 %y, f32 %z)
		  %w = construct <3 x f32> (f32 %z, f32 %x, f32 %y)
		  %vs = intr <3 x f32> smoothstep(<3 x f32> %v, <3 x f32> %w, <3 x f32> <0.25, 0.5, 0.75>)
		  %vt = intr <3 x f32> step(<3 x f32> %w, <3 x f32> %v)
		  %vg = intr <3 x i32> sign(<3 x f32> %v)
		  %vd = intr <3 x f32> degrees(<3 x f32> %w)
		  %vr = intr <3 x f32> radians(<3 x f32> %v)
		  %vl = intr <3 x f32> ldexp(<3 x f32> %v, <3 x f32> <1.0, -2.0, 3.0>)
		  %s0 = fadd f32 %ss, %ss1
		  %s1 = fadd f32 %s0, %st
		  %s2 = fadd f32 %s1, %dg
		  %s3 = fadd f32 %s2, %rd
		  %s4 = fadd f32 %s3, %le
		  %d = intr f32 dot(<3 x f32> %vs, <3 x f32> %vt)
		  %e = intr f32 dot(<3 x f32> %vd, <3 x f32> %vr)
		  %l = intr f32 dot(<3 x f32> %vl, <3 x f32> <1.0, 1.0, 1.0>)
		  %s5 = fadd f32 %s4, %d
		  %s6 = fadd f32 %s5, %e
		  %s7 = fadd f32 %s6, %l
		  %o = mul u32 %i, 2
		  %op = access ptr<storage, [? x f32]> @Out, u32 %o
		  store f32 %s7, ptr<storage, f32> %op
		  %o1 = add u32 %o, 1
		  %op1 = access ptr<storage, [? x f32]> @Out, u32 %o1
		  store f32 %ss, ptr<storage, f32> %op1
		  %gx = extractvalue <3 x i32> %vg, 0
		  %gy = extractvalue <3 x i32> %vg, 1
		  %g0 = mul i32 %sg, 100
		  %g1 = mul i32 %sn, 10
		  %g2 = add i32 %g0, %g1
		  %g3 = add i32 %g2, %gx
		  %g4 = mul i32 %gy, 1000
		  %g5 = add i32 %g3, %g4
		  %oi = access ptr<storage, [? x i32]> @OutI, u32 %i
		  store i32 %g5, ptr<storage, i32> %oi
		  ret
		}`
	m := parseIR(t, "composite", src)
	before := mustRun(t, m, in)
	runPasses(t, m, "scalarize,simplify", "dxil")
	after := mustRun(t, m, in)
	if ok, diff := before.Equal(after); !ok {
		t.Fatalf("results differ: %s\n%s", diff, m)
	}
	text := m.String()
	for name := range compositeIntrinsics {
		if strings.Contains(text, " "+name+"(") {
			t.Errorf("%s left after scalarize:\n%s", name, text)
		}
	}
	if vs := vectorValues(m); len(vs) > 0 {
		t.Errorf("vector values left after scalarize:\n%v", vs)
	}
	// DXC's shapes: smoothstep keeps a saturate, sign is zext - zext.
	for _, w := range []string{
		"%ss.t = intr f32 saturate(f32 %ss.q)",
		"%sg = sub i32 %sg.p, %sg.n",
		"%st.ge = fcmp oge f32 %y, %x",
		"%le.e = intr f32 exp2(f32 %y)",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in\n%s", w, text)
		}
	}
}

// TestScalarizeSignatures flattens the signatures of functions that keep
// vectors, matrices and structs holding them in their parameters and
// return types (here, as after a pipeline without inline): parameters
// become one scalar per leaf, returns a struct of the leaves. Calls with
// constant, constructed and loaded arguments, a constant return, an out
// pointer and a nested call chain are executed by the interpreter before
// and after; no vector may remain in any signature or value.
func TestScalarizeSignatures(t *testing.T) {
	t.Parallel()
	data := []any{}
	for i := 0; i < 32; i++ {
		data = append(data, float64(i%9)*0.5-1.75)
	}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "In", Data: data}}}
	src := `
		module "t"

		type %Light = { <3 x f32> dir, f32 power }

		@In = global storage [? x f32] binding 0, 0 readonly kind "StructuredBuffer"
		@Out = global storage [? x f32] binding 0, 1 kind "RWStructuredBuffer"
		@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

		define <2 x 2 x f32> @rot(f32 %a, <2 x f32> %s) {
		entry:
		  %c = intr f32 cos(f32 %a)
		  %n = intr f32 sin(f32 %a)
		  %sx = extractvalue <2 x f32> %s, 0
		  %sy = extractvalue <2 x f32> %s, 1
		  %cx = fmul f32 %c, %sx
		  %nx = fmul f32 %n, %sy
		  %nn = fneg f32 %nx
		  %r0 = construct <2 x f32> (f32 %cx, f32 %nn)
		  %r1 = construct <2 x f32> (f32 %n, f32 %c)
		  %m = construct <2 x 2 x f32> (<2 x f32> %r0, <2 x f32> %r1)
		  ret <2 x 2 x f32> %m
		}

		define f32 @shade(%Light %l, <3 x f32> %n, ptr<function, <3 x f32>> %out) {
		entry:
		  %d = extractvalue %Light %l, 0
		  %p = extractvalue %Light %l, 1
		  %dn = intr f32 dot(<3 x f32> %d, <3 x f32> %n)
		  %r = fmul f32 %dn, %p
		  %sc = fmul <3 x f32> %n, <2.0, 2.0, 2.0>
		  store <3 x f32> %sc, ptr<function, <3 x f32>> %out
		  ret f32 %r
		}

		define <2 x f32> @one(<3 x f32> %v) {
		entry:
		  %l = intr f32 length(<3 x f32> %v)
		  ret <2 x f32> <0.5, 0.25>
		}

		define <3 x f32> @chain(<3 x f32> %v, %Light %l) {
		entry:
		  %o = call <2 x f32> @one(<3 x f32> %v)
		  %ox = extractvalue <2 x f32> %o, 1
		  %d = extractvalue %Light %l, 0
		  %r = fmul <3 x f32> %d, %v
		  %s = insertelement <3 x f32> %r, f32 %ox, u32 1
		  ret <3 x f32> %s
		}

		define void @main() compute numthreads(8, 1, 1) {
		entry:
		  %tmp = alloca <3 x f32>
		  %id = load ptr<input, <3 x u32>> @tid
		  %i = extractvalue <3 x u32> %id, 0
		  %xa = access ptr<storage, [? x f32]> @In, u32 %i
		  %x = load ptr<storage, f32> %xa
		  %j = add u32 %i, 8
		  %ya = access ptr<storage, [? x f32]> @In, u32 %j
		  %y = load ptr<storage, f32> %ya
		  %m = call <2 x 2 x f32> @rot(f32 %x, <2 x f32> <1.5, -0.5>)
		  %m01 = extractvalue <2 x 2 x f32> %m, 0, 1
		  %m10 = extractvalue <2 x 2 x f32> %m, 1, 0
		  %v = construct <3 x f32> (f32 %x, f32 %y, f32 %m01)
		  %l = construct %Light (<3 x f32> %v, f32 %m10)
		  %sh = call f32 @shade(%Light %l, <3 x f32> <0.0, 1.0, 0.0>, ptr<function, <3 x f32>> %tmp)
		  %tv = load ptr<function, <3 x f32>> %tmp
		  %c = call <3 x f32> @chain(<3 x f32> %tv, %Light %l)
		  %cz = extractvalue <3 x f32> %c, 2
		  %cy = extractvalue <3 x f32> %c, 1
		  %s0 = fadd f32 %sh, %cz
		  %s1 = fadd f32 %s0, %cy
		  %op = access ptr<storage, [? x f32]> @Out, u32 %i
		  store f32 %s1, ptr<storage, f32> %op
		  ret
		}`
	m := parseIR(t, "signatures", src)
	before := mustRun(t, m, in)
	runPasses(t, m, "scalarize,simplify", "dxil")
	after := mustRun(t, m, in)
	if ok, diff := before.Equal(after); !ok {
		t.Fatalf("results differ: %s\n%s", diff, m)
	}
	text := m.String()
	for _, w := range []string{
		"type %rot.ret = { f32 e0_x, f32 e0_y, f32 e1_x, f32 e1_y }",
		"define %rot.ret @rot(f32 %a, f32 %s.x, f32 %s.y) {",
		"define f32 @shade(f32 %l.dir.x, f32 %l.dir.y, f32 %l.dir.z, f32 %l.power, f32 %n.x, f32 %n.y, f32 %n.z, ptr<function, <3 x f32>> %out) {",
		"define %one.ret @one(f32 %v.x, f32 %v.y, f32 %v.z) {",
		"ret %one.ret {0.5, 0.25}",
		"define %chain.ret @chain(f32 %v.x, f32 %v.y, f32 %v.z, f32 %l.dir.x, f32 %l.dir.y, f32 %l.dir.z, f32 %l.power) {",
		"call %rot.ret @rot(f32 %x, f32 1.5, f32 -0.5)",
		"call f32 @shade(f32 %x, f32 %y, f32 %m.e0_y, f32 %m.e1_x, f32 0.0, f32 1.0, f32 0.0, ptr<function, <3 x f32>> %tmp)",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in\n%s", w, text)
		}
	}
	for _, f := range m.Funcs {
		for _, p := range f.Params {
			if holdsVector(p.Type()) && p.Type().Kind != ir.KPointer {
				t.Errorf("@%s: parameter %s keeps %s", f.Name(), p.Ref(), p.Type())
			}
		}
		if holdsVector(f.Ret) {
			t.Errorf("@%s returns %s", f.Name(), f.Ret)
		}
	}
}

// TestScalarizeOneColumnMatrix: the rows of a one-column matrix are
// scalars (<2 x 1 x f32> row 0 is an f32), so its flattened memory is
// [2 x f32], not [2 x [1 x f32]] — a vkd3d shader (cf-cond-types,
// `static const float1x1 f; if (f);`) once made scalarize load an f32
// through a pointer to [1 x f32].
func TestScalarizeOneColumnMatrix(t *testing.T) {
	t.Parallel()
	src := `
		module "t"

		@f = global private <2 x 1 x f32> = <1.5, -2.0>
		@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"

		define void @main() compute numthreads(1, 1, 1) {
		entry:
		  %m = load ptr<private, <2 x 1 x f32>> @f
		  %r0 = extractvalue <2 x 1 x f32> %m, 0
		  %r1 = extractvalue <2 x 1 x f32> %m, 1
		  %p = access ptr<private, <2 x 1 x f32>> @f, i32 1
		  store f32 4.0, ptr<private, f32> %p
		  %m2 = load ptr<private, <2 x 1 x f32>> @f
		  %q1 = extractvalue <2 x 1 x f32> %m2, 1
		  %s = fadd f32 %r0, %r1
		  %s2 = fadd f32 %s, %q1
		  %o = access ptr<storage, [? x f32]> @Out, i32 0
		  store f32 %s2, ptr<storage, f32> %o
		  ret
		}`
	m := parseIR(t, "one-column", src)
	in := &interp.Input{}
	before := mustRun(t, m, in)
	runPasses(t, m, "scalarize,simplify", "dxil")
	after := mustRun(t, m, in)
	if ok, diff := before.Equal(after); !ok {
		t.Fatalf("results differ: %s\n%s", diff, m)
	}
	if got := m.Global("f").ValType.String(); got != "[2 x f32]" {
		t.Errorf("flattened type %s, want [2 x f32]\n%s", got, m)
	}
}
