package diag

import "testing"

func TestLine(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"sm3", "sm3: 11:17: compute shaders have no SM3 profile", "a/s.hlsl:11:17: sm3: compute shaders have no SM3 profile"},
		{"sm3", "sm3: sir: 10:20: load of x", "a/s.hlsl:10:20: sm3: sir: load of x"},
		{"sm3", "sm3: want exactly one entry point, have 2", "a/s.hlsl: sm3: want exactly one entry point, have 2"},
		{"dxil", "dxil: s.hlsl:3:4: bad", "a/s.hlsl:3:4: dxil: bad"},
		{"dxil", "dxil: inc.hlsli:3:4: bad", "inc.hlsli:3:4: dxil: bad"},
		{"sm3-lower", "sm3-lower: 8:15: wave operation", "a/s.hlsl:8:15: sm3-lower: wave operation"},
		{"sm3-lower", "8:15: wave operation", "a/s.hlsl:8:15: sm3-lower: wave operation"},
		{"sroa", "a/s.hlsl:1:2: error: already located", "a/s.hlsl:1:2: error: already located"},
	} {
		if got := Line("a/s.hlsl", c.name, c.in); got != c.want {
			t.Errorf("Line(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
	if got := locate("a/s.hlsl", "sm3-lower", "sm3-lower: 8:15: wave", false); got != "a/s.hlsl:8:15: wave" {
		t.Errorf("without the name: %q", got)
	}
}
