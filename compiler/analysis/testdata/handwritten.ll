; Hand-written CFGs for passlens's CFG analyses. The expected analysis output
; (handwritten.opt.txt) was produced by:
;   opt-22 -mtriple=amdgcn-- -passes='print<domtree>,print<postdomtree>,print<cycles>' \
;     -disable-output handwritten.ll 2> handwritten.opt.txt

; One block.
define amdgpu_ps void @single(i32 inreg %u, i32 %d) {
entry:
  ret void
}

; If-then-else: join is dominated by entry only, entry is post-dominated by join.
define amdgpu_ps void @diamond(i32 inreg %u, i32 %d) {
entry:
  %c = icmp eq i32 %d, 0
  br i1 %c, label %then, label %else
then:
  br label %join
else:
  br label %join
join:
  ret void
}

; Three nested natural loops, the innermost a self loop.
define amdgpu_ps void @nested_loops(i32 inreg %u, i32 %d) {
entry:
  br label %outer
outer:
  br label %middle
middle:
  br label %inner
inner:
  %c0 = icmp slt i32 %d, 3
  br i1 %c0, label %inner, label %middle.latch
middle.latch:
  %c1 = icmp slt i32 %d, 7
  br i1 %c1, label %middle, label %outer.latch
outer.latch:
  %c2 = icmp ne i32 %u, 0
  br i1 %c2, label %outer, label %exit
exit:
  ret void
}

; Irreducible loop with two entries a and b.
define amdgpu_ps void @irreducible_two_entry(i32 inreg %u, i32 %d) {
entry:
  %c0 = icmp eq i32 %u, 0
  br i1 %c0, label %a, label %b
a:
  %c1 = icmp eq i32 %d, 1
  br i1 %c1, label %b, label %exit
b:
  %c2 = icmp eq i32 %d, 2
  br i1 %c2, label %a, label %exit
exit:
  ret void
}

; An irreducible region nested in a natural loop, with an inner self loop.
define amdgpu_ps void @irreducible_nested(i32 inreg %u, i32 %d) {
entry:
  br label %header
header:
  %c0 = icmp eq i32 %d, 0
  br i1 %c0, label %x, label %y
x:
  %c1 = icmp eq i32 %d, 1
  br i1 %c1, label %y, label %latch
y:
  switch i32 %d, label %x [
    i32 0, label %y
    i32 1, label %latch
  ]
latch:
  %c2 = icmp ne i32 %u, 0
  br i1 %c2, label %header, label %exit
exit:
  ret void
}

; No exit at all: the post-dominator root is a block inside the loop.
define amdgpu_ps void @infinite_loop_no_exit(i32 inreg %u, i32 %d) {
entry:
  br label %h
h:
  br label %body
body:
  %c = icmp eq i32 %d, 0
  br i1 %c, label %h, label %side
side:
  br label %h
}

; One path returns, the other enters an infinite loop.
define amdgpu_ps void @infinite_loop_and_exit(i32 inreg %u, i32 %d) {
entry:
  %c = icmp eq i32 %u, 0
  br i1 %c, label %spin, label %exit
spin:
  %c1 = icmp eq i32 %d, 0
  br i1 %c1, label %spin2, label %spin
spin2:
  br label %spin
exit:
  ret void
}

; Two infinite loops, the first can reach the second: only one fake root.
define amdgpu_ps void @infinite_loops_chained(i32 inreg %u, i32 %d) {
entry:
  br label %l1
l1:
  %c = icmp eq i32 %d, 0
  br i1 %c, label %l1, label %l2
l2:
  br label %l2.body
l2.body:
  br label %l2
}

; The first fake root chosen (b, the last block of the forward walk from the
; entry) can reach the later one (spin), so LLVM drops it as redundant.
define amdgpu_ps void @redundant_root(i32 inreg %u, i32 %d) {
entry:
  %c = icmp eq i32 %u, 0
  br i1 %c, label %a, label %spin
a:
  br label %b
b:
  %c1 = icmp eq i32 %d, 0
  br i1 %c1, label %a, label %spin
spin:
  br label %spin
}

; Switch with duplicate successors (the default is also a case target).
define amdgpu_ps void @switch_dup_succs(i32 inreg %u, i32 %d) {
entry:
  switch i32 %u, label %a [
    i32 0, label %b
    i32 1, label %a
    i32 2, label %b
    i32 3, label %c
  ]
a:
  br label %c
b:
  %cb = icmp eq i32 %d, 0
  br i1 %cb, label %c, label %c
c:
  ret void
}

; Blocks unreachable from the entry: a dead chain, a dead cycle, and a dead
; block branching into the live loop (which must not make it an entry).
define amdgpu_ps void @unreachable_blocks(i32 inreg %u, i32 %d) {
entry:
  br label %loop
loop:
  br label %loop.body
loop.body:
  %c = icmp eq i32 %d, 0
  br i1 %c, label %loop, label %exit
exit:
  ret void
dead:
  br label %loop.body
dead.cycle:
  br label %dead.cycle2
dead.cycle2:
  br label %dead.cycle
dead.exit:
  unreachable
}

; Several exits: ret and unreachable.
define amdgpu_ps void @multiple_exits(i32 inreg %u, i32 %d) {
entry:
  switch i32 %d, label %r1 [
    i32 0, label %r2
    i32 1, label %trap
  ]
r1:
  ret void
r2:
  ret void
trap:
  unreachable
}

; Unnamed and quoted block names.
define amdgpu_ps void @"odd names"(i32 inreg %u, i32 %d) {
  br label %"x y"
"x y":
  %c = icmp eq i32 %d, 0
  br i1 %c, label %"9lives", label %"x y"
"9lives":
  ret void
}
