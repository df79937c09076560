package pipeline

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"passlens/compiler/ir"
	"passlens/compiler/passes"
	"passlens/compiler/target"
	_ "passlens/compiler/target/sm3/sm3lower" // registers sm3-lower, the last pass of the sm3 pipeline
)

// genLarge generates a shader-like module of about n instructions: an
// entry point calling many helpers, each with vector, struct and array
// locals, an out parameter, a loop with a nested selection, component
// writes, dot and length — work for every pass of the default pipelines.
func genLarge(n int) string {
	const perHelper = 52
	helpers := max(1, n/perHelper)
	var sb strings.Builder
	sb.WriteString(`module "large"

type %S = { <3 x f32> pos, f32 w }

@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
`)
	for k := 0; k < helpers; k++ {
		fmt.Fprintf(&sb, `
define void @h%d(f32 %%x, ptr<function, f32> %%o) {
entry:
  %%v = alloca <4 x f32>
  %%s = alloca %%S
  %%a = alloca [4 x f32]
  %%n = alloca u32
  %%c0 = construct <4 x f32> (f32 %%x, f32 1.0, f32 2.0, f32 3.0)
  store <4 x f32> %%c0, ptr<function, <4 x f32>> %%v
  %%sp = access ptr<function, %%S> %%s, i32 0
  %%p3 = construct <3 x f32> (f32 %%x, f32 %%x, f32 %d.0)
  store <3 x f32> %%p3, ptr<function, <3 x f32>> %%sp
  %%sw = access ptr<function, %%S> %%s, i32 1
  store f32 0.5, ptr<function, f32> %%sw
  store [4 x f32] zero, ptr<function, [4 x f32]> %%a
  store u32 0, ptr<function, u32> %%n
  br %%loop
loop:
  %%nv = load ptr<function, u32> %%n
  %%done = icmp uge u32 %%nv, 4
  loop_merge %%exit, %%cont
  condbr bool %%done, %%exit, %%body
body:
  %%vv = load ptr<function, <4 x f32>> %%v
  %%f = uitofp u32 %%nv to f32
  %%sc = construct <4 x f32> (f32 %%f, f32 %%f, f32 %%f, f32 %%f)
  %%m = fmul <4 x f32> %%vv, %%sc
  %%ad = fadd <4 x f32> %%m, %%c0
  store <4 x f32> %%ad, ptr<function, <4 x f32>> %%v
  %%ap = access ptr<function, [4 x f32]> %%a, u32 %%nv
  %%ex = extractvalue <4 x f32> %%ad, 1
  store f32 %%ex, ptr<function, f32> %%ap
  %%cnd = fcmp olt f32 %%ex, 10.0
  selection_merge %%bm
  condbr bool %%cnd, %%then, %%bm
then:
  %%vx = access ptr<function, <4 x f32>> %%v, i32 0
  store f32 %%x, ptr<function, f32> %%vx
  br %%bm
bm:
  br %%cont
cont:
  %%n2 = add u32 %%nv, 1
  store u32 %%n2, ptr<function, u32> %%n
  br %%loop
exit:
  %%fv = load ptr<function, <4 x f32>> %%v
  %%sv = load ptr<function, %%S> %%s
  %%pos = extractvalue %%S %%sv, 0
  %%d = intr f32 dot(<3 x f32> %%pos, <3 x f32> %%pos)
  %%len = intr f32 length(<4 x f32> %%fv)
  %%a2p = access ptr<function, [4 x f32]> %%a, i32 2
  %%a2 = load ptr<function, f32> %%a2p
  %%r0 = fadd f32 %%d, %%len
  %%r1 = fadd f32 %%r0, %%a2
  store f32 %%r1, ptr<function, f32> %%o
  ret
}
`, k, k)
	}
	sb.WriteString(`
define void @main() compute numthreads(64, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %x0 = uitofp u32 %i to f32
  %acc = alloca f32
  store f32 %x0, ptr<function, f32> %acc
`)
	for k := 0; k < helpers; k++ {
		fmt.Fprintf(&sb, `  %%t%d = alloca f32
  %%a%d = load ptr<function, f32> %%acc
  call void @h%d(f32 %%a%d, ptr<function, f32> %%t%d)
  %%r%d = load ptr<function, f32> %%t%d
  %%s%d = fadd f32 %%a%d, %%r%d
  store f32 %%s%d, ptr<function, f32> %%acc
`, k, k, k, k, k, k, k, k, k, k, k)
	}
	sb.WriteString(`  %res = load ptr<function, f32> %acc
  %p = access ptr<storage, [? x f32]> @Out, u32 %i
  store f32 %res, ptr<storage, f32> %p
  ret
}
`)
	return sb.String()
}

