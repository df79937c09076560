package hlsl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The fuzz targets check that no input makes the frontend panic or hang.
// Seeds are the shaders in testdata/fuzz/seeds plus a few snippets;
// findings are kept by "go test -fuzz" in testdata/fuzz/FuzzXxx and run
// as ordinary tests.

func addSeeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "seeds", "*"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"#define F(x, ...) x ## __VA_ARGS__ #x\nF(a, b)\n#if defined(F) && (1 ? 2 : 3) << 2\n#elif\n#endif",
		"struct S { float4 a : A; }; S main(S s) : SV_Target { return s; }",
		"float4 main(float4 p : SV_Position) : SV_Target { float2x2 m = {p}; return mul(m, p.xy).xyxy; }",
		"[numthreads(1,1,1)] void main(uint3 i : SV_DispatchThreadID) { switch (i.x) { case 0: default: break; } }",
		"cbuffer c : register(b0) { float4 x : packoffset(c0.y); }",
		"void f() { int a[] = {1, 2}; a[5] = (int)(float4)a.x; }",
		"#line 5 \"x\"\n#include \"missing\"\n",
		"typedef vector<vector<float, 2>, 2> bad; bad b;",
	} {
		f.Add([]byte(s))
	}
}

// fuzzOptions serves includes from the seed directory only.
func fuzzOptions() Options {
	return Options{
		IncludeDirs: []string{filepath.Join("testdata", "fuzz", "seeds")},
		ReadFile: func(path string) ([]byte, error) {
			if !strings.HasPrefix(filepath.Clean(path), filepath.Join("testdata", "fuzz", "seeds")) {
				return nil, os.ErrNotExist
			}
			return os.ReadFile(path)
		},
	}
}

func noICE(t *testing.T, diags Diagnostics) {
	t.Helper()
	for _, d := range diags {
		if isInternalError(d.Message) {
			t.Fatal(d.Message)
		}
	}
}

func FuzzLexPreprocess(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var diags Diagnostics
		watchdog(t, func() {
			_, diags = Preprocess("fuzz.hlsl", src, fuzzOptions())
			_ = diags.Render(discard{}, Sources{"fuzz.hlsl": src})
		})
		noICE(t, diags)
	})
}

func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var prog *Program
		var diags Diagnostics
		watchdog(t, func() { prog, diags = Parse("fuzz.hlsl", src, fuzzOptions()) })
		noICE(t, diags)
		if prog == nil {
			t.Fatal("nil program")
		}
	})
}

func FuzzCheck(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		opts := fuzzOptions()
		var d1, d2 Diagnostics
		watchdog(t, func() {
			var prog *Program
			prog, d1 = Frontend("fuzz.hlsl", src, opts)
			_ = d1.Render(discard{}, prog.Sources)
			opts.Library = true
			_, d2 = Frontend("fuzz.hlsl", src, opts)
		})
		noICE(t, d1)
		noICE(t, d2)
	})
}

// watchdog fails the test if fn takes longer than 30 seconds, so the
// fuzzer records slow inputs as failures instead of stalling.
func watchdog(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("frontend took more than 30s")
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
