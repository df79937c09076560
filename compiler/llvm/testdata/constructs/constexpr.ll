; Constant expressions: GEPs, casts, nested, in operands, phis and global initializers.
@lds = internal addrspace(3) global [64 x i32] poison, align 4
@tab = addrspace(4) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@ptrs = addrspace(1) global [2 x ptr] [ptr addrspacecast (ptr addrspace(3) @lds to ptr), ptr null]
define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %sel) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %v = load i32, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @lds, i32 16), align 4
  %w = load i32, ptr addrspace(4) getelementptr ([4 x i32], ptr addrspace(4) @tab, i32 0, i32 2), align 4
  %a = add i32 %v, ptrtoint (ptr addrspace(3) @lds to i32)
  %c = icmp eq i32 %id, 0
  br i1 %c, label %then, label %join
then:
  br label %join
join:
  %p = phi ptr [ addrspacecast (ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @lds, i32 8) to ptr), %then ], [ addrspacecast (ptr addrspace(3) @lds to ptr), %entry ]
  %q = phi i32 [ ptrtoint (ptr addrspace(3) @lds to i32), %then ], [ %a, %entry ]
  %r = load i32, ptr %p, align 4
  %s = add i32 %r, %w
  %t = add i32 %s, %q
  store i32 %t, ptr addrspace(1) %out, align 4
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
