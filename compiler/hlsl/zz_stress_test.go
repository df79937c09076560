package hlsl

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStressTmp(t *testing.T) {
	if os.Getenv("HLSL_STRESS") == "" {
		t.Skip()
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "seeds", "*"))
	var seeds [][]byte
	for _, f := range files {
		d, _ := os.ReadFile(f)
		seeds = append(seeds, d)
	}
	// Also conformance sources.
	dir := filepath.Join(repoRoot(t), "..", "shared", "conformance", "vkd3d", "hlsl")
	cf, _ := filepath.Glob(filepath.Join(dir, "*.shader_test"))
	for _, p := range cf {
		d, _ := os.ReadFile(p)
		for _, u := range parseShaderTest(filepath.Base(p), string(d)) {
			seeds = append(seeds, []byte(u.src))
		}
	}
	toks := []string{"(", ")", "{", "}", "[", "]", ";", ",", "#define X(a) a##a\n", "#if 1\n", "#endif\n", "float4", "struct S {", "x", ".xyzw", "=", "+=", "?", ":", "\"", "'", "/*", "\\\n", "case 1:", "default:", "switch(", "return", "[numthreads(1,1,1)]", "<", ">", "S", "typedef", "cbuffer", "register(b0)", ": SV_Target", "mul(", "0x", "1e", "f", "u", "..."}
	r := rand.New(rand.NewSource(time.Now().UnixNano()))
	deadline := time.Now().Add(60 * time.Second)
	n := 0
	for time.Now().Before(deadline) {
		src := append([]byte(nil), seeds[r.Intn(len(seeds))]...)
		for k := r.Intn(6) + 1; k > 0; k-- {
			if len(src) == 0 {
				src = append(src, 'x')
			}
			i := r.Intn(len(src))
			switch r.Intn(5) {
			case 0:
				src = append(src[:i], src[min(len(src), i+r.Intn(20)):]...)
			case 1:
				ins := toks[r.Intn(len(toks))]
				src = append(src[:i], append([]byte(ins), src[i:]...)...)
			case 2:
				src[i] = byte(r.Intn(128))
			case 3:
				o := seeds[r.Intn(len(seeds))]
				j := r.Intn(len(o) + 1)
				src = append(src[:i], append(append([]byte(nil), o[j:min(len(o), j+r.Intn(200))]...), src[i:]...)...)
			case 4:
				j := r.Intn(len(src))
				src = append(src[:i], append(append([]byte(nil), src[j:min(len(src), j+r.Intn(50))]...), src[i:]...)...)
			}
		}
		for _, opts := range []Options{{}, {Library: true}} {
			start := time.Now()
			prog, d := Frontend("s.hlsl", src, opts)
			_ = d.Render(discard{}, prog.Sources)
			if el := time.Since(start); el > 8*time.Second {
				os.WriteFile("/tmp/hl/slow.hlsl", src, 0o644)
				t.Fatalf("slow: %v", el)
			}
			for _, x := range d {
				if strings.HasPrefix(x.Message, "internal compiler error") {
					os.WriteFile("/tmp/hl/crash.hlsl", src, 0o644)
					t.Fatalf("ICE: %s", x.Message[:min(len(x.Message), 3000)])
				}
			}
		}
		n++
	}
	t.Logf("%d inputs", n)
}
