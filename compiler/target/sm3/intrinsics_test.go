package sm3

import (
	"math/rand/v2"
	"testing"
)

// The intrinsics SIR lowering expands (no SM3 instruction of their own)
// agree with the interpreter's exact functions on random inputs: to 5e-4
// relative, since acos/asin use fxc's polynomial (error up to 7e-5, twice
// here) and the rest rcp/exp/log approximations rounded in float32.
func TestIntrinsicExpansions(t *testing.T) {
	t.Parallel()
	src := `float4 a;
float4 main() : SV_Target {
  float x = a.x * 0.2;
  return float4(sinh(a.y) + cosh(a.z) + tanh(a.w),
                acos(x) + asin(x) * 2.0 + atan(a.y) + atan(a.z * 3.0) + atan2(a.y, a.z) + atan2(a.x, -a.w),
                trunc(a.z * 1.3) + round(a.w * 0.7) + ceil(a.y * 0.3) + floor(-a.x * 0.3),
                log10(abs(a.x) + 1.0) + tan(x) + fmod(a.y, 1.5) + exp(x) + log(abs(a.z) + 0.5) + step(a.x, a.y));
}`
	m, err := loadSource("intr.hlsl", "hlsl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	asm, err := compileSM3(m)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100; i++ {
		ref, _ := loadSource("intr.hlsl", "hlsl", []byte(src))
		c, err := prepare(ref, asm, r)
		if err != nil {
			t.Fatal(err)
		}
		c.tol = 5e-4
		if diff, err := runDiff(ref, asm, c); err != nil || diff != "" {
			t.Fatalf("run %d: %v%s\nuniforms %v\n%s", i, err, diff, c.interpIn.Uniforms, asm)
		}
	}
}
