package backend

import (
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// TestFormatQuads: a pixel run over two partly covered quads lists both,
// with their helper pixels marked [h] and the shaded ones unmarked, in
// the lanes pane's text; a compute run lists no quads.
func TestFormatQuads(t *testing.T) {
	m, err := ir.ParseModule("q.pir", []byte(`module "q"

@pos = global input <4 x f32> semantic "SV_Position"
@t0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %pos = load ptr<input, <4 x f32>> @pos
  store <4 x f32> %pos, ptr<output, <4 x f32>> @t0
  ret
}
`))
	if err != nil {
		t.Fatal(err)
	}
	in, err := interp.ParseInput([]byte(`{"pixels": [[1, 1], [2, 0]]}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(FormatLanes(r), "\n")
	for _, want := range []string{
		"quads: 2 (", "6 helper lanes [h]",
		"wave 0 lanes  0-3   (0,0)[h]     (1,0)[h]     /  (0,1)[h]     (1,1)",
		"wave 0 lanes  4-7   (2,0)        (3,0)[h]     /  (2,1)[h]     (3,1)[h]",
		"(wave 0 lane  3)  t0=",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if got := formatQuads(&interp.Result{Stage: ir.StageCompute, Lanes: r.Lanes}); got != nil {
		t.Errorf("compute run lists quads: %q", got)
	}
}
