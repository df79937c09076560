module "seed.pir"

; run: switch-to-if
; data: 0 0 1 2 3 4 4 5 -1 7 2 3 0 4 1 9

; The worked example of seed switch-to-if-lowering.md as a compute shader:
; thread i switches on In[i] and records the case bodies it runs in Out[i]
; (first = 1, something = 3, somethingElse = 4, anotherThing = 5, each
; appended as a decimal digit). checkSomething() is "thread index is odd".

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %sel = load ptr<storage, i32> %in.p
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  %odd = and u32 %i, 1
  %cond = icmp eq u32 %odd, 1
  selection_merge %merge
  switch i32 %sel [case 0: %case0] [case 4: %case4] [default: %default] [case 1, 3: %case1or3] [case 2: %case2]
case0:
  store i32 1, ptr<storage, i32> %out.p
  br %merge
case4:
  selection_merge %case4.cont
  condbr bool %cond, %case4.break, %case4.cont
case4.break:
  br %merge
case4.cont:
  br %default
default:
  %d.old = load ptr<storage, i32> %out.p
  %d.shift = mul i32 %d.old, 10
  %d.new = add i32 %d.shift, 3
  store i32 %d.new, ptr<storage, i32> %out.p
  br %case1or3
case1or3:
  %e.old = load ptr<storage, i32> %out.p
  %e.shift = mul i32 %e.old, 10
  %e.new = add i32 %e.shift, 4
  store i32 %e.new, ptr<storage, i32> %out.p
  br %merge
case2:
  store i32 5, ptr<storage, i32> %out.p
  br %merge
merge:
  ret
}
