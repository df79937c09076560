; A switch on an i33 selector and an indirectbr with blockaddress.
define void @f(i33 %x, i32 inreg %u, ptr addrspace(1) %p) {
entry:
  switch i33 %x, label %d [
    i33 1, label %a
    i33 4294967296, label %b
  ]
a:
  br label %d
b:
  %addr = select i1 true, ptr blockaddress(@f, %d), ptr blockaddress(@f, %a)
  indirectbr ptr %addr, [label %d, label %a]
d:
  %k = icmp eq i32 %u, 0
  br i1 %k, label %e, label %d2
d2:
  store i32 1, ptr addrspace(1) %p, align 4
  br label %e
e:
  ret void
}
