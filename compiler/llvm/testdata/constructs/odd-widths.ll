; Integer widths passlens lacks (i33, i128, i24) flow through arithmetic, phis and compares.
define amdgpu_kernel void @k(ptr addrspace(1) %p, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %w = zext i32 %id to i33
  %u = zext i32 %n to i33
  br label %loop
loop:
  %i = phi i33 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i128 [ 0, %entry ], [ %acc.next, %loop ]
  %i.next = add nuw nsw i33 %i, 1
  %x = zext i33 %i to i128
  %acc.next = mul i128 %acc, %x
  %c = icmp ult i33 %i.next, %w
  br i1 %c, label %loop, label %exit
exit:
  %t = trunc i128 %acc.next to i24
  %e = zext i24 %t to i32
  %big = icmp ugt i33 %u, 4294967296
  %s = select i1 %big, i32 %e, i32 7
  store i32 %s, ptr addrspace(1) %p, align 4
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
