module "calls.hlsl"

type %Pair = { f32 a, i32 b }

@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"

define %Pair @make(f32 %x) {
entry:
  %x.addr = alloca f32
  %p = alloca %Pair
  store f32 %x, ptr<function, f32> %x.addr
  %x.1 = load ptr<function, f32> %x.addr
  %p.a = access ptr<function, %Pair> %p, i32 0
  store f32 %x.1, ptr<function, f32> %p.a
  %p.b = access ptr<function, %Pair> %p, i32 1
  store i32 2, ptr<function, i32> %p.b
  %p.1 = load ptr<function, %Pair> %p
  ret %Pair %p.1
}

define void @update(ptr<function, f32> %x, ptr<function, f32> %y) {
entry:
  %x.1 = load ptr<function, f32> %x
  %add = fadd f32 %x.1, 1.0
  store f32 %add, ptr<function, f32> %x
  %x.2 = load ptr<function, f32> %x
  %mul = fmul f32 %x.2, 2.0
  store f32 %mul, ptr<function, f32> %y
  ret
}

define i32 @firstOver(i32 %limit) {
entry:
  %limit.addr = alloca i32
  %i = alloca i32
  store i32 %limit, ptr<function, i32> %limit.addr
  store i32 0, ptr<function, i32> %i
  br %for.cond
for.cond:
  %i.1 = load ptr<function, i32> %i
  %cmp = icmp slt i32 %i.1, 10
  loop_merge %for.end, %for.inc
  condbr bool %cmp, %for.body, %for.end
for.body:
  %i.2 = load ptr<function, i32> %i
  %i.3 = load ptr<function, i32> %i
  %mul = mul i32 %i.2, %i.3
  %limit.1 = load ptr<function, i32> %limit.addr
  %cmp.1 = icmp sgt i32 %mul, %limit.1
  selection_merge %if.end
  condbr bool %cmp.1, %if.then, %if.end
if.then:
  %i.4 = load ptr<function, i32> %i
  ret i32 %i.4
if.end:
  br %for.inc
for.inc:
  %i.5 = load ptr<function, i32> %i
  %inc = add i32 %i.5, 1
  store i32 %inc, ptr<function, i32> %i
  br %for.cond
for.end:
  ret i32 -1
}

define void @main() compute numthreads(1, 1, 1) {
entry:
  %p = alloca %Pair
  %y = alloca i32
  %x.tmp = alloca f32
  %y.tmp = alloca f32
  %call = call %Pair @make(f32 1.5)
  store %Pair %call, ptr<function, %Pair> %p
  %p.a = access ptr<function, %Pair> %p, i32 0
  %p.a.1 = load ptr<function, f32> %p.a
  store f32 %p.a.1, ptr<function, f32> %x.tmp
  call void @update(ptr<function, f32> %x.tmp, ptr<function, f32> %y.tmp)
  %out = load ptr<function, f32> %x.tmp
  store f32 %out, ptr<function, f32> %p.a
  %out.1 = load ptr<function, f32> %y.tmp
  %conv = fptosi f32 %out.1 to i32
  store i32 %conv, ptr<function, i32> %y
  %p.a.2 = access ptr<function, %Pair> %p, i32 0
  %p.a.3 = load ptr<function, f32> %p.a.2
  %y.1 = load ptr<function, i32> %y
  %conv.1 = sitofp i32 %y.1 to f32
  %add = fadd f32 %p.a.3, %conv.1
  %p.b = access ptr<function, %Pair> %p, i32 1
  %p.b.1 = load ptr<function, i32> %p.b
  %call.1 = call i32 @firstOver(i32 %p.b.1)
  %conv.2 = sitofp i32 %call.1 to f32
  %add.1 = fadd f32 %add, %conv.2
  %Out.0 = access ptr<storage, [? x f32]> @Out, i32 0
  store f32 %add.1, ptr<storage, f32> %Out.0
  ret
}
