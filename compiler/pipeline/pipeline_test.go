package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/passes"
	"passlens/compiler/target"
	"passlens/internal/guard"
)

const sample = `module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define u32 @inc(u32 %x) {
entry:
  %t = alloca u32
  store u32 %x, ptr<function, u32> %t
  %v = load ptr<function, u32> %t
  %r = add u32 %v, 1
  ret u32 %r
}

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %n = call u32 @inc(u32 %i)
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 %n, ptr<storage, u32> %p
  ret
}

define void @untouched() compute numthreads(1, 1, 1) {
entry:
  ret
}
`

func parse(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := ir.ParseModule("t.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParse(t *testing.T) {
	s, err := Parse(" inline , sroa,-simplify, simplify<x>")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got != "inline,sroa,-simplify,simplify<x>" {
		t.Errorf("String() = %q", got)
	}
	if got := strings.Join(s.Names(), ","); got != "inline,sroa,simplify" {
		t.Errorf("Names() = %q", got)
	}
	if s.Steps[3].Option != "x" || !s.Steps[2].Disabled || s.Steps[0].Pass != passes.Inline {
		t.Errorf("bad steps %+v", s.Steps)
	}
	back, err := Parse(s.String())
	if err != nil || back.String() != s.String() {
		t.Errorf("round trip: %v %v", back, err)
	}
	if s, err := Parse(""); err != nil || len(s.Steps) != 0 {
		t.Errorf("empty spec: %v %v", s, err)
	}
	for _, c := range []struct{ spec, want string }{
		{"inline,simplfy", "column 8: unknown pass 'simplfy' (did you mean 'simplify'?)"},
		{"inline,,sroa", "column 8: empty pass name"},
		{"simplify<x", "missing its closing '>'"},
		{"simplify x", "malformed step"},
	} {
		_, err := Parse(c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) error %v, want %q", c.spec, err, c.want)
		}
		var se *SpecError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q): want a *SpecError", c.spec)
		}
	}
}

func TestDefault(t *testing.T) {
	s, err := Default(target.DXIL)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got != strings.Join(passes.DefaultPipelines[target.DXIL], ",") {
		t.Errorf("dxil pipeline %q", got)
	}
	if _, err := Default("vulkan"); err == nil || !strings.Contains(err.Error(), "spirv, dxil, sm3") {
		t.Errorf("unknown target error: %v", err)
	}
}

func TestSpecEdits(t *testing.T) {
	s := MustParse("inline,sroa,simplify")
	d, err := s.WithDisabled(1, true)
	if err != nil || d.String() != "inline,-sroa,simplify" || s.String() != "inline,sroa,simplify" {
		t.Errorf("WithDisabled: %v %v (original %v)", d, err, s)
	}
	mv, err := s.WithMoved(2, 0)
	if err != nil || mv.String() != "simplify,inline,sroa" {
		t.Errorf("WithMoved: %v %v", mv, err)
	}
	ins, err := s.WithInserted(3, "scalarize")
	if err != nil || ins.String() != "inline,sroa,simplify,scalarize" {
		t.Errorf("WithInserted: %v %v", ins, err)
	}
	rm, err := s.WithRemoved(0)
	if err != nil || rm.String() != "sroa,simplify" {
		t.Errorf("WithRemoved: %v %v", rm, err)
	}
	if _, err := s.WithMoved(0, 7); err == nil {
		t.Error("moving out of range must fail")
	}
}

func TestSpecOrderRules(t *testing.T) {
	// Order rules are checked on enabled steps.
	if passes.Lookup("out-of-ssa") == nil {
		t.Skip("out-of-ssa is not registered yet")
	}
	if _, err := Parse("out-of-ssa,simplify"); err == nil || !strings.Contains(err.Error(), "must run before") {
		t.Errorf("want an ordering error, got %v", err)
	}
	if _, err := Parse("-out-of-ssa,simplify"); err != nil {
		t.Errorf("disabled steps are not ordered: %v", err)
	}
}

