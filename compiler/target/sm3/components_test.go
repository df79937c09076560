package sm3

import (
	"math/rand/v2"
	"testing"
)

// TestComponentStores: writes of one component at a run-time index into a
// static (private) vector, a local vector and an output (which the HLSL
// lowering addresses per component outside function memory) compile to
// SM3 and agree with the interpreter on the emulator for every index.
func TestComponentStores(t *testing.T) {
	t.Parallel()
	src := `float4 a;
static float4 S;
float4 main(out float4 o2 : COLOR1) : COLOR0 {
  int i = (int)(frac(a.x) * 4.0);
  int j = 3 - i;
  S = a;
  S[i] = 7.0;
  float4 L = a.wzyx;
  L[j] = -2.0;
  o2 = a;
  o2[j] = 5.0;
  o2.zx = float2(S[j], L[i]);
  return S + L * 10.0;
}`
	m, err := loadSource("components.hlsl", "hlsl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	asm, err := compileSM3(m)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 64; i++ {
		ref, _ := loadSource("components.hlsl", "hlsl", []byte(src))
		c, err := prepare(ref, asm, r)
		if err != nil {
			t.Fatal(err)
		}
		if diff, err := runDiff(ref, asm, c); err != nil || diff != "" {
			t.Fatalf("run %d: %v%s\nuniforms %v\n%s", i, err, diff, c.interpIn.Uniforms, asm)
		}
	}
}
