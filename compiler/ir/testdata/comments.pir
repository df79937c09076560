; Hand-written IR: comments anywhere, free spacing, blocks in any order,
; uses before definitions in layout order, and struct types used before
; they are defined.
module "comments.pir"   ; the module line

type %Outer = { %Inner in , u32 n }   ; %Inner is defined below
type %Inner = {f32 x,<2 x f32>y}

@g = global private %Outer = { {1.0, <2.0, 3.0>}, 7 }   ; nested constant
@out = global storage [? x f32]   binding 0,0

; Calls may name functions defined later.
define void @main() compute numthreads(8,8,1) {   ; entry point
entry:
	%v = call f32 @f(f32 2.5)     ; tab-indented
	br %header
exit:                             ; laid out before the loop, dominated by it
  %r = phi f32 [%acc, %header]
  %p = access ptr<storage, [? x f32]> @out, u32 0
  store f32 %r, ptr<storage, f32> %p !loc 30:3
  ret
latch:
  %acc.next = fadd f32 %acc, %v   ; %acc is defined in a later line of %header
  %i.next = add i32 %i, 1
  br %header
header:
  %i = phi i32 [0, %entry], [%i.next, %latch]     ; forward reference
  %acc = phi f32 [0.0, %entry], [%acc.next, %latch]
  %c = icmp slt i32 %i, 10
  loop_merge %exit, %latch   ; annotates the next line
  condbr bool %c, %latch, %exit
}

define f32 @f(f32 %x) {
entry:
  %y = fmul f32 %x, %x
  ret f32 %y
}
