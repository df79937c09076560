module "emb_break2.pir"

; run: eliminate-multilevel-break
; run: structurize
; data: 0 5 6 7 9 10 11 14 15 16 99 -3 1 2 3 12

; Multi-level exits out of nested loops: a break out of both loops from the
; inner one (its value used after the outer loop) and a continue of the
; outer loop from the inner one.
;   r = 0;
;   for (a = 0; a < 4; a++) {
;     for (b = 0; b < 4; b++) {
;       t = a * 4 + b;
;       if (t == x) { found = t; goto done; }   // break 2
;       if (b == a) continue outer;             // continue 2
;       r += t;
;     }
;     r += 100;
;   }
;   found = -1;
;   done: Out[i] = found * 1000 + r;     (done is the outer loop's merge)

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
  loop_merge %inner.exit, %inner.cont
  condbr bool %bmore, %body, %inner.exit
body:
  %a4 = mul i32 %a, 4
  %t = add i32 %a4, %b
  %hit = icmp eq i32 %t, %x
  selection_merge %body.2
  condbr bool %hit, %outer.exit, %body.2
body.2:
  %diag = icmp eq i32 %b, %a
  selection_merge %body.3
  condbr bool %diag, %outer.cont, %body.3
body.3:
  %ri.next = add i32 %ri, %t
  br %inner.cont
inner.cont:
  %b.next = add i32 %b, 1
  br %inner
inner.exit:
  %r100 = add i32 %ri, 100
  br %outer.cont
outer.cont:
  %r.out = phi i32 [%r100, %inner.exit], [%ri, %body.2]
  %a.next = add i32 %a, 1
  br %outer
outer.exit:
  %found = phi i32 [-1, %outer], [%t, %body]
  %rr = phi i32 [%r, %outer], [%ri, %body]
  %f1000 = mul i32 %found, 1000
  %res = add i32 %f1000, %rr
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %res, ptr<storage, i32> %out.p
  ret
}
