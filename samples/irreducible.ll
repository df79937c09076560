; An irreducible cycle entered from a divergent branch (seed
; convergence-and-uniformity.rst, "Diverged Paths reaching a Cycle"): the
; entry branches on the lane id to P or R of the closed path P -> Q -> R -> S,
; so the cycle is assumed divergent and every value in it is divergent.
target triple = "amdgcn--"

define amdgpu_ps void @closed_path(i32 inreg %n, i32 %x) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c.entry = icmp slt i32 %tid, 2
  br i1 %c.entry, label %P, label %R

P:
  %i.p = phi i32 [ 0, %entry ], [ %i.s, %S ]
  %c.p = icmp slt i32 %i.p, %n
  br label %Q

Q:
  %c.q = icmp eq i32 %i.p, %x
  br i1 %c.q, label %R, label %S

R:
  %i.r = phi i32 [ 0, %entry ], [ %i.p, %Q ]
  br label %S

S:
  %i.phi = phi i32 [ %i.p, %Q ], [ %i.r, %R ]
  %i.s = add i32 %i.phi, 1
  %c.s = icmp slt i32 %i.s, %n
  br i1 %c.s, label %P, label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
