module "switch_loop_continue.pir"

; run: switch-to-if<all>,eliminate-multilevel-break,out-of-ssa,structurize,sm3-lower

; A switch inside a loop whose cases use `continue`, `break` and fallthrough:
;   for (k = 0; k < 4; k++) {
;     switch ((In[i] + k) & 3) {
;     case 0: acc += 1;            // falls through
;     case 1: acc += 10; if (odd) continue; acc += 100; break;
;     case 2: continue;
;     default: acc += 1000;
;     }
;     acc += 5;
;   }
;   Out[i] = acc;

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  %odd.bit = and u32 %i, 1
  %odd = icmp eq u32 %odd.bit, 1
  br %loop
loop:
  %k = phi i32 [0, %entry], [%k.next, %loop.cont]
  %acc = phi i32 [0, %entry], [%acc.next, %loop.cont]
  %more = icmp slt i32 %k, 4
  loop_merge %loop.exit, %loop.cont
  condbr bool %more, %body, %loop.exit
body:
  %s0 = add i32 %x, %k
  %s = and i32 %s0, 3
  selection_merge %sw.merge
  switch i32 %s [case 0: %case0] [case 1: %case1] [case 2: %loop.cont] [default: %default]
case0:
  %a0 = add i32 %acc, 1
  br %case1
case1:
  %a1.in = phi i32 [%acc, %body], [%a0, %case0]
  %a1 = add i32 %a1.in, 10
  selection_merge %case1.rest
  condbr bool %odd, %loop.cont, %case1.rest
case1.rest:
  %a1.b = add i32 %a1, 100
  br %sw.merge
default:
  %ad = add i32 %acc, 1000
  br %sw.merge
sw.merge:
  %acc.sw = phi i32 [%a1.b, %case1.rest], [%ad, %default]
  %acc.5 = add i32 %acc.sw, 5
  br %loop.cont
loop.cont:
  %acc.next = phi i32 [%acc.5, %sw.merge], [%a1, %case1], [%acc, %body]
  %k.next = add i32 %k, 1
  br %loop
loop.exit:
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %acc, ptr<storage, i32> %out.p
  ret
}
