package interp

import (
	"testing"

	"passlens/compiler/ir"
)

// TestSM3RepMarkerIsNoOp runs a loop carrying sm3-lower's `sm3.rep` marker:
// the marker annotates the loop for the SM3 back end and must not change
// what the program computes.
func TestSM3RepMarkerIsNoOp(t *testing.T) {
	t.Parallel()
	src := `@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"

define void @main() compute numthreads(4, 1, 1) {
entry:
  br %loop
loop:
  %i = phi u32 [0, %entry], [%i.next, %loop.cont]
  %done = icmp uge u32 %i, 3
  intr void sm3.rep(i32 3, bool %done)
  loop_merge %exit, %loop.cont
  condbr bool %done, %exit, %loop.cont
loop.cont:
  %i.next = add u32 %i, 1
  br %loop
exit:
  %p = access ptr<storage, [? x u32]> @Out, u32 0
  store u32 %i, ptr<storage, u32> %p
  ret
}
`
	m, err := ir.ParseModule("rep.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runT(m, nil, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Buffer("Out").Element(0)[0]; got != 3 {
		t.Fatalf("loop with sm3.rep marker stored %d, want 3", got)
	}
}