func TestRunSnapshots(t *testing.T) {
	m := parse(t, sample)
	spec := MustParse("inline,sroa,simplify,simplify")
	res := Run(context.Background(), m, spec, Options{VerifyEach: true, MeasureAllocs: true})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.Snapshots) != 5 {
		t.Fatalf("want 5 snapshots, got %d", len(res.Snapshots))
	}
	in := res.Snapshots[0]
	if in.Pass != "input" || in.Index != 0 || in.Changed {
		t.Errorf("input snapshot %+v", in)
	}
	if in.Text() != sample {
		t.Errorf("input text differs from the source:\n%s", in.Text())
	}
	if final := res.Final(); final.Text() != m.String() {
		t.Errorf("final snapshot text differs from the module")
	}
	for i, s := range res.Snapshots[1:] {
		if s.Index != i+1 || s.Pass != spec.Steps[i].Name {
			t.Errorf("snapshot %d: index %d pass %s", i+1, s.Index, s.Pass)
		}
		if s.Reported != s.Changed {
			t.Errorf("%s: reported %v, changed %v", s.Pass, s.Reported, s.Changed)
		}
	}
	inl := res.Snapshots[1]
	if !inl.Changed || strings.Join(inl.ChangedFuncs, ",") != "main,inc" {
		t.Errorf("inline changed %v %v", inl.Changed, inl.ChangedFuncs)
	}
	if inl.Allocs == 0 || inl.AllocBytes == 0 {
		t.Errorf("allocations not measured: %d objects, %d bytes", inl.Allocs, inl.AllocBytes)
	}
	// Unchanged parts are shared, not copied.
	if in.Func("untouched") != inl.Func("untouched") {
		t.Error("the unchanged function is not shared between snapshots")
	}
	if in.Header != inl.Header {
		t.Error("the unchanged header is not shared")
	}
	last, prev := res.Snapshots[4], res.Snapshots[3]
	if last.Changed || len(last.ChangedFuncs) != 0 {
		t.Errorf("second simplify changed: %v", last.ChangedFuncs)
	}
	for i := range last.Funcs {
		if last.Funcs[i] != prev.Funcs[i] {
			t.Errorf("function %s copied although unchanged", last.Funcs[i].Name)
		}
	}
	if n := last.Size(prev); n != 0 {
		t.Errorf("an unchanged snapshot holds %d new bytes", n)
	}
	// Snapshots are independent of later mutation of the module.
	before := res.Snapshots[2].Text()
	m.Funcs = nil
	if res.Snapshots[2].Text() != before {
		t.Error("snapshot changed when the module did")
	}
	// Lazily parsed IR matches the text.
	mod, err := res.Snapshots[2].Module()
	if err != nil || mod.String() != before {
		t.Errorf("Module(): %v", err)
	}
	if again, _ := res.Snapshots[2].Module(); again != mod {
		t.Error("Module() is not cached")
	}
}

func boomPass(msg string) *passes.Pass {
	return &passes.Pass{Name: "boom", Summary: "panics", Run: func(m *ir.Module, ctx *passes.Context) (bool, error) {
		m.Funcs[0].Blocks[0].Instrs = nil // leave the IR broken, then panic
		panic(msg)
	}}
}

func TestRunPanicIsAFailedStep(t *testing.T) {
	m := parse(t, sample)
	spec := MustParse("inline")
	spec.Steps = append(spec.Steps, Step{Name: "boom", Pass: boomPass("index out of range\nsecond line")}, MustParse("simplify").Steps[0])
	res := Run(context.Background(), m, spec, Options{VerifyEach: true})
	if res.Err == nil || res.Err.Kind != KindPanic || res.Err.Pass != "boom" || res.Err.Step != 1 {
		t.Fatalf("want a panic in step 1, got %+v", res.Err)
	}
	if got, want := res.Err.Error(), "internal error in pass boom: index out of range … (please report it)"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	var ge *guard.Error
	if !errors.As(res.Err, &ge) || ge.Value != "index out of range\nsecond line" {
		t.Errorf("the step error does not wrap the recovered panic: %#v", res.Err.Err)
	}
	if !strings.Contains(res.Err.Stack, "boomPass") {
		t.Error("the stack trace is not kept")
	}
	if len(res.Snapshots) != 3 || !res.Snapshots[2].Failed() {
		t.Fatalf("want input, inline and the failed step; got %d", len(res.Snapshots))
	}
	if res.LastGood() != res.Snapshots[1] {
		t.Error("LastGood should be the inline snapshot")
	}
	if _, err := res.Snapshots[1].Module(); err != nil {
		t.Errorf("earlier snapshots stay usable: %v", err)
	}
}

