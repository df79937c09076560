package vkd3d

import "testing"

// Unit.Profile is the dxc profile vkd3d's runner uses at shader model 6:
// the stage's, at the [require]d minimum model when above 6.0.
func TestUnitProfile(t *testing.T) {
	for _, c := range []struct {
		stage string
		req   Require
		want  string
	}{
		{"compute", NoRequire, "cs_6_0"},
		{"pixel", ParseRequire([]string{"shader model >= 6.2", "native-16-bit"}), "ps_6_2"},
		{"vertex", ParseRequire([]string{"shader model >= 4.0"}), "vs_6_0"},
		{"compute", ParseRequire([]string{"shader model < 6.0"}), ""},
		{"geometry", NoRequire, ""},
	} {
		u := &Unit{Stage: c.stage, Require: c.req}
		if got := u.Profile(); got != c.want {
			t.Errorf("%s %+v: Profile() = %q, want %q", c.stage, c.req, got, c.want)
		}
	}
}
