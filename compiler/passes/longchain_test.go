package passes

import (
	"fmt"
	"strings"
	"testing"

	"passlens/compiler/interp"
)

// chainModule is a straight chain of n blocks, each storing the running
// value into its own alloca, loading it back and adding one: the shape a
// chain of n inlined calls leaves for sroa. sroa once resolved its value
// replacements at most 64 links deep and left uses of deleted loads from
// the 65th block on.
func chainModule(n int) string {
	var b strings.Builder
	b.WriteString(`module "chain"
@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %v0 = extractvalue <3 x u32> %id, 0
`)
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "  %%a%d = alloca u32\n", k)
	}
	b.WriteString("  br %b1\n")
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "b%d:\n  store u32 %%v%d, ptr<function, u32> %%a%d\n  %%l%d = load ptr<function, u32> %%a%d\n  %%v%d = add u32 %%l%d, 1\n  br %%b%d\n",
			k, k-1, k, k, k, k, k, k+1)
	}
	fmt.Fprintf(&b, "b%d:\n  %%p = access ptr<storage, [? x u32]> @Out, u32 %%v0\n  store u32 %%v%d, ptr<storage, u32> %%p\n  ret\n}\n", n+1, n)
	return b.String()
}

func TestLongChainsVerify(t *testing.T) {
	t.Parallel()
	for _, n := range []int{64, 65, 1000, 10_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			m := parseIR(t, "chain", chainModule(n))
			in := &interp.Input{}
			before := mustRun(t, m, in)
			runPasses(t, m, "sroa,simplify", "spirv")
			after := mustRun(t, m, in)
			if ok, diff := before.Equal(after); !ok {
				t.Fatalf("results differ: %s", diff)
			}
			if strings.Contains(m.String(), "alloca") {
				t.Errorf("sroa left allocas in a chain of %d", n)
			}
		})
	}
}