func countInstrs(m *ir.Module) int {
	n := 0
	for _, f := range m.Funcs {
		n += f.NumInstrs()
	}
	return n
}

// runnable reports whether every pass of a target's default pipeline is
// registered.
func runnable(target target.Name) bool {
	_, err := Default(target)
	return err == nil
}

// BenchmarkDefaultPipeline runs each target's default pipeline, with the
// verifier after every pass, on a generated ~100k-instruction module.
func BenchmarkDefaultPipeline(b *testing.B) {
	src := genLarge(100_000)
	for _, target := range passes.Targets {
		b.Run(string(target), func(b *testing.B) {
			if !runnable(target) {
				b.Skipf("default %s pipeline has unregistered passes", target)
			}
			spec, _ := Default(target)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				m, err := ir.ParseModule("large", []byte(src))
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res := Run(context.Background(), m, spec, Options{Target: target, VerifyEach: true})
				if res.Err != nil {
					b.Fatal(res.Err)
				}
			}
		})
	}
}

// TestLargePipelineReport prints per-pass time, allocations and snapshot
// memory for the default pipelines on the generated large module, in the
// markdown of BENCHMARKS.md. Run it with PASSLENS_BENCH_REPORT=1.
func TestLargePipelineReport(t *testing.T) {
	if os.Getenv("PASSLENS_BENCH_REPORT") == "" {
		t.Skip("set PASSLENS_BENCH_REPORT=1 to print the report")
	}
	src := genLarge(100_000)
	for _, target := range passes.Targets {
		if !runnable(target) {
			fmt.Printf("\n%s: skipped (unregistered passes)\n", target)
			continue
		}
		spec, _ := Default(target)
		m, err := ir.ParseModule("large", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("\n#### %s: `%s` (input %d instructions, %d functions)\n\n", target, spec, countInstrs(m), len(m.Funcs))
		runtime.GC()
		var before, after runtime.MemStats
		t0 := time.Now()
		res := Run(context.Background(), m, spec, Options{Target: target, VerifyEach: true, MeasureAllocs: true})
		total := time.Since(t0)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		fmt.Println("| step | pass | time | verify | allocs | alloc MB | changed | new snapshot text KB |")
		fmt.Println("|---:|---|---:|---:|---:|---:|---|---:|")
		var prev *Snapshot
		textTotal := 0
		for _, s := range res.Snapshots {
			size := s.Size(prev)
			textTotal += size
			fmt.Printf("| %d | %s | %s | %s | %d | %.1f | %v | %d |\n", s.Index, s.Pass,
				s.Duration.Round(time.Microsecond), s.VerifyTime.Round(time.Microsecond),
				s.Allocs, float64(s.AllocBytes)/(1<<20), s.Changed, size/1024)
			prev = s
		}
		fin := res.Final()
		fmt.Printf("\nwhole run (capture and verify included): %s; final module %d instructions; "+
			"snapshot text retained: %.1f MB for %d snapshots\n", total.Round(time.Millisecond), countInstrs(m), float64(textTotal)/(1<<20), len(res.Snapshots))
		// What cloning would cost instead: one ir.Module copy per snapshot.
		// Every byte a clone allocates stays reachable from the clone, so
		// the allocation delta is its size.
		runtime.ReadMemStats(&before)
		c := ir.CloneModule(m)
		runtime.ReadMemStats(&after)
		fmt.Printf("for comparison: one ir.CloneModule of the final module allocates %.1f MB in %d objects; its text is %.1f MB\n",
			float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), after.Mallocs-before.Mallocs, float64(len(fin.Text()))/(1<<20))
		runtime.KeepAlive(c)
		runtime.ReadMemStats(&before)
		t0 = time.Now()
		if _, err := fin.FreshModule(); err != nil {
			t.Fatal(err)
		}
		d := time.Since(t0)
		runtime.ReadMemStats(&after)
		fmt.Printf("re-parsing the final snapshot (Snapshot.Module, on demand): %s, %.1f MB allocated\n",
			d.Round(time.Millisecond), float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
	}
}

func TestGenLargeIsValid(t *testing.T) {
	m, err := ir.ParseModule("large", []byte(genLarge(2000)))
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	res := Run(context.Background(), m, MustParse("inline,sroa,simplify,scalarize,simplify"), Options{Target: "dxil", VerifyEach: true})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
}