func TestRunVerifyFailure(t *testing.T) {
	m := parse(t, sample)
	breaker := &passes.Pass{Name: "breaker", Summary: "drops a terminator", Run: func(m *ir.Module, ctx *passes.Context) (bool, error) {
		f := m.Func("untouched")
		f.Blocks[0].Instrs = nil
		return true, nil
	}}
	spec := Spec{Steps: []Step{{Name: "breaker", Pass: breaker}}}
	res := Run(context.Background(), m, spec, Options{VerifyEach: true})
	if res.Err == nil || res.Err.Kind != KindVerify {
		t.Fatalf("want a verifier failure, got %+v", res.Err)
	}
	if !strings.HasPrefix(res.Err.Error(), "verifier failed after breaker: ") {
		t.Errorf("message %q", res.Err.Error())
	}
	if res.Final().Text() == "" || !res.Final().Changed {
		t.Error("the failed step's output should be shown")
	}
	// Without VerifyEach the step succeeds.
	m = parse(t, sample)
	if res := Run(context.Background(), m, spec, Options{}); res.Err != nil {
		t.Errorf("unexpected error %v", res.Err)
	}
}

func TestRunPassError(t *testing.T) {
	m := parse(t, `module "t"

define u32 @a(u32 %x) {
entry:
  %r = call u32 @a(u32 %x)
  ret u32 %r
}

define void @main() compute numthreads(1, 1, 1) {
entry:
  %r = call u32 @a(u32 1)
  ret
}
`)
	res := Run(context.Background(), m, MustParse("inline,simplify"), Options{VerifyEach: true})
	if res.Err == nil || res.Err.Kind != KindError || !strings.Contains(res.Err.Error(), "pass inline failed: recursive call chain") {
		t.Fatalf("got %v", res.Err)
	}
	if len(res.Snapshots) != 2 {
		t.Errorf("simplify must not run after a failure")
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Run(ctx, parse(t, sample), MustParse("inline,sroa"), Options{})
	if res.Err == nil || res.Err.Kind != KindCancelled || len(res.Snapshots) != 1 {
		t.Fatalf("got %+v, %d snapshots", res.Err, len(res.Snapshots))
	}
	if !errors.Is(res.Err, context.Canceled) {
		t.Error("the error should wrap context.Canceled")
	}
}

func TestRunDisabledStep(t *testing.T) {
	res := Run(context.Background(), parse(t, sample), MustParse("-inline,sroa"), Options{VerifyEach: true})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	s := res.Snapshots[1]
	if !s.Skipped || s.Changed || s.Funcs[0] != res.Snapshots[0].Funcs[0] {
		t.Errorf("disabled step: %+v", s)
	}
}

// A spec of more than MaxSteps steps is refused before anything runs.
func TestSpecStepLimit(t *testing.T) {
	if _, err := Parse(strings.TrimSuffix(strings.Repeat("simplify,", MaxSteps), ",")); err != nil {
		t.Fatalf("%d steps: %v", MaxSteps, err)
	}
	if _, err := Parse(strings.Repeat("simplify,", 500_000) + "simplify"); err == nil || !strings.Contains(err.Error(), "at most 256") {
		t.Fatalf("500001 steps: %v", err)
	}
	s, _ := Parse(strings.TrimSuffix(strings.Repeat("simplify,", MaxSteps), ","))
	if _, err := s.WithInserted(0, "simplify"); err == nil {
		t.Fatal("insert past MaxSteps accepted")
	}
}
