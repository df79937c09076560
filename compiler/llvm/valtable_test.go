package llvm

import (
	"strconv"
	"testing"

	"passlens/compiler/ir"
)

// TestValTable checks the keyless name table against a Go map through
// growth, replacement and misses.
func TestValTable(t *testing.T) {
	m := ir.NewModule("t")
	f := m.NewFunction("f", ir.Void, nil, nil)
	tab := newValTable(2)
	want := map[string]ir.Value{}
	for i := 0; i < 3000; i++ {
		name := "v" + strconv.Itoa(i%2000) // the last 1000 replace entries
		in := ir.NewInstr(f, ir.OpInvalid, ir.I32, "")
		in.SetRawName(name)
		tab.put(in)
		want[name] = in
	}
	for name, v := range want {
		if got, ok := tab.get(name); !ok || got != v {
			t.Fatalf("get(%q) = %v, %v; want %v", name, got, ok, v)
		}
	}
	for _, name := range []string{"", "v2000", "w1", "v-1"} {
		if got, ok := tab.get(name); ok {
			t.Fatalf("get(%q) = %v, want a miss", name, got)
		}
	}
	if len(tab.vals) != len(want) {
		t.Fatalf("%d entries, want %d", len(tab.vals), len(want))
	}
}
