; Inline asm with VGPR/SGPR outputs and callbr with an asm goto.
define void @f(i32 %d, i32 inreg %u) {
entry:
  %v = call i32 asm sideeffect "v_mov_b32 $0, $1", "=v,v"(i32 %d)
  %s = call i32 asm "s_mov_b32 $0, $1", "=s,s"(i32 %u)
  %r = callbr i32 asm "", "=r,r,!i"(i32 %d)
          to label %direct [label %indirect]
direct:
  %x = add i32 %r, %s
  br label %join
indirect:
  br label %join
join:
  %y = phi i32 [ %x, %direct ], [ %v, %indirect ]
  %c = icmp eq i32 %y, 0
  br i1 %c, label %t, label %e
t:
  ret void
e:
  ret void
}
define void @g(i32 inreg %u) {
entry:
  callbr void asm "", "r,!i"(i32 %u)
          to label %a [label %b]
a:
  ret void
b:
  ret void
}
; Mixed SGPR/VGPR outputs: the SGPR part is uniform, the VGPR part divergent.
define void @mixed(ptr addrspace(1) %p) {
  %pair = call { i32, i32 } asm "; def $0, $1", "=v,=s,v"(i32 7)
  %v = extractvalue { i32, i32 } %pair, 0
  %s = extractvalue { i32, i32 } %pair, 1
  store i32 %v, ptr addrspace(1) %p
  store i32 %s, ptr addrspace(1) %p
  ret void
}
; callbr of an intrinsic used without a declaration (LLVM declares it).
define void @kill(i1 inreg %c) {
  callbr void @llvm.amdgcn.kill(i1 %c) to label %cont [label %dead]
dead:
  unreachable
cont:
  ret void
}
