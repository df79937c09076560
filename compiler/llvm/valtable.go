package llvm

import (
	"hash/maphash"

	"passlens/compiler/ir"
)

// valTable maps the local names of a function body to their values
// (parameters and the pre-created instruction results). It is a map from
// name to value that stores no key: the key of an entry is its value's
// name (the importer only enters values under their own name), so an
// entry costs 16 bytes in vals plus two 4-byte slots, where a
// map[string]ir.Value costs about 50 bytes (a 450k-instruction function
// spent 23 MB on it at the import's peak).
type valTable struct {
	slots []int32 // open addressing; 0: empty, else 1 + index into vals
	vals  []ir.Value
	seed  maphash.Seed
}

func newValTable(n int) *valTable {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &valTable{slots: make([]int32, size), vals: make([]ir.Value, 0, n), seed: maphash.MakeSeed()}
}

// find returns the slot of name: its entry, or the empty slot where it
// would go.
func (t *valTable) find(name string) int {
	mask := len(t.slots) - 1
	h := int(maphash.String(t.seed, name)) & mask
	for {
		s := t.slots[h]
		if s == 0 || t.vals[s-1].Name() == name {
			return h
		}
		h = (h + 1) & mask
	}
}

// get returns the value named name.
func (t *valTable) get(name string) (ir.Value, bool) {
	s := t.slots[t.find(name)]
	if s == 0 {
		return nil, false
	}
	return t.vals[s-1], true
}

// put enters v under its name, replacing an entry of the same name.
func (t *valTable) put(v ir.Value) {
	h := t.find(v.Name())
	if s := t.slots[h]; s != 0 {
		t.vals[s-1] = v
		return
	}
	t.vals = append(t.vals, v)
	t.slots[h] = int32(len(t.vals))
	if 2*len(t.vals) > len(t.slots) {
		t.grow()
	}
}

// grow doubles the slots and enters every value again.
func (t *valTable) grow() {
	t.slots = make([]int32, 2*len(t.slots))
	mask := len(t.slots) - 1
	for i, v := range t.vals {
		h := int(maphash.String(t.seed, v.Name())) & mask
		for t.slots[h] != 0 {
			h = (h + 1) & mask
		}
		t.slots[h] = int32(i + 1)
	}
}
