// Package termsafe makes untrusted text safe to print on a terminal: a
// source line, a file name or a message that carries bytes from a hostile
// input must be shown, never interpreted as an escape sequence.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every byte that could drive a terminal — C0
// controls other than tab and newline, DEL, C1 controls — and every
// invalid UTF-8 byte written as \xNN.
func Escape(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || IsControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n <= 1) || IsControl(r) {
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, "\\x%02x", c)
			}
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// IsControl reports the runes Escape escapes.
func IsControl(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n') || (r >= 0x7f && r < 0xa0)
}
