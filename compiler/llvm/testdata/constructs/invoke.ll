; invoke and landingpad (exception handling is rare on GPUs but valid IR).
declare i32 @may_throw(i32)
declare i32 @__gxx_personality_v0(...)
define i32 @f(i32 inreg %u) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @may_throw(i32 %u)
          to label %ok unwind label %lpad
ok:
  %c = icmp eq i32 %r, 0
  br i1 %c, label %a, label %b
a:
  ret i32 1
b:
  ret i32 %r
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
