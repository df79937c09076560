; atomicrmw (integer and float ops, syncscopes, orderings), cmpxchg on pointers, atomic load/store, fence.
define amdgpu_kernel void @k(ptr addrspace(1) %p, ptr addrspace(3) %l, float %x, ptr addrspace(1) %pp) {
entry:
  %a = atomicrmw add ptr addrspace(1) %p, i32 1 syncscope("agent") monotonic, align 4
  %b = atomicrmw fadd ptr addrspace(1) %p, float %x syncscope("workgroup") seq_cst, align 4, !amdgpu.no.fine.grained.memory !0
  %c = atomicrmw fmax ptr addrspace(3) %l, float %x acq_rel, align 4
  %d = atomicrmw uinc_wrap ptr addrspace(1) %p, i32 9 syncscope("one-as") monotonic, align 4
  %e = cmpxchg ptr addrspace(1) %pp, ptr addrspace(1) null, ptr addrspace(1) %p seq_cst seq_cst, align 8
  %f = cmpxchg weak ptr addrspace(3) %l, i32 0, i32 %a syncscope("wavefront") acquire monotonic, align 4
  %g = load atomic i32, ptr addrspace(1) %p syncscope("agent") acquire, align 4
  fence syncscope("workgroup") release
  store atomic i32 %g, ptr addrspace(3) %l seq_cst, align 4
  %ok = extractvalue { i32, i1 } %f, 1
  %old = extractvalue { ptr addrspace(1), i1 } %e, 0
  %h = fptosi float %b to i32
  %s = select i1 %ok, i32 %h, i32 %d
  store i32 %s, ptr addrspace(1) %old, align 4
  br i1 %ok, label %x1, label %x2
x1:
  ret void
x2:
  ret void
}
!0 = !{}
