package ir

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// FuzzParse checks that no input makes the parser, the verifier, the
// cloner or the printer panic, that errors are *ParseError values with a
// position inside the input, and that whatever parses prints to text that
// parses back to the same text (with and without source locations). The
// seed corpus is testdata/fuzz/FuzzParse plus the files added here; it runs
// as an ordinary test.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"roundtrip/kitchen.pir", "comments.pir"} {
		f.Add(readTestdata(f, name))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		// Run the check with a deadline so a hang is reported (and its
		// input saved) instead of stalling the fuzzer.
		done := make(chan string, 1)
		go func() { done <- checkParse(src) }()
		select {
		case msg := <-done:
			if msg != "" {
				t.Fatal(msg)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer after 20s on input %q", src)
		}
	})
}

// checkParse is FuzzParse's property; it returns "" or what went wrong.
func checkParse(src []byte) string {
	m, err := ParseModule("fuzz.pir", src)
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			return fmt.Sprintf("error is %T, not *ParseError: %v", err, err)
		}
		if pe.Line < 1 || pe.Col < 1 || pe.Line > strings.Count(string(src), "\n")+1 {
			return fmt.Sprintf("error position %d:%d outside the input: %v", pe.Line, pe.Col, err)
		}
		_ = pe.Error()
		return ""
	}
	_ = Verify(m)
	c := CloneModule(m)
	out := m.String()
	if c.String() != out {
		return "clone prints differently"
	}
	m2, err := ParseModule("printed.pir", []byte(out))
	if err != nil {
		return fmt.Sprintf("printed module does not parse: %v\n%s", err, out)
	}
	if out2 := m2.String(); out2 != out {
		return fmt.Sprintf("print/parse/print is not the identity:\n%s\n---\n%s", out, out2)
	}
	var sb strings.Builder
	p := NewPrinter(&sb)
	p.Locs = true
	p.Module(m)
	m3, err := ParseModule("locs.pir", []byte(sb.String()))
	if err != nil {
		return fmt.Sprintf("printed module with locations does not parse: %v\n%s", err, sb.String())
	}
	var sb2 strings.Builder
	p2 := NewPrinter(&sb2)
	p2.Locs = true
	p2.Module(m3)
	if sb2.String() != sb.String() {
		return "print/parse/print with locations is not the identity"
	}
	return ""
}
