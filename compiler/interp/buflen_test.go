package interp

import (
	"testing"

	"passlens/compiler/ir"
)

const bufLenModule = `@a = global storage [? x <2 x u32>] binding 0, 0
@o = global storage [? x u32] binding 0, 1

define void @main() compute numthreads(1, 1, 1) {
entry:
  %n = intr u32 buf.length(ptr<storage, [? x <2 x u32>]> @a)
  %m = intr u32 buf.length(ptr<storage, [? x u32]> @o)
  %p = access ptr<storage, [? x u32]> @o, u32 0
  store u32 %n, ptr<storage, u32> %p
  %q = access ptr<storage, [? x u32]> @o, u32 1
  store u32 %m, ptr<storage, u32> %q
  ret
}
`

// TestBufLength: buf.length is the element count of the bound buffer
// (count, or the data's length), not of its cells.
func TestBufLength(t *testing.T) {
	m, err := ir.ParseModule("buflen.pir", []byte(bufLenModule))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in     *Input
		n, out uint64
	}{
		{&Input{Buffers: []BufferInput{{Name: "a", Count: 5}, {Name: "o", Count: 3}}}, 5, 3},
		{&Input{Buffers: []BufferInput{{Name: "a", Data: []any{[]any{1, 2}, []any{3, 4}}}, {Name: "o", Count: 9}}}, 2, 9},
	} {
		res, err := runT(m, tc.in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if c := res.Buffer("o").Cells; c[0] != tc.n || c[1] != tc.out {
			t.Errorf("buf.length: %d, %d; want %d, %d", c[0], c[1], tc.n, tc.out)
		}
	}
}
