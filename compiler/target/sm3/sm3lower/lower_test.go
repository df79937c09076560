package sm3lower

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/ir/irtest"
	"passlens/compiler/passes"
	"passlens/compiler/passes/passtest"
)

// pixel shades one pixel with uniform m set.
func pixel(m int) *interp.Input { return passtest.PixelInput(map[string]any{"m": m}) }

// runByName runs a registered pass (sm3-lower or a generic one) with an
// option, for passtest.
func runByName(name, opt string, m *ir.Module) (bool, error) {
	p := passes.Lookup(name)
	if p == nil {
		return false, fmt.Errorf("unknown pass %q", name)
	}
	ctx := &passes.Context{}
	if opt != "" {
		ctx.Options = map[string]string{name: opt}
	}
	return p.Run(m, ctx)
}

// apply runs a pass sequence ("a,b<opt>") on m with passtest.Apply's
// checks after each step.
func apply(t *testing.T, seq string, m *ir.Module) *ir.Module {
	t.Helper()
	for _, step := range strings.Split(seq, ",") {
		name, opt, _ := strings.Cut(step, "<")
		m, _ = passtest.Apply(t, runByName, name, strings.TrimSuffix(opt, ">"), m)
	}
	return m
}

// load reads testdata/sm3-lower/<name>.pir.
func load(t *testing.T, name string) *ir.Module {
	t.Helper()
	return passtest.Load(t, filepath.Join("testdata", "sm3-lower", name+".pir"))
}

// stripRepMarkers returns a copy of m without sm3.rep loop markers: they
// are metadata for the SM3 back end. The iteration cap they describe is
// ordinary code and stays.
func stripRepMarkers(m *ir.Module) *ir.Module { return passtest.WithoutIntrinsic(m, RepIntrinsic) }

// The differential runs compare results bit for bit: no float tolerance is
// needed, because every integer the tests compute stays below 2^24 in
// magnitude, where f32 arithmetic on integers is exact (add, sub, mul
// exactly; trunc(a / b) and frem exactly as well).

// TestCases runs the case files testdata/sm3-lower/*.pir (passtest.RunDir):
// each pass sequence step by step, against its .want.pir, and with the
// same results as the input.
func TestCases(t *testing.T) {
	t.Parallel()
	passtest.RunDir(t, "testdata", runByName, stripRepMarkers)
}

// TestCaseOutputsPassSpirvVal validates the control flow of every expected
// output with spirv-val: sm3-lower keeps the structured control flow it is
// given.
func TestCaseOutputsPassSpirvVal(t *testing.T) {
	t.Parallel()
	passtest.SPIRVTool(t, "spirv-val")
	files, err := filepath.Glob(filepath.Join("testdata", "sm3-lower", "*.want.pir"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 8 {
		t.Fatalf("only %d expected outputs found", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			if msg := passtest.ValidateCF(t, passtest.Load(t, path)); msg != "" {
				t.Errorf("spirv-val rejects the control flow of %s: %s", path, msg)
			}
		})
	}
}

// TestRandomModulesRejectedCleanly runs the SM3 control-flow order on the
// IR package's random modules: they use wave operations, bit tricks, ...,
// so sm3-lower must reject most of them, with an error that names the
// pass, and never panic or emit IR that does not verify.
func TestRandomModulesRejectedCleanly(t *testing.T) {
	t.Parallel()
	n := 80
	if testing.Short() {
		n = 20
	}
	for seed := 0; seed < n; seed++ {
		m := irtest.RandomModule(int64(seed), irtest.RandomOptions{Unstructured: seed%2 == 0, PlainNames: true})
		m = apply(t, "switch-to-if<all>,eliminate-multilevel-break,out-of-ssa,structurize", m)
		c := ir.CloneModule(m)
		if _, err := Pass.Run(c, &passes.Context{}); err != nil {
			if !strings.HasPrefix(err.Error(), "sm3-lower: ") {
				t.Fatalf("seed %d: error without the pass name: %v", seed, err)
			}
			continue
		}
		apply(t, "sm3-lower", m)
	}
}

// sm3RepCounts returns the count operands of the sm3.rep markers of f.
func sm3RepCounts(f *ir.Function) []string {
	var out []string
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpIntrinsic && in.Intr.Name == RepIntrinsic {
				out = append(out, in.Args[0].Ref())
			}
		}
	}
	return out
}

