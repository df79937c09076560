package pipeline

import (
	"testing"

	"passlens/compiler/ir"
	"passlens/internal/guard"
)

// TestPanicWordingSameAtEveryEntryPoint injects panics into the entry
// points the pipeline guards (a pass, the verifier) and
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

}
