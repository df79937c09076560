package interp

import (
	"testing"

	"passlens/compiler/ir"
)

// unboundedModule: each lane i adds 10 to word 0 of element i of the
// unbounded array @b and copies element i's word 1 into o[i]; lane 3
// indexes past the bound elements.
const unboundedModule = `@b = global storage [? x u32] binding 0, 0 array "b" 0 of ? kind "RWBuffer"
@o = global storage [? x u32] binding 0, 1
@i = global input u32 semantic "SV_GroupIndex"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %i = load ptr<input, u32> @i
  %e = intr ptr<storage, [? x u32]> res.index(ptr<storage, [? x u32]> @b, u32 %i)
  %p = access ptr<storage, [? x u32]> %e, u32 0
  %v = load ptr<storage, u32> %p
  %w = add u32 %v, 10
  store u32 %w, ptr<storage, u32> %p
  %q = access ptr<storage, [? x u32]> %e, u32 1
  %x = load ptr<storage, u32> %q
  %r = access ptr<storage, [? x u32]> @o, u32 %i
  store u32 %x, ptr<storage, u32> %r
  ret
}
`

// TestUnboundedResourceArray: the run binds as many elements as the
// input gives (b.0, b.1, b.2); res.index reaches each per lane; an index
// past them reads zero and writes nothing; the result lists b.0 … b.2.
func TestUnboundedResourceArray(t *testing.T) {
	m, err := ir.ParseModule("unbounded.pir", []byte(unboundedModule))
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	in := &Input{Buffers: []BufferInput{{Name: "b.0", Data: []any{1, 2}}, {Name: "b.1", Data: []any{3, 4}},
		{Name: "b.2", Data: []any{5, 6}}, {Name: "o", Count: 4}}}
	res, err := runT(m, in, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range [][]uint64{{11, 2}, {13, 4}, {15, 6}} {
		b := res.Buffer("b." + string(rune('0'+k)))
		if b == nil || len(b.Cells) != 2 || b.Cells[0] != want[0] || b.Cells[1] != want[1] {
			t.Errorf("b.%d = %+v, want %v", k, b, want)
		}
	}
	if res.Buffer("b.3") != nil {
		t.Error("a fourth element was bound")
	}
	if got := res.Buffer("o").Cells; got[0] != 2 || got[1] != 4 || got[2] != 6 || got[3] != 0 {
		t.Errorf("o = %v, want [2 4 6 0]", got)
	}
	// Element 0 may also be given by the array's own name.
	in.Buffers[0].Name = "b"
	if res, err = runT(m, in, Options{WaveSize: 4}); err != nil || res.Buffer("b.0").Cells[0] != 11 {
		t.Errorf("element 0 named b: %v", err)
	}
	// A res.index on anything but an unbounded array global is rejected.
	bad, err := ir.ParseModule("bad.pir", []byte(`@o = global storage [? x u32] binding 0, 1

define void @main() compute numthreads(1, 1, 1) {
entry:
  %e = intr ptr<storage, [? x u32]> res.index(ptr<storage, [? x u32]> @o, u32 0)
  ret
}
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(bad); err == nil {
		t.Error("res.index of a plain buffer verified")
	}
}
