module "control.hlsl"

@Out = global storage [? x i32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %tid = alloca <3 x u32>
  %n = alloca i32
  %acc = alloca i32
  %i = alloca i32
  %tid.1 = load ptr<input, <3 x u32>> @tid
  store <3 x u32> %tid.1, ptr<function, <3 x u32>> %tid
  %tid.2 = load ptr<function, <3 x u32>> %tid
  %tid.x = extractvalue <3 x u32> %tid.2, 0
  %conv = bitcast u32 %tid.x to i32
  store i32 %conv, ptr<function, i32> %n
  store i32 0, ptr<function, i32> %acc
  %n.1 = load ptr<function, i32> %n
  %cmp = icmp sgt i32 %n.1, 2
  selection_merge %if.end
  condbr bool %cmp, %if.then, %if.else
if.then:
  store i32 1, ptr<function, i32> %acc
  br %if.end
if.else:
  store i32 -1, ptr<function, i32> %acc
  br %if.end
if.end:
  store i32 0, ptr<function, i32> %i
  br %for.cond
for.cond:
  %i.1 = load ptr<function, i32> %i
  %cmp.1 = icmp slt i32 %i.1, 4
  loop_merge %for.end, %for.inc
  condbr bool %cmp.1, %for.body, %for.end
for.body:
  %i.2 = load ptr<function, i32> %i
  %n.2 = load ptr<function, i32> %n
  %cmp.2 = icmp eq i32 %i.2, %n.2
  selection_merge %if.end.1
  condbr bool %cmp.2, %if.then.1, %if.end.1
if.then.1:
  br %for.inc
if.end.1:
  %acc.1 = load ptr<function, i32> %acc
  %cmp.3 = icmp sgt i32 %acc.1, 10
  selection_merge %if.end.2
  condbr bool %cmp.3, %if.then.2, %if.end.2
if.then.2:
  br %for.end
if.end.2:
  %i.3 = load ptr<function, i32> %i
  %acc.2 = load ptr<function, i32> %acc
  %add = add i32 %acc.2, %i.3
  store i32 %add, ptr<function, i32> %acc
  br %for.inc
for.inc:
  %i.4 = load ptr<function, i32> %i
  %inc = add i32 %i.4, 1
  store i32 %inc, ptr<function, i32> %i
  br %for.cond
for.end:
  br %while.cond
while.cond:
  %acc.3 = load ptr<function, i32> %acc
  %cmp.4 = icmp slt i32 %acc.3, 20
  loop_merge %while.end, %while.cont
  condbr bool %cmp.4, %while.body, %while.end
while.body:
  %acc.4 = load ptr<function, i32> %acc
  %mul = mul i32 %acc.4, 2
  store i32 %mul, ptr<function, i32> %acc
  br %while.cont
while.cont:
  br %while.cond
while.end:
  br %do.header
do.header:
  loop_merge %do.end, %do.cond
  br %do.body
do.body:
  %acc.5 = load ptr<function, i32> %acc
  %dec = sub i32 %acc.5, 1
  store i32 %dec, ptr<function, i32> %acc
  br %do.cond
do.cond:
  %acc.6 = load ptr<function, i32> %acc
  %cmp.5 = icmp sgt i32 %acc.6, 30
  condbr bool %cmp.5, %do.header, %do.end
do.end:
  %n.3 = load ptr<function, i32> %n
  selection_merge %sw.end
  switch i32 %n.3 [case 0: %sw.case0] [default: %sw.default] [case 1, 2: %sw.case1]
sw.case0:
  %acc.7 = load ptr<function, i32> %acc
  %add.1 = add i32 %acc.7, 100
  store i32 %add.1, ptr<function, i32> %acc
  br %sw.default
sw.default:
  %acc.8 = load ptr<function, i32> %acc
  %add.2 = add i32 %acc.8, 1000
  store i32 %add.2, ptr<function, i32> %acc
  br %sw.end
sw.case1:
  store i32 0, ptr<function, i32> %acc
  br %sw.end
sw.end:
  %acc.9 = load ptr<function, i32> %acc
  %n.4 = load ptr<function, i32> %n
  %Out.n = access ptr<storage, [? x i32]> @Out, i32 %n.4
  store i32 %acc.9, ptr<storage, i32> %Out.n
  ret
}
