package interp

import (
	"strings"
	"testing"

	"passlens/compiler/ir"
)

const specModule = `@N = global private u32 = 7 spec_id 2
@B = global private bool = true spec_id 6
@o = global storage [? x u32]
@i = global input u32 semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) wavesize(8) {
entry:
  %n = load ptr<private, u32> @N
  %b = load ptr<private, bool> @B
  %lane = intr u32 WaveGetLaneCount()
  %x = select bool %b, u32 %n, %lane
  %i = load ptr<input, u32> @i
  %p = access ptr<storage, [? x u32]> @o, u32 %i
  store u32 %x, ptr<storage, u32> %p
  ret
}
`

// TestSpecConstantsAndWaveSize: specialization constants keep their
// default unless the input overrides them by SpecId; an unknown SpecId or
// a value of the wrong kind is an input error; the entry's wave size is
// the default wave size.
func TestSpecConstantsAndWaveSize(t *testing.T) {
	m, err := ir.ParseModule("spec.pir", []byte(specModule))
	if err != nil {
		t.Fatal(err)
	}
	first := func(in *Input, opts Options) (uint64, int) {
		t.Helper()
		res, err := Run(m, in, opts)
		if err != nil {
			t.Fatal(err)
		}
		return res.Buffer("o").Cells[0], res.WaveSize
	}
	if v, w := first(&Input{}, Options{}); v != 7 || w != 8 {
		t.Errorf("defaults: %d at wave size %d, want 7 at 8", v, w)
	}
	if v, _ := first(&Input{SpecConstants: map[string]any{"2": 42}}, Options{}); v != 42 {
		t.Errorf("N overridden: %d, want 42", v)
	}
	if v, w := first(&Input{SpecConstants: map[string]any{"6": false}}, Options{WaveSize: 16}); v != 16 || w != 16 {
		t.Errorf("B false at wave size 16: %d, %d", v, w)
	}
	for _, tc := range []struct {
		sc   map[string]any
		want string
	}{
		{map[string]any{"3": 1}, "no specialization constant has SpecId 3"},
		{map[string]any{"2": "seven"}, "spec_constants[2]"},
	} {
		_, err := Run(m, &Input{SpecConstants: tc.sc}, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.sc, err, tc.want)
		}
	}
	in, err := ParseInput([]byte(`{"spec_constants": {"2": 5}}`))
	if err != nil || in.SpecConstants["2"] == nil {
		t.Fatalf("JSON spec_constants: %v %+v", err, in)
	}
}
