package termsafe

import "testing"

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain ünïcode\ttab\nnl": "plain ünïcode\ttab\nnl",
		"a\x1b[31mred":           `a\x1b[31mred`,
		"bell\x07 nul\x00":       `bell\x07 nul\x00`,
		"c1 \u009b x":            `c1 \xc2\x9b x`,
		"bad \xff utf8":          `bad \xff utf8`,
		"del\x7f":                `del\x7f`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
