; Indirect calls, varargs calls, function addresses, calling conventions, unknown address spaces.
declare i32 @printf(ptr addrspace(4), ...)
@fmt = private unnamed_addr addrspace(4) constant [4 x i8] c"%d\0A\00", align 1
@fp = addrspace(1) global ptr @callee
define internal fastcc i32 @callee(i32 %x) {
  ret i32 %x
}
define spir_kernel void @k(ptr addrspace(1) %q, ptr addrspace(7) %buf, ptr addrspace(8) %rsrc) {
entry:
  %f = load ptr, ptr addrspace(1) @fp, align 8
  %r = call fastcc i32 %f(i32 3)
  %n = call i32 (ptr addrspace(4), ...) @printf(ptr addrspace(4) @fmt, i32 %r)
  %v = load i32, ptr addrspace(7) %buf, align 4
  %g = getelementptr i32, ptr addrspace(7) %buf, i32 %v
  store i32 %n, ptr addrspace(7) %g, align 4
  %s = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %rsrc, i32 0, i32 0, i32 0)
  %same = icmp eq ptr @callee, %f
  %t = select i1 %same, i32 %s, i32 %v
  store i32 %t, ptr addrspace(1) %q, align 4
  ret void
}
declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32)
