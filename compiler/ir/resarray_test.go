package ir

import (
	"strings"
	"testing"
)

// resArraySrc has a three-element resource array indexed at run time
// (the lowering's select chain) and a constant index.
const resArraySrc = `@o.0 = global storage [? x u32] binding 0, 4 array "o" 0 of 3 kind "RWStructuredBuffer"
@o.1 = global storage [? x u32] binding 0, 5 array "o" 1 of 3 kind "RWStructuredBuffer"
@o.2 = global storage [? x u32] binding 0, 6 array "o" 2 of 3 kind "RWStructuredBuffer"
@i = global input u32 semantic "SV_GroupIndex"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %i = load ptr<input, u32> @i
  %is1 = icmp eq u32 %i, 1
  %s1 = select bool %is1, ptr<storage, [? x u32]> @o.1, @o.2
  %is0 = icmp eq u32 %i, 0
  %s0 = select bool %is0, ptr<storage, [? x u32]> @o.0, %s1
  %p = access ptr<storage, [? x u32]> %s0, u32 %i
  store u32 %i, ptr<storage, u32> %p
  ret
}
`

// TestResourceArrayRoundTrip: the array attribute prints, parses and
// clones identically; the verifier and the parser reject bad forms with
// positions; MatchResourceArrayIndex recognises the select chain and
// rejects a chain that misses an element or mixes indices.
func TestResourceArrayRoundTrip(t *testing.T) {
	m, err := ParseModule("ra.pir", []byte(resArraySrc))
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(m); err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != resArraySrc {
		t.Fatalf("round trip:\n%s\nwant\n%s", got, resArraySrc)
	}
	if got := CloneModule(m).String(); got != resArraySrc {
		t.Errorf("clone:\n%s", got)
	}
	g := m.Global("o.1")
	if g.Array != "o" || g.ArrayIndex != 1 || g.ArrayLen != 3 {
		t.Errorf("o.1: %q %d of %d", g.Array, g.ArrayIndex, g.ArrayLen)
	}
	var top *Instr
	for _, in := range m.Func("main").Blocks[0].Instrs {
		if in.Name() == "s0" {
			top = in
		}
	}
	ri, ok := MatchResourceArrayIndex(top)
	if !ok || ri.Last != m.Global("o.2") || ri.Index.Name() != "i" || len(ri.Inner) != 1 || ri.Inner[0].Name() != "s1" {
		t.Errorf("match: %v %+v", ok, ri)
	}
	// The inner select alone covers elements 1 and 2 only.
	if _, ok := MatchResourceArrayIndex(ri.Inner[0]); ok {
		t.Error("a partial chain matched")
	}
	// Two different indices.
	bad := strings.Replace(resArraySrc, "%is0 = icmp eq u32 %i, 0", "%is0 = icmp eq u32 %is1x, 0\n  %is1x = add u32 %i, 1", 1)
	bm, err := ParseModule("bad.pir", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range bm.Func("main").Blocks[0].Instrs {
		if in.Name() == "s0" {
			if _, ok := MatchResourceArrayIndex(in); ok {
				t.Error("a chain over two indices matched")
			}
		}
	}
	for _, c := range []struct{ src, want string }{
		{"@o = global storage u32 array \"o\" 3 of 3 kind \"x\"\n", "index below its array's length"},
		{"@o = global private u32 array \"o\" 0 of 2\n", "storage or uniform address space"},
		{"@o = global storage u32 array \"o\" 0 to 2\n", "1:37: error: expected 'of'"},
		{"@o = global storage u32 array \"o\" 0 of 0\n", "1:40: error: expected an array length"},
	} {
		m, err := ParseModule("bad.pir", []byte(c.src))
		if err == nil {
			err = Verify(m)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

// TestUnboundedArrayRoundTrip: `array "b" 0 of ?` and res.index print,
// parse and clone identically; res.index needs an unbounded array global.
func TestUnboundedArrayRoundTrip(t *testing.T) {
	src := `@b = global storage [? x u32] binding 0, 2 array "b" 0 of ? kind "RWBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %e = intr ptr<storage, [? x u32]> res.index(ptr<storage, [? x u32]> @b, u32 3)
  ret
}
`
	m, err := ParseModule("u.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(m); err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != src {
		t.Fatalf("round trip:\n%s", got)
	}
	if got := CloneModule(m).String(); got != src {
		t.Errorf("clone:\n%s", got)
	}
	if g := m.Global("b"); g.ArrayLen != UnboundedArray {
		t.Errorf("b: length %d", g.ArrayLen)
	}
	for _, c := range []struct{ src, want string }{
		{strings.Replace(src, ` array "b" 0 of ?`, "", 1), "res.index needs an unbounded resource array global"},
		{strings.Replace(src, `array "b" 0 of ?`, `array "b" 1 of ?`, 1), "must be element 0"},
		{strings.Replace(src, "u32 3)", "f32 3.0)", 1), "res.index index has type f32"},
	} {
		m, err := ParseModule("bad.pir", []byte(c.src))
		if err == nil {
			err = Verify(m)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}
