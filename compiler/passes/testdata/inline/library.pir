; No entry point: roots are the uncalled functions; calls to declarations
; stay (TestInlineKeepsDeclarationsAndLibraries; no run line: nothing to
; run in the interpreter).

module "t"

declare f32 @ext(f32 %x)

define f32 @helper(f32 %x) {
entry:
  %y = call f32 @ext(f32 %x)
  ret f32 %y
}

define f32 @api(f32 %x) {
entry:
  %y = call f32 @helper(f32 %x)
  ret f32 %y
}
