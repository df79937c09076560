package sm3

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Loop shapes where values leave a loop both through a break and through
// the normal exit, or are computed in the header and used after the loop:
// the walker replays the header after endrep (the IR runs it once more
// when the count runs out), and that replay must not disturb what a break
// left behind. Each shader runs with many random inputs.
func TestLoopExitValues(t *testing.T) {
	t.Parallel()
	shaders := []string{
		`float lim;
float4 main(float2 uv : TEXCOORD0) : SV_Target {
  float a = 0;
  float b = uv.y;
  for (int i = 0; i < 4; i++) {
    a = a + 1;
    if (uv.x < a) { a = 10 + b; break; }
    b = b * 0.5;
  }
  return float4(a, b, 0, 1);
}`,
		`float lim;
int n;
float4 main(float2 uv : TEXCOORD0) : SV_Target {
  float a = uv.x;
  float h = 0;
  for (int i = 0; i < n; i++) {
    h = a * 2;
    if (h > lim) break;
    a = a + 1;
  }
  return float4(a, h, (float)n, 1);
}`,
		`float lim;
float4 main(float2 uv : TEXCOORD0) : SV_Target {
  float a = uv.x;
  float c = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      c = c + a;
      if (c > lim) break;
    }
    if (c > lim * 2) break;
    a = a - 0.5;
  }
  return float4(a, c, 0, 1);
}`,
		// continue (a flag cleared each iteration guards the rest of the
		// body) and early returns, inside and outside loops (a flag breaks
		// out of every loop and guards the rest of the shader).
		`float lim;
int n;
float4 main(float2 uv : TEXCOORD0) : SV_Target {
  float a = 0;
  for (int i = 0; i < 8; i++) {
    if ((float)i > uv.x * 4) continue;
    a += 1;
    for (int j = 0; j < n; j++) {
      if ((float)j > uv.y) continue;
      if (a > lim * 3) return float4(a, (float)j, 2, 2);
      a += 0.5;
    }
  }
  if (a > lim) return float4(1, 1, 1, 1);
  a = a * 2;
  if (a < uv.y) return float4(a, 3, 3, 3);
  return float4(a, 0, 0, 1);
}`,
	}
	for k, src := range shaders {
		m, err := loadSource(fmt.Sprintf("loop%d.hlsl", k), "hlsl", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		asm, err := compileSM3(m)
		if err != nil {
			t.Fatalf("shader %d: %v", k, err)
		}
		r := rand.New(rand.NewPCG(uint64(k), 5))
		for i := 0; i < 60; i++ {
			ref, _ := loadSource("loop.hlsl", "hlsl", []byte(src))
			c, err := prepare(ref, asm, r)
			if err != nil {
				t.Fatal(err)
			}
			if diff, err := runDiff(ref, asm, c); err != nil || diff != "" {
				t.Fatalf("shader %d run %d: %v%s\nuniforms %v inputs %v\n%s", k, i, err, diff, c.interpIn.Uniforms, c.interpIn.Inputs, asm)
			}
		}
	}
}
