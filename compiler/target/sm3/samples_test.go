package sm3

import (
	"math/rand/v2"
	"path"
	"regexp"
	"strings"
	"testing"

	"passlens/samples"
)

// locRE matches a source location "line:col" in an error message.
var locRE = regexp.MustCompile(`\b\d+:\d+\b`)

// sm3Samples are the samples SM3 can express; every other sample must be
// rejected with an error naming the construct and its source location.
var sm3Samples = map[string]bool{
	"add-mul": true, "cos-sin": true, "pixel": true, "pixel-image": true, "sm3-loop-m": true, "sm3-loop-mm": true, "vertex": true,
}

// TestSamples compiles every embedded sample for SM3. The SM3-compatible
// ones run on the emulator and the interpreter with random uniforms and
// inputs (8 runs each) and must agree; the others must fail with a message
// that names the construct and a line:col (for .pir/.ll inputs, which have
// no source locations, the function).
func TestSamples(t *testing.T) {
	t.Parallel()
	agreed, runs := 0, 0
	for _, s := range samples.All() {
		kind := strings.TrimPrefix(path.Ext(s.File), ".")
		if kind == "json" {
			continue
		}
		m, err := loadSource("samples/"+s.File, kind, s.Source)
		if err != nil {
			t.Errorf("%s: load: %v", s.Name, err)
			continue
		}
		asm, err := compileSM3(m)
		if !sm3Samples[s.Name] {
			switch {
			case err == nil:
				t.Errorf("%s: compiled for SM3; expected a rejection (or add it to sm3Samples)", s.Name)
			case kind == "hlsl" && !locRE.MatchString(err.Error()):
				t.Errorf("%s: rejection without a line:col: %v", s.Name, err)
			case !locRE.MatchString(err.Error()) && !strings.Contains(err.Error(), "@"):
				// IR inputs carry no source locations: the function must
				// be named instead.
				t.Errorf("%s: rejection naming neither a line:col nor a function: %v", s.Name, err)
			default:
				t.Logf("%s: rejected: %s", s.Name, firstLineOf(err.Error()))
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		r := rand.New(rand.NewPCG(uint64(len(s.Name)), 7))
		for i := 0; i < 8; i++ {
			ref, err := loadSource("samples/"+s.File, kind, s.Source)
			if err != nil {
				t.Fatal(err)
			}
			c, err := prepare(ref, asm, r)
			if err != nil {
				t.Errorf("%s: %v\n%s", s.Name, err, asm)
				break
			}
			runs++
			diff, err := runDiff(ref, asm, c)
			if err != nil || diff != "" {
				t.Errorf("%s run %d: %v%s\nuniforms %v\n%s", s.Name, i, err, diff, c.interpIn.Uniforms, asm)
				break
			}
			agreed++
		}
	}
	t.Logf("samples: %d/%d emulator runs agree with the interpreter", agreed, runs)
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