// TestSM3LowerRepCounts: a counted loop bound by a uniform integer is
// "rep i0" with i0 = m (in SSA and after out-of-ssa), a constant bound is
// its count, anything else the 255 cap.
func TestSM3LowerRepCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, passes, want string }{
		{"sm3_rep_uniform", "sm3-lower", "%m"},
		{"sm3_rep_uniform", "out-of-ssa,sm3-lower", "%m"},
		{"sm3_const_loop", "sm3-lower", "10"},
		{"sm3_const_loop", "out-of-ssa,sm3-lower", "10"},
		{"sm3_rep_cap", "sm3-lower", "255"},
		{"swap", "sm3-lower", "255"},
		{"lost_copy", "sm3-lower", "255"},
		// The one-trip loop of switch-to-if runs once; the loop in case 2
		// counts to a value read from a buffer: capped.
		{"sw_plain", "switch-to-if<all>,sm3-lower", "1,255"},
	} {
		m := load(t, tc.file)
		m = apply(t, tc.passes, m)
		if got := strings.Join(sm3RepCounts(m.Func("main")), ","); got != tc.want {
			t.Errorf("%s after %s: rep counts %q, want %q", tc.file, tc.passes, got, tc.want)
		}
	}
}

// TestSM3LowerCap256 is the documented behaviour of the 255 cap: the
// seed's second example with m = 16 needs 256 iterations (k < m*m); after
// sm3-lower the loop stops after 255, so the sum is 0+...+254 = 32385
// instead of 0+...+255 = 32640. With m = 15 (225 iterations) nothing
// changes. A loop bound directly by the uniform (rep i0 = m) is exact at
// any count.
func TestSM3LowerCap256(t *testing.T) {
	t.Parallel()
	sumTo := func(n int) float32 { return float32(n * (n - 1) / 2) }
	red := func(t *testing.T, m *ir.Module, in *interp.Input) float32 {
		t.Helper()
		tg := passtest.Run(t, stripRepMarkers(m), in, interp.PolicyMaximal).Target("SV_Target0")
		if tg == nil {
			t.Fatal("no render target")
		}
		return math.Float32frombits(uint32(tg.Pixel(0, 0)[0]))
	}
	capped := load(t, "sm3_rep_cap")
	low := apply(t, "sm3-lower", capped)
	for _, tc := range []struct {
		m          int
		before, at float32
	}{
		{15, sumTo(225), sumTo(225)},
		{16, sumTo(256), sumTo(255)}, // 256 iterations: stops after 255
		{20, sumTo(400), sumTo(255)},
	} {
		if got := red(t, capped, pixel(tc.m)); got != tc.before {
			t.Errorf("m=%d original: %v, want %v", tc.m, got, tc.before)
		}
		if got := red(t, low, pixel(tc.m)); got != tc.at {
			t.Errorf("m=%d after sm3-lower: %v, want %v", tc.m, got, tc.at)
		}
	}
	exact := load(t, "sm3_rep_uniform")
	lowExact := apply(t, "sm3-lower", exact)
	for _, mv := range []int{0, 255, 256, 300} {
		if a, b := red(t, exact, pixel(mv)), red(t, lowExact, pixel(mv)); a != b || a != sumTo(mv) {
			t.Errorf("rep i0 = m = %d: original %v, lowered %v, want %v", mv, a, b, sumTo(mv))
		}
	}
}

// TestSM3LowerCapWithHeaderEffects: a header with side effects runs at most
// 255 times under the cap (n + 1 times below it); a one-block loop's body
// (its header) likewise.
func TestSM3LowerCapWithHeaderEffects(t *testing.T) {
	t.Parallel()
	m := load(t, "sm3_header_effects")
	low := apply(t, "sm3-lower", m)
	in := passtest.Input(m, []int32{10, 254, 255, 300})
	before := passtest.OutI32(t, passtest.Run(t, m, in, interp.PolicyMaximal), "Out", 8)
	after := passtest.OutI32(t, passtest.Run(t, stripRepMarkers(low), in, interp.PolicyMaximal), "Out", 8)
	wantBefore := []int32{11, 10, 255, 254, 256, 255, 301, 300}
	wantAfter := []int32{11, 10, 255, 254, 255, 255, 255, 255}
	if !slices.Equal(before, wantBefore) || !slices.Equal(after, wantAfter) {
		t.Errorf("header runs: before %v (want %v), after %v (want %v)", before, wantBefore, after, wantAfter)
	}
}

