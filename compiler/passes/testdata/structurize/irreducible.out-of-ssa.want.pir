module "irreducible.pir"

@In = global storage [? x i32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(16, 1, 1) {
entry:
  %a.var = alloca i32
  %b.var = alloca i32
  %r.var = alloca i32
  %tid = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %tid, 0
  %in.p = access ptr<storage, [? x i32]> @In, u32 %i
  %x = load ptr<storage, i32> %in.p
  %bit = and i32 %x, 1
  %c = icmp eq i32 %bit, 1
  store i32 0, ptr<function, i32> %a.var
  store i32 %x, ptr<function, i32> %b.var
  condbr bool %c, %A, %B
A:
  %a = load ptr<function, i32> %a.var
  %a.next = add i32 %a, 3
  %stopA = icmp sgt i32 %a.next, 20
  store i32 %a.next, ptr<function, i32> %b.var
  store i32 %a.next, ptr<function, i32> %r.var
  condbr bool %stopA, %exit, %B
B:
  %b = load ptr<function, i32> %b.var
  %b.next = add i32 %b, 5
  %stopB = icmp sgt i32 %b.next, 30
  store i32 %b.next, ptr<function, i32> %a.var
  store i32 %b.next, ptr<function, i32> %r.var
  condbr bool %stopB, %exit, %A
exit:
  %r = load ptr<function, i32> %r.var
  %out.p = access ptr<storage, [? x i32]> @Out, u32 %i
  store i32 %r, ptr<storage, i32> %out.p
  ret
}
