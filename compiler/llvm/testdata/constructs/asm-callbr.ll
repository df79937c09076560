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
