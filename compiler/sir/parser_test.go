package sir

import (
	"strings"
	"testing"
)

// Printing, parsing and printing again gives the same text, for the lowered
// samples (quoted names, masks, swizzles, negation, flags) before and after
// optimization.
func TestParseRoundTrip(t *testing.T) {
	for _, name := range []string{"sm3-loop-m.sm3.pir", "sm3-loop-mm.sm3.pir"} {
		f, err := Lower(loadPIR(t, name), 8)
		if err != nil {
			t.Fatal(err)
		}
		for _, stage := range []string{"lowered", "optimized"} {
			if stage == "optimized" {
				Optimize(f)
			}
			text := f.String()
			g, err := Parse(text)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", name, stage, err, text)
			}
			if err := Validate(g); err != nil {
				t.Fatalf("%s %s: parsed function invalid: %v", name, stage, err)
			}
			if got := g.String(); got != text {
				t.Fatalf("%s %s: round trip differs:\n%s\nvs\n%s", name, stage, got, text)
			}
		}
	}
}

func TestParseImmediatesAndModifiers(t *testing.T) {
	src := `func main simd16 {
  reg %a 32x4 simd8@8 temp
  reg %h 16x1 simd16@0 temp
  reg %f 1x1 simd16@0 temp
entry:
  (8@8) fadd %a.xz, -%a.wy, 0x3f800000
  (16@0) mov %h, 0x3c00:16
  (16@0) sel %f, true, %f, false
  (16@0) ret
}
`
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(f); err != nil {
		t.Fatal(err)
	}
	if got := f.String(); got != src {
		t.Fatalf("got\n%s\nwant\n%s", got, src)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"func f simd8 {\nentry:\n  (8@0) frob %x\n}\n", "line 3: unknown opcode \"frob\""},
		{"func f simd8 {\nentry:\n  (8@0) mov %x, 0x0\n}\n", "line 3: unknown register %x"},
		{"func f simd8 {\nentry:\n  (8@0) br nowhere\n}\n", "line 3: unknown block nowhere"},
		{"func f simd8 {\n  reg %x 32x1 simd8@0 bogus\n}\n", "line 2: register x: unknown file \"bogus\""},
		{"func f simd8 {\nentry:\n  mov %x\n}\n", "line 3: instruction must start with its exec range"},
		{"func f simd8 {\nentry:\n  (8@0) ret\n", "missing"},
	} {
		_, err := Parse(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) error = %v, want %q", c.src, err, c.want)
		}
	}
}
