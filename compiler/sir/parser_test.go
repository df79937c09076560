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

// Register arrays (uniform matrices and arrays) print their slot count and
// slot reads, movidx its index operand; all of it parses back.
func TestParseRegisterArrays(t *testing.T) {
	src := `func main simd1 {
  reg %M 32x4[4] simd1@0 const
  reg %"arr.x" 32x1[3] simd1@0 const
  reg %i 32x1 simd1@0 temp
  reg %d 32x1 simd1@0 temp
entry:
  (1@0) mov %i, %M[2].z
  (1@0) movidx %d, %"arr.x"[1], %i, 0x2
  (1@0) fadd %d, -%M[3].w, %"arr.x"[0]
  (1@0) ret
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
	if s := f.Blocks[0].Instrs[1].Srcs[0]; s.Elem != 1 || s.Reg.Elems != 3 {
		t.Errorf("movidx source slot %d of %d, want 1 of 3", s.Elem, s.Reg.Elems)
	}
	// A slot beyond the array, an array in a writable file and movidx on a
	// plain register are invalid.
	for _, bad := range []struct{ from, to, want string }{
		{"%M[3].w", "%M[4].w", "slot 4 of %M"},
		{"%i 32x1 simd1@0 temp", "%i 32x1[2] simd1@0 temp", "only read-only registers may be arrays"},
		{`%"arr.x"[1], %i`, `%i, %i`, "not a register array"},
		{`%i, 0x2`, `%i, 0x3`, "movidx slot count"},
	} {
		g, err := Parse(strings.Replace(src, bad.from, bad.to, 1))
		if err == nil {
			err = Validate(g)
		}
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s -> %s: error %v, want %q", bad.from, bad.to, err, bad.want)
		}
	}
}
