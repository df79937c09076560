package ir

import (
	"strings"
	"testing"
)

// TestVulkanDeclarationsRoundTrip: an entry's wave size and root
// signature and a global's Vulkan binding and push-constant placement
// print, parse and print again identically.
func TestVulkanDeclarationsRoundTrip(t *testing.T) {
	src := `type %C = { f32 k }

@C = global uniform %C push_constant kind "cbuffer"
@o = global storage [? x f32] binding 0, 2 vk_binding 1, 3 kind "RWStructuredBuffer"
@n = global private u32 = 7 spec_id 4
@c = global input <4 x f32> semantic "COLOR0" location 3

define void @main() compute numthreads(4, 1, 1) wavesize(16) rootsignature "CBV(b0), UAV(u2, space=4)" {
entry:
  ret
}
`
	m, err := ParseModule("vk.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(m); err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != src {
		t.Fatalf("round trip:\n%s\nwant\n%s", got, src)
	}
	e := m.Func("main").Entry
	if e.WaveSize != 16 || e.RootSignature != "CBV(b0), UAV(u2, space=4)" {
		t.Errorf("entry %+v", e)
	}
	if g := m.Global("o"); g.VkSet != 1 || g.VkBinding != 3 || g.Set != 0 || g.Binding != 2 {
		t.Errorf("o: set %d binding %d vk %d, %d", g.Set, g.Binding, g.VkSet, g.VkBinding)
	}
	if g := m.Global("C"); !g.PushConstant || g.VkBinding != -1 {
		t.Errorf("C: %+v", g)
	}
	if g := m.Global("n"); g.SpecID != 4 {
		t.Errorf("n: spec id %d", g.SpecID)
	}
	if g := m.Global("c"); g.Location != 3 {
		t.Errorf("c: location %d", g.Location)
	}
	c := CloneModule(m)
	if got := c.String(); got != src {
		t.Errorf("clone:\n%s", got)
	}
	for _, bad := range []struct{ src, want string }{
		{"@n = global private u32 spec_id 1\n", "a specialization constant (spec_id) must be a private scalar with an initializer"},
		{"@n = global private u32 location 1\n", "a location needs the input or output address space"},
		{"@n = global private u32 push_constant\n", "push_constant needs the uniform address space"},
		{"define void @f() compute numthreads(1, 1, 1) wavesize(0) {\nentry:\n  ret\n}\n", "1:55"},
		{"@o = global storage [? x f32] vk_binding 1 kind \"x\"\n", "1:44"},
		{"define void @f() compute numthreads(1, 1, 1) rootsignature 3 {\nentry:\n  ret\n}\n", "1:60"},
	} {
		m, err := ParseModule("bad.pir", []byte(bad.src))
		if err == nil {
			err = Verify(m)
		}
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want an error at %s", bad.src, err, bad.want)
		}
	}
}
