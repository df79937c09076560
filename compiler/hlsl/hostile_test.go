package hlsl

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// renderSrc runs the frontend on src and returns the rendered diagnostics.
func renderSrc(src string) (string, Diagnostics) {
	prog, diags := Frontend("t.hlsl", []byte(src), Options{})
	var b strings.Builder
	_ = diags.Render(&b, prog.Sources)
	return b.String(), diags
}

const cs = "[numthreads(1,1,1)] void main() { b[0] = 1; }\n"

// register() operands are numbers of at most 32 bits, never wrapped or
// accepted with a sign; a bad class reports one error, not a follow-up
// "missing entry point".
func TestRegisterOperandsStrict(t *testing.T) {
	for reg, want := range map[string]string{
		"q0":                             "error: invalid register 'q0': expected b, t, u, s, c or i",
		"u-1":                            "error: invalid register 'u-1'",
		"u0, space":                      "error: invalid register space 'space'",
		"u0, space-5":                    "error: invalid register space 'space-5'",
		"u99999999999":                   "error: invalid register 'u99999999999': expected 'u' and a number from 0 to 4294967295",
		"u1, space99999999999":           "error: invalid register space 'space99999999999'",
		"u4294967296":                    "invalid register 'u4294967296'",
		"u\x1b[2J":                       `invalid register 'u\x1b[2J'`,
		"u4294967295, space4294967295  ": "",
	} {
		out, diags := renderSrc("RWStructuredBuffer<int> b : register(" + reg + ");\n" + cs)
		if want == "" {
			if diags.HasErrors() {
				t.Errorf("register(%s): %s", reg, out)
			}
			continue
		}
		if !strings.HasPrefix(out, "t.hlsl:1:") || !strings.Contains(out, want) || diags.Count(Error) != 1 {
			t.Errorf("register(%q): got\n%s\nwant one error containing %q", reg, out, want)
		}
		if strings.ContainsAny(out, "\x00\x1b") {
			t.Errorf("register(%q): raw control bytes in %q", reg, out)
		}
	}
}

func TestUnknownTypeName(t *testing.T) {
	out, _ := renderSrc("RWStructuredBuffer<float> b;\n[numthreads(1,1,1)] void main() { float5 x = 1; b[0] = 2; }\n")
	if !strings.Contains(out, "t.hlsl:2:35: error: unknown type name 'float5'") || strings.Contains(out, "undeclared identifier 'float5'") {
		t.Errorf("got\n%s", out)
	}
}

func TestStageHintNamesWhatToWrite(t *testing.T) {
	out, _ := renderSrc("RWStructuredBuffer<float> b;\nvoid main() { b[0] = 1; }\n")
	if !strings.Contains(out, "[numthreads(X, Y, Z)]") || strings.Contains(out, "stage option") {
		t.Errorf("got\n%s", out)
	}
}

// Control bytes from the source are shown escaped; a long line is shown as
// a window around the caret.
func TestDiagnosticsAreTerminalSafe(t *testing.T) {
	out, _ := renderSrc("RWStructuredBuffer<int> b;\n[numthreads(1,1,1)] void main() { b[0] = \x1b]0;pwned\x07 1; }\n")
	if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `\x1b]0;pwned\x07`) {
		t.Errorf("got %q", out)
	}
	long := "RWStructuredBuffer<int> b;\n[numthreads(1,1,1)] void main() { b[0] = " + strings.Repeat(" ", 400_000) + "x; }\n"
	out, _ = renderSrc(long)
	if len(out) > 2000 || !strings.Contains(out, "…") || !strings.Contains(out, "undeclared identifier 'x'") {
		t.Errorf("a 400 KB line renders as %d bytes:\n%.600s", len(out), out)
	}
	lines := strings.Split(out, "\n")
	col := func(line, sub string) int { return utf8.RuneCountInString(line[:strings.Index(line, sub)]) }
	if len(lines) < 3 || col(lines[2], "^") != col(lines[1], "x;") {
		t.Errorf("the caret is not under 'x':\n%s\n%s", lines[1], lines[2])
	}
	huge := "[numthreads(1,1,1)] void main() { int y = " + strings.Repeat("a", 1_000_000) + "; }\n"
	if out, _ = renderSrc(huge); len(out) > 4000 {
		t.Errorf("a message naming a 1 MB identifier renders as %d bytes", len(out))
	}
}

// A chain of operators longer than maxExprOps is refused at the operator
// past the bound, quickly and without deep recursion; a chain under it
// checks fine.
func TestOperatorChainBound(t *testing.T) {
	prefix := "RWStructuredBuffer<int> b;\n[numthreads(1,1,1)] void main() { b[0] = "
	out, diags := renderSrc(prefix + strings.Repeat("1+", 100_000) + "1; }\n")
	// b[0] is one postfix operator: the error is at the 16384th '+'.
	col := len("[numthreads(1,1,1)] void main() { b[0] = ") + 2*maxExprOps
	want := "t.hlsl:2:" + itoa(col) + ": error: expression too long: more than 16384 operators in one statement"
	if diags.Count(Error) != 1 || !strings.Contains(out, want) {
		t.Errorf("got %.400s\nwant %s", out, want)
	}
	if _, diags := renderSrc(prefix + strings.Repeat("1+", maxExprOps-1) + "1; }\n"); diags.HasErrors() {
		t.Errorf("a chain of %d operators: %v", maxExprOps, diags)
	}
	// The next statement starts a new count.
	two := prefix + strings.Repeat("1+", maxExprOps-1) + "1; b[1] = " + strings.Repeat("1+", maxExprOps-2) + "1; }\n"
	if _, diags := renderSrc(two); diags.HasErrors() {
		t.Errorf("two statements under the bound: %v", diags)
	}
}

func itoa(n int) string {
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// The parser keeps a window of tokens, not the whole file: parsing a
// file of many statements allocates far less than all its tokens.
func TestParserMemoryIsLinearAndSmall(t *testing.T) {
	src := []byte("RWStructuredBuffer<int> b;\n[numthreads(1,1,1)] void main() { int x = b[0]; " + strings.Repeat("x = x + 1; ", 50_000) + "b[1] = x; }\n")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	prog, diags := Parse("t.hlsl", src, Options{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// 350,000 tokens of 80 bytes would be 28 MB held at once; the AST of
	// 50,000 statements is what must stay.
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	total := after.TotalAlloc - before.TotalAlloc
	t.Logf("live %d MiB, allocated %d MiB", live>>20, total>>20)
	if live > 64<<20 || total > 96<<20 {
		t.Errorf("%d MiB live, %d MiB allocated by parsing 50,000 statements", live>>20, total>>20)
	}
	runtime.KeepAlive(prog)
}
