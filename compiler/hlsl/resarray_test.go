package hlsl

import (
	"strings"
	"testing"
)

// TestResourceArrayRegisters: the register class of a resource array is
// its element's (the error named the array's class before); unbounded
// arrays of resources are accepted; indexing yields the element resource.
func TestResourceArrayRegisters(t *testing.T) {
	ok := `RWStructuredBuffer<int> Out[4] : register(u0);
StructuredBuffer<float> In[2][3] : register(t1, space2);
RWBuffer<float> U[] : register(u8);
[numthreads(1,1,1)] void main(uint i : SV_GroupIndex) { Out[i % 4][0] = (int)In[1][2][i]; }
`
	prog, diags := compile(t, ok, Options{})
	if len(diags) > 0 {
		t.Fatalf("%s", render(prog, diags))
	}
	for _, tc := range []struct{ src, want string }{
		{"RWStructuredBuffer<int> Out[4] : register(t0);", "1:34: error: invalid register class 't' for 'RWStructuredBuffer<int> [4]': expected 'u'"},
		{"StructuredBuffer<int> In[2][2] : register(u0);", "1:34: error: invalid register class 'u' for 'StructuredBuffer<int> [2][2]': expected 't'"},
		{"RWStructuredBuffer<int> Out[4] : register(u0);\nvoid f() { Out[4][0] = 1; }", "array index 4 is out of bounds"},
	} {
		_, diags := compile(t, tc.src+vkMain, Options{})
		if got := diags.String(); !strings.Contains(got, tc.want) {
			t.Errorf("%s\ngot  %s\nwant %s", tc.src, got, tc.want)
		}
	}
}
