module "switch_loop_continue.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %switch.loop.rep = alloca f32
  %loop.rep = alloca f32
  %k.var = alloca f32
  %acc.var = alloca f32
  %a1.in.var = alloca f32
  %switch.loop.brk.var = alloca bool
  %acc.next.1.var = alloca f32
  %acc.sw.1.var = alloca f32
  %acc.next.var = alloca f32
  %tid = load ptr<input, <3 x u32>> @tid
  %tid.f = uitofp <3 x u32> %tid to <3 x f32>
  %i = extractvalue <3 x f32> %tid.f, 0
  %i.idx = fptosi f32 %i to i32
  %in.p = access ptr<storage, [? x i32]> @In, i32 %i.idx
  %x = load ptr<storage, i32> %in.p
  %x.f = sitofp i32 %x to f32
  %odd.bit.q = fmul f32 %i, 0.5
  %odd.bit.fl = intr f32 floor(f32 %odd.bit.q)
  %odd.bit.hi = fmul f32 %odd.bit.fl, 2.0
  %odd.bit = fsub f32 %i, %odd.bit.hi
  %odd = fcmp oeq f32 %odd.bit, 1.0
  store f32 0.0, ptr<function, f32> %k.var
  store f32 0.0, ptr<function, f32> %acc.var
  store f32 0.0, ptr<function, f32> %loop.rep
  br %loop
loop:
  %loop.rep.n = load ptr<function, f32> %loop.rep
  %loop.rep.done = fcmp oge f32 %loop.rep.n, 4.0
  intr void sm3.rep(i32 4, bool %loop.rep.done)
  %loop.rep.next = fadd f32 %loop.rep.n, 1.0
  store f32 %loop.rep.next, ptr<function, f32> %loop.rep
  %k = load ptr<function, f32> %k.var
  %acc = load ptr<function, f32> %acc.var
  %more = fcmp olt f32 %k, 4.0
  %loop.rep.go = select bool %loop.rep.done, bool false, %more
  loop_merge %loop.exit, %loop.cont
  condbr bool %loop.rep.go, %body, %loop.exit
body:
  %s0 = fadd f32 %x.f, %k
  %s.q = fmul f32 %s0, 0.25
  %s.fl = intr f32 floor(f32 %s.q)
  %s.hi = fmul f32 %s.fl, 4.0
  %s = fsub f32 %s0, %s.hi
  store f32 0.0, ptr<function, f32> %switch.loop.rep
  br %switch.loop
switch.loop:
  %switch.loop.rep.n = load ptr<function, f32> %switch.loop.rep
  %switch.loop.rep.done = fcmp oge f32 %switch.loop.rep.n, 1.0
  intr void sm3.rep(i32 1, bool %switch.loop.rep.done)
  %switch.loop.rep.next = fadd f32 %switch.loop.rep.n, 1.0
  store f32 %switch.loop.rep.next, ptr<function, f32> %switch.loop.rep
  %isCase0 = fcmp oeq f32 %s, 0.0
  %isCase1 = fcmp oeq f32 %s, 1.0
  %isCase2 = fcmp oeq f32 %s, 2.0
  %reachesCase1 = or bool %isCase0, %isCase1
  loop_merge %switch.loop.exit, %switch.cont
  condbr bool %switch.loop.rep.done, %switch.loop.exit, %switch.body
switch.body:
  store f32 %acc, ptr<function, f32> %a1.in.var
  selection_merge %case0.after
  condbr bool %isCase0, %case0, %case0.after
case0:
  %a0 = fadd f32 %acc, 1.0
  store f32 %a0, ptr<function, f32> %a1.in.var
  br %case0.after
case0.after:
  %a1.in = load ptr<function, f32> %a1.in.var
  selection_merge %case1.after
  condbr bool %reachesCase1, %case1, %case1.after
case1:
  %a1 = fadd f32 %a1.in, 10.0
  store bool true, ptr<function, bool> %switch.loop.brk.var
  store f32 %a1, ptr<function, f32> %acc.next.1.var
  selection_merge %case1.rest
  condbr bool %odd, %switch.loop.exit, %case1.rest
case1.rest:
  %a1.b = fadd f32 %a1, 100.0
  store bool false, ptr<function, bool> %switch.loop.brk.var
  store f32 %a1.b, ptr<function, f32> %acc.sw.1.var
  br %switch.loop.exit
case1.after:
  selection_merge %switch.next
  condbr bool %isCase2, %switch.exit, %switch.next
switch.exit:
  store bool true, ptr<function, bool> %switch.loop.brk.var
  store f32 %acc, ptr<function, f32> %acc.next.1.var
  br %switch.loop.exit
switch.next:
  selection_merge %default.after
  condbr bool true, %default, %default.after
default:
  %ad = fadd f32 %acc, 1000.0
  store bool false, ptr<function, bool> %switch.loop.brk.var
  store f32 %ad, ptr<function, f32> %acc.sw.1.var
  br %switch.loop.exit
default.after:
  br %switch.cont
switch.cont:
  store bool false, ptr<function, bool> %switch.loop.brk.var
  condbr bool false, %switch.loop, %switch.loop.exit
switch.loop.exit:
  %switch.loop.brk = load ptr<function, bool> %switch.loop.brk.var
  %acc.next.1 = load ptr<function, f32> %acc.next.1.var
  %acc.sw.1 = load ptr<function, f32> %acc.sw.1.var
  selection_merge %sw.merge
  condbr bool %switch.loop.brk, %switch.loop.to.loop.cont, %sw.merge
switch.loop.to.loop.cont:
  store f32 %acc.next.1, ptr<function, f32> %acc.next.var
  br %loop.cont
sw.merge:
  %acc.5 = fadd f32 %acc.sw.1, 5.0
  store f32 %acc.5, ptr<function, f32> %acc.next.var
  br %loop.cont
loop.cont:
  %acc.next = load ptr<function, f32> %acc.next.var
  %k.next = fadd f32 %k, 1.0
  store f32 %k.next, ptr<function, f32> %k.var
  store f32 %acc.next, ptr<function, f32> %acc.var
  br %loop
loop.exit:
  %i.idx.1 = fptosi f32 %i to i32
  %out.p = access ptr<storage, [? x i32]> @Out, i32 %i.idx.1
  %acc_1 = load ptr<function, f32> %acc.var
  %acc_1.i = fptosi f32 %acc_1 to i32
  store i32 %acc_1.i, ptr<storage, i32> %out.p
  ret
}
