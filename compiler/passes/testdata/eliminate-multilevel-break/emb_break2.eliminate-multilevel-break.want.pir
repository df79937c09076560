module "emb_break2.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  br %outer
outer:
  %a = phi i32 [0, %entry], [%a.next, %outer.cont]
  %r = phi i32 [0, %entry], [%r.out, %outer.cont]
  %amore = icmp slt i32 %a, 4
  loop_merge %outer.exit, %outer.cont
  condbr bool %amore, %inner.pre, %outer.exit
inner.pre:
  br %inner
inner:
  %b = phi i32 [0, %inner.pre], [%b.next, %inner.cont]
  %ri = phi i32 [%r, %inner.pre], [%ri.next, %inner.cont]
  %bmore = icmp slt i32 %b, 4
  loop_merge %inner.exit.1, %inner.cont
  condbr bool %bmore, %body, %inner.exit.1
body:
  %a4 = mul i32 %a, 4
  %t = add i32 %a4, %b
  %hit = icmp eq i32 %t, %x
  selection_merge %body.2
  condbr bool %hit, %inner.exit.1, %body.2
body.2:
  %diag = icmp eq i32 %b, %a
  selection_merge %body.3
  condbr bool %diag, %inner.exit.1, %body.3
body.3:
  %ri.next = add i32 %ri, %t
  br %inner.cont
inner.cont:
  %b.next = add i32 %b, 1
  br %inner
inner.exit.1:
  %inner.dest = phi i32 [0, %inner], [2, %body], [1, %body.2]
  %r.out.1 = phi i32 [%ri, %body.2], [undef, %inner], [undef, %body]
  %found.1 = phi i32 [%t, %body], [undef, %inner], [undef, %body.2]
  %rr.1 = phi i32 [%ri, %body], [undef, %inner], [undef, %body.2]
  %inner.to.outer.cont.p = icmp eq i32 %inner.dest, 1
  selection_merge %inner.exit.2
  condbr bool %inner.to.outer.cont.p, %inner.to.outer.cont, %inner.exit.2
inner.to.outer.cont:
  br %outer.cont
inner.exit.2:
  %inner.to.outer.exit.p = icmp eq i32 %inner.dest, 2
  selection_merge %inner.exit
  condbr bool %inner.to.outer.exit.p, %inner.to.outer.exit, %inner.exit
inner.to.outer.exit:
  br %outer.exit
inner.exit:
  %r100 = add i32 %ri, 100
  br %outer.cont
outer.cont:
  %r.out = phi i32 [%r100, %inner.exit], [%r.out.1, %inner.to.outer.cont]
  %a.next = add i32 %a, 1
  br %outer
outer.exit:
  %found = phi i32 [-1, %outer], [%found.1, %inner.to.outer.exit]
  %rr = phi i32 [%r, %outer], [%rr.1, %inner.to.outer.exit]
  %f1000 = mul i32 %found, 1000
  %res = add i32 %f1000, %rr
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %res, ptr<storage, i32> %out.p
  ret
}
