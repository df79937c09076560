package ir

import "testing"

// TestTypeContains: Contains looks through array, vector and matrix
// elements and struct fields, but not through pointers.
func TestTypeContains(t *testing.T) {
	isBool := func(u *Type) bool { return u.Kind == KBool }
	inner := Struct("ContainsInner", []Field{{Name: "f", Type: F32}, {Name: "b", Type: Array(Vec(Bool, 2), 3)}})
	cases := []struct {
		t    *Type
		want bool
	}{
		{Bool, true},
		{F32, false},
		{Mat(F32, 2, 2), false},
		{Struct("ContainsOuter", []Field{{Name: "x", Type: I32}, {Name: "in", Type: inner}}), true},
		{Ptr(SpaceFunction, Bool), false},
		{Struct("ContainsPtr", []Field{{Name: "p", Type: Ptr(SpaceFunction, Bool)}}), false},
	}
	for _, c := range cases {
		if got := c.t.Contains(isBool); got != c.want {
			t.Errorf("%s contains a bool: %v, want %v", c.t, got, c.want)
		}
	}
}