// TestSM3LowerNoIntegersLeft: after the pass, integers appear only where
// the SM3 contract allows: loads from and stores to outside memory,
// the conversions next to them, indices, and the rep count.
func TestSM3LowerNoIntegersLeft(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"sm3_intops", "sm3_rep_uniform", "sm3_const_loop", "switch_loop_continue"} {
		m := load(t, name)
		m = apply(t, "switch-to-if<all>,eliminate-multilevel-break,out-of-ssa,structurize,sm3-lower", m)
		for _, b := range m.Func("main").Blocks {
			for _, in := range b.Instrs {
				if !sm3HasInt(in.Type()) {
					continue
				}
				ok := false
				switch in.Op {
				case ir.OpLoad:
					ok = sm3ExternalPtr(in.Args[0])
				case ir.OpFPToSI, ir.OpFPToUI:
					ok = true // MOVA for indices, or the value stored outside
				case ir.OpAlloca, ir.OpAccess:
					ok = in.Type().Space != ir.SpaceFunction
				}
				if !ok {
					t.Errorf("%s: integer value left: %s", name, ir.InstrString(in))
				}
			}
		}
	}
}

// TestSM3LowerErrors: constructs SM3 cannot express are rejected with a
// message naming the construct and its source position.
func TestSM3LowerErrors(t *testing.T) {
	t.Parallel()
	head := `
@In = global storage [? x i32] binding 0, 0 readonly
@Out = global storage [? x i32] binding 0, 1
@T = global storage f32 binding 0, 0 readonly kind "Texture2D"
@RW = global storage f32 binding 0, 2 kind "RWTexture2D"
@UB = global storage [? x i32] binding 0, 3 array "UB" 0 of ? kind "RWBuffer"
define void @main() compute numthreads(4, 1, 1) {
entry:
  %p = access ptr<storage, [? x i32]> @In, i32 0
  %x = load ptr<storage, i32> %p
  %f = load ptr<storage, i32> %p
`
	tail := `
  ret
}
`
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"wave", "  %w = intr i32 WaveActiveSum(i32 %x) !loc 12:7", []string{"12:7", "wave operation WaveActiveSum", "WaveActiveSum(i32 %x)"}},
		{"ddx", "  %fx = sitofp i32 %x to f32\n  %d = intr f32 ddx_fine(f32 %fx) !loc 13:3", []string{"13:3", "ddx_fine needs shader model 5", "use ddx/ddy"}},
		{"ddx-compute", "  %fx = sitofp i32 %x to f32\n  %d = intr f32 ddx_coarse(f32 %fx) !loc 13:4", []string{"13:4", "derivative ddx_coarse (dsx/dsy) needs a pixel shader"}},
		{"quad", "  %q = intr i32 QuadReadAcrossX(i32 %x) !loc 14:4", []string{"14:4", "quad operation QuadReadAcrossX is not available in shader model 3"}},
		{"barrier", "  intr void GroupMemoryBarrierWithGroupSync() !loc 3:1", []string{"3:1", "barrier GroupMemoryBarrierWithGroupSync"}},
		{"xor", "  %y = xor i32 %x, 5 !loc 7:9", []string{"7:9", "bitwise xor on integers", "%y = xor i32 %x, 5"}},
		{"or", "  %y = or i32 %x, %f !loc 7:9", []string{"7:9", "bitwise or"}},
		{"and", "  %y = and i32 %x, 6 !loc 2:2", []string{"2:2", "constant mask of the form 2^k - 1"}},
		{"varshift", "  %y = shl i32 %x, %f !loc 4:4", []string{"4:4", "shl by a non-constant amount"}},
		{"asfloat", "  %y = bitcast i32 %x to f32 !loc 5:5", []string{"5:5", "bit reinterpretation"}},
		{"bigconst", "  %y = add i32 %x, 20000000 !loc 6:6", []string{"6:6", "integer constant 20000000"}},
		{"countbits", "  %y = intr i32 countbits(i32 %x) !loc 8:8", []string{"8:8", "countbits works on integer bits"}},
		{"noloc", "  %y = xor i32 %x, 5", []string{"@main %entry", "bitwise xor"}},
		{"double", "  %y = sitofp i32 %x to f64 !loc 9:3", []string{"9:3", "type f64 is not available in shader model 3"}},
		{"half", "  %y = sitofp i32 %x to f16 !loc 9:4", []string{"9:4", "type f16 is not available in shader model 3"}},
		{"int64", "  %y = sext i32 %x to i64 !loc 9:5", []string{"9:5", "type i64 is not available in shader model 3"}},
		{"rwtexture", "  %y = intr f32 tex.read(ptr<storage, f32> @RW, <2 x i32> <0, 0>) !loc 9:7", []string{"9:7", "read-write textures (RWTexture*) are unordered access views", "(tex.read)"}},
		{"unbounded", "  %e = intr ptr<storage, [? x i32]> res.index(ptr<storage, [? x i32]> @UB, i32 %x) !loc 9:8", []string{"9:8", "an unbounded resource array (res.index) needs shader model 5.1"}},
		{"texture", "  %y = intr f32 tex.load(ptr<storage, f32> @T, <2 x i32> <0, 0>, i32 0, <2 x i32> <0, 0>) !loc 9:9", []string{"9:9", "texture Load and operator[] (tex.load) have no shader model 3 instruction"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ir.ParseModule(tc.name, []byte(head+tc.body+tail))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Pass.Run(m, &passes.Context{})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	// Several problems are all reported.
	m, err := ir.ParseModule("two", []byte(head+"  %a = xor i32 %x, 1 !loc 1:1\n  %b = intr i32 WaveReadLaneFirst(i32 %x) !loc 2:2"+tail))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Pass.Run(m, &passes.Context{}); err == nil || !strings.Contains(err.Error(), "1:1") || !strings.Contains(err.Error(), "2:2") {
		t.Errorf("want both problems, got %v", err)
	}
	// A switch left for SM3, and a constant trip count beyond rep's reach.
	for name, tc := range map[string]struct{ src, want string }{
		"switch": {"sw_plain", "run switch-to-if<all> before sm3-lower"},
		"trip":   {"", "loop runs 300 times, more than the 255"},
	} {
		var m *ir.Module
		if tc.src != "" {
			m = load(t, tc.src)
		} else {
			src := strings.Replace(load(t, "sm3_const_loop").String(), "icmp slt i32 %k, 10", "icmp slt i32 %k, 300", 1)
			m = passtest.Parse(t, "trip", src)
		}
		if _, err := Pass.Run(m, &passes.Context{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", name, err, tc.want)
		}
	}
}

// TestSM3PipelineRandom runs the SM3 control-flow pipeline (switch-to-if<all>,
// eliminate-multilevel-break, out-of-ssa, structurize<ifs> - what the sm3
// target selects - and sm3-lower) on the
// random switch programs and random CFGs of the other tests: their integers
// stay far below 2^24, so the float-carried results must be bit-identical
// after every step. The random CFGs come out of structurize as one
// dispatcher loop capped at 255 iterations; their fuel keeps them below it.
// The final output is also run as RepModel.
func TestSM3PipelineRandom(t *testing.T) {
	t.Parallel()
	n := 80
	if testing.Short() {
		n = 20
	}
	steps := []string{"switch-to-if<all>", "eliminate-multilevel-break", "out-of-ssa", "structurize<ifs>", "sm3-lower"}
	for seed := 0; seed < n; seed++ {
		for _, m := range []*ir.Module{passtest.RandomSwitchModule(uint64(seed)), passtest.RandomCFGModule(uint64(seed))} {
			in := passtest.Input(m, passtest.Data)
			cur := m
			for _, step := range steps {
				cur = apply(t, step, cur)
				passtest.SameRun(t, m, stripRepMarkers(cur), in)
			}
			// And as SM3's rep instruction runs the loops.
			model, err := RepModel(cur)
			if err != nil {
				t.Fatalf("seed %d: rep model: %v", seed, err)
			}
			passtest.SameRun(t, m, model, in)
		}
	}
}

// sm3TripSrc is "for (k = 0; k < N; k++) body" counting its body runs in
// Out[0] and, with effects, its header runs in Out[1]; Out[2] is k after
// the loop. N is the constant n, or with n < 0 the uniform m, loaded in
// the header as the HLSL front end does.
func sm3TripSrc(n int, effects bool) string {
	bound, load := fmt.Sprint(n), ""
	if n < 0 {
		bound, load = "%m", "  %m = load ptr<uniform, i32> @m\n"
	}
	header := ""
	if effects {
		header = "  %h = load ptr<storage, i32> %p1\n  %h1 = add i32 %h, 1\n  store i32 %h1, ptr<storage, i32> %p1\n"
	}
	return `@m = global uniform i32 binding 0, 0 kind "cbuffer"
@Out = global storage [? x i32] binding 0, 1 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %p0 = access ptr<storage, [? x i32]> @Out, i32 0
  %p1 = access ptr<storage, [? x i32]> @Out, i32 1
  %p2 = access ptr<storage, [? x i32]> @Out, i32 2
  br %loop
loop:
  %k = phi i32 [0, %entry], [%k.next, %body]
` + header + load + `  %more = icmp slt i32 %k, ` + bound + `
  loop_merge %exit, %body
  condbr bool %more, %body, %exit
body:
  %b = load ptr<storage, i32> %p0
  %b1 = add i32 %b, 1
  store i32 %b1, ptr<storage, i32> %p0
  %k.next = add i32 %k, 1
  br %loop
exit:
  store i32 %k, ptr<storage, i32> %p2
  ret
}
`
}

// TestSM3RepTripCounts runs counted loops k < N through sm3-lower (alone on
// SSA, and after out-of-ssa as the sm3 pipeline does) and checks exact
// iteration counts three ways: the original program, sm3-lower's output
// (its own counter code, markers stripped) and RepModel, the executable
// model of "rep iN" (the loop leaves on arrival count+1 before any header
// code runs). The body runs N times and k ends at N; a header with side
// effects runs N+1 times, so its rep count is N+1 (N = 255 is rejected: rep
// counts at most 255), and a uniform N with such a header gets the 255 cap.
func TestSM3RepTripCounts(t *testing.T) {
	t.Parallel()
	run := func(t *testing.T, m *ir.Module, mv int) []int32 {
		t.Helper()
		in := &interp.Input{Dispatch: [3]int{1, 1, 1}, Uniforms: map[string]any{"m": mv},
			Buffers: []interp.BufferInput{{Name: "Out", Count: 3}}}
		return passtest.OutI32(t, passtest.Run(t, m, in, interp.PolicyMaximal), "Out", 3)
	}
	for _, pipe := range []string{"sm3-lower", "out-of-ssa,sm3-lower"} {
		for _, tc := range []struct {
			n       int // < 0: the uniform m
			effects bool
			ms      []int // values of m tried (uniform loops)
			rep     string
		}{
			{n: 0, rep: "0"}, {n: 1, rep: "1"}, {n: 2, rep: "2"}, {n: 255, rep: "255"},
			{n: 0, effects: true, rep: "1"}, {n: 1, effects: true, rep: "2"}, {n: 2, effects: true, rep: "3"}, {n: 254, effects: true, rep: "255"},
			{n: -1, ms: []int{0, 1, 2, 255, 300}, rep: "%m"},
			{n: -1, effects: true, ms: []int{0, 1, 2, 254, 255, 300}, rep: "255"},
		} {
			name := fmt.Sprintf("%s/n=%d/effects=%v", pipe, tc.n, tc.effects)
			t.Run(name, func(t *testing.T) {
				orig := passtest.Parse(t, "trip", sm3TripSrc(tc.n, tc.effects))
				low := apply(t, pipe, orig)
				if got := strings.Join(sm3RepCounts(low.Func("main")), ","); got != tc.rep {
					t.Errorf("rep count %q, want %q", got, tc.rep)
				}
				model, err := RepModel(low)
				if err != nil {
					t.Fatalf("model: %v\n%s", err, low)
				}
				ms := tc.ms
				if tc.n >= 0 {
					ms = []int{0}
				}
				for _, mv := range ms {
					n := tc.n
					if n < 0 {
						n = mv
					}
					headers := int32(0)
					if tc.effects {
						headers = int32(n + 1)
					}
					exact := []int32{int32(n), headers, int32(n)}
					if got := run(t, orig, mv); !slices.Equal(got, exact) {
						t.Fatalf("m=%d: original computes %v, want %v", mv, got, exact)
					}
					// The 255 cap: a loop that needs its header 256 or more
					// times stops after 255 runs of header and body.
					want := exact
					if tc.rep == "255" && tc.n < 0 && n >= 255 {
						want = []int32{255, 255, 255}
					}
					if got := run(t, stripRepMarkers(low), mv); !slices.Equal(got, want) {
						t.Errorf("m=%d: sm3-lower output computes %v, want %v", mv, got, want)
					}
					if got := run(t, model, mv); !slices.Equal(got, want) {
						t.Errorf("m=%d: rep model computes %v, want %v\n%s", mv, got, want, model)
					}
				}
			})
		}
	}
	// A header with effects that must run 256 times cannot be a rep loop.
	m := passtest.Parse(t, "trip", sm3TripSrc(255, true))
	if _, err := Pass.Run(m, &passes.Context{}); err == nil || !strings.Contains(err.Error(), "must run 256 times") {
		t.Errorf("255 iterations with header effects: error %v, want a rejection", err)
	}
}
