package pipeline

import (
	"errors"
	"testing"

	"passlens/compiler/ir"
	"passlens/internal/guard"
)

// TestPanicWordingSameAtEveryEntryPoint injects panics into three entry
// points the pipeline guards (a pass, the verifier, an analysis) and
// checks that each reports guard's one wording, naming where it happened.
func TestPanicWordingSameAtEveryEntryPoint(t *testing.T) {
	m := parse(t, sample)

	// A pass.
	spec := MustParse("inline")
	spec.Steps = append(spec.Steps, Step{Name: "boom", Pass: boomPass("kaboom")})
	res := Run(t.Context(), m, spec, Options{})
	if res.Err == nil {
		t.Fatal("the panicking pass did not fail its step")
	}
	if got, want := res.Err.Error(), guard.Message("pass boom", "kaboom"); got != want {
		t.Errorf("pass: %q, want %q", got, want)
	}

	// The verifier.
	err := callVerify(func(*ir.Module) error { panic("verifier bug") }, m)
	if got, want := err, guard.Message("the verifier", "verifier bug"); got == nil || got.Error() != want {
		t.Errorf("verifier: %v, want %q", got, want)
	}

	// An analysis of a snapshot.
	res = Run(t.Context(), parse(t, sample), MustParse("inline"), Options{})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	_, err = res.Snapshots[1].Analysis("broken", "", func(*ir.Module, *ir.Function) (any, error) {
		panic(errors.New("analysis bug"))
	})
	var ge *guard.Error
	if !errors.As(err, &ge) || err.Error() != guard.Message("analysis broken", "analysis bug") {
		t.Errorf("analysis: %v", err)
	}
	if ge != nil && ge.Unwrap() == nil {
		t.Error("a panic with an error value does not unwrap to it")
	}
}
