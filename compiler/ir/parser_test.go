package ir

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func readTestdata(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// specialF32 and specialF64 are bit patterns at the edges of the float
// formats (zeros, infinities, NaNs with payloads, denormals, extremes); the
// random module generator (ir/irtest) keeps the same list for its constants.
var specialF32 = []uint32{0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FC00001, 0xFFFFFFFF,
	0x00000001, 0x007FFFFF, 0x3F800000, 0x3DCCCCCD, 0x7F7FFFFF, 0x4B000000, 0x33800000}

var specialF64 = []uint64{0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
	0x7FF8000000000001, 1, 0x3FB999999999999A, 0x7FEFFFFFFFFFFFFF, 0x3FF0000000000000}

func mustParse(tb testing.TB, src string) *Module {
	tb.Helper()
	m, err := ParseModule("test.pir", []byte(src))
	if err != nil {
		tb.Fatalf("parse: %v\n%s", err, src)
	}
	return m
}

func printLocs(m *Module) string {
	var sb strings.Builder
	p := NewPrinter(&sb)
	p.Locs = true
	p.Module(m)
	return sb.String()
}

// roundTrip checks print -> parse -> print is the identity, with and without
// source locations, and that the parsed module verifies.
func roundTrip(t *testing.T, what string, m *Module) {
	t.Helper()
	for _, locs := range []bool{false, true} {
		text := m.String()
		if locs {
			text = printLocs(m)
		}
		m2, err := ParseModule(what, []byte(text))
		if err != nil {
			t.Fatalf("%s (locs=%v): printed module does not parse: %v", what, locs, err)
		}
		again := m2.String()
		if locs {
			again = printLocs(m2)
		}
		if again != text {
			t.Fatalf("%s (locs=%v): print/parse/print differs:\n%s", what, locs, firstDiff(text, again))
		}
		if err := Verify(m2); err != nil {
			t.Fatalf("%s: parsed module does not verify: %v", what, err)
		}
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n  want " + x + "\n  got  " + y
		}
	}
	return "(no difference)"
}

// TestRoundTripFiles: files under testdata/roundtrip are exactly what the
// printer writes, so parsing and printing must reproduce them byte for byte.
func TestRoundTripFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/roundtrip/*.pir")
	if len(files) == 0 {
		t.Fatal("no testdata/roundtrip files")
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseModule(file, src)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.String(); got != string(src) {
			t.Errorf("%s: printing the parsed module differs:\n%s", file, firstDiff(string(src), got))
		}
		if err := Verify(m); err != nil {
			t.Errorf("%s: %v", file, err)
		}
		roundTrip(t, file, m)
	}
}

// TestParseHandWritten reads a file with comments, free spacing, blocks
// out of dominance order, forward references of values, blocks, functions
// and struct types.
func TestParseHandWritten(t *testing.T) {
	m, err := ParseModule("comments.pir", readTestdata(t, "comments.pir"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(m); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, "comments.pir", m)
	if m.Name != "comments.pir" {
		t.Errorf("module name %q", m.Name)
	}
	if len(m.Structs) != 2 || m.Structs[0].Name != "Outer" || m.Structs[0].Fields[0].Type != m.Structs[1] {
		t.Errorf("structs not resolved in order: %v", m.Structs)
	}
	main := m.Func("main")
	if main.Entry == nil || main.Entry.Stage != StageCompute || main.Entry.NumThreads != [3]int{8, 8, 1} {
		t.Fatalf("entry point: %+v", main.Entry)
	}
	if got := []string{main.Blocks[0].Name(), main.Blocks[1].Name(), main.Blocks[2].Name(), main.Blocks[3].Name()}; strings.Join(got, ",") != "entry,exit,latch,header" {
		t.Errorf("block layout order %v", got)
	}
	call := main.Blocks[0].Instrs[0]
	if call.Op != OpCall || call.Callee != m.Func("f") {
		t.Errorf("call of a later function not resolved: %v", InstrString(call))
	}
	latch := main.Block("latch")
	header := main.Block("header")
	fadd := latch.Instrs[0]
	if fadd.Args[0] != header.Instrs[1] || fadd.Args[1] != call {
		t.Errorf("forward operand not resolved: %s", InstrString(fadd))
	}
	phi := header.Instrs[0]
	if phi.Incoming(latch) != latch.Instrs[1] {
		t.Errorf("phi forward reference not resolved: %s", InstrString(phi))
	}
	term := header.Terminator()
	if term.MergeKind != MergeLoop || term.Merge != main.Block("exit") || term.Continue != latch {
		t.Errorf("loop_merge not attached to the terminator: %+v", term)
	}
	store := main.Block("exit").Instrs[2]
	if store.Loc != (Loc{Line: 30, Col: 3}) {
		t.Errorf("!loc not read: %+v", store.Loc)
	}
	g := m.Global("g")
	if g.Init == nil || g.Init.Elem(0).Elem(1).Elem(1).Float() != 3 || g.Init.Elem(1).Int() != 7 {
		t.Errorf("nested constant: %s", g.Init.Literal())
	}
}

// TestParsePlacedFields: explicit member offsets (HLSL packoffset) are
// read, kept in any order, distinguish otherwise equal structs and print
// back as written.
func TestParsePlacedFields(t *testing.T) {
	src := "type %CB = { <4 x f32> foo offset 48, f32 offset offset 4, i32 loose }\ntype %Plain = { f32 offset }\n"
	m, err := ParseModule("placed.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(m); err != nil {
		t.Fatal(err)
	}
	cb := m.Structs[0]
	if f := cb.Fields[0]; !f.Placed || f.Offset != 48 {
		t.Errorf("foo: %+v", f)
	}
	if f := cb.Fields[1]; f.Name != "offset" || !f.Placed || f.Offset != 4 {
		t.Errorf("field named offset: %+v", f)
	}
	if f := m.Structs[1].Fields[0]; f.Name != "offset" || f.Placed {
		t.Errorf("unplaced field named offset: %+v", f)
	}
	if got := m.String(); got != src {
		t.Errorf("round trip:\n%s\nwant\n%s", got, src)
	}
	if f := cb.Fields[2]; f.Placed {
		t.Errorf("unplaced field beside placed ones: %+v", f)
	}
	moved := Struct("CB", []Field{{Name: "foo", Type: Vec(F32, 4), Placed: true, Offset: 32}, {Name: "offset", Type: F32, Placed: true, Offset: 4}, {Name: "loose", Type: I32}})
	if moved == cb {
		t.Error("structs differing only in offsets are the same type")
	}
}

// TestParseReservesNames: names read from text are reserved, so names the
// passes generate afterwards never collide with them.
func TestParseReservesNames(t *testing.T) {
	m := mustParse(t, `define i32 @f(i32 %x) {
t0:
  %x.1 = add i32 %x, 1
  %t1 = add i32 %x.1, 1
  ret i32 %t1
}
`)
	f := m.Func("f")
	// Calls in sequence: x.1 strips to the stem x, whose counter x.2 advanced.
	for _, c := range []struct{ base, want string }{
		{"x", "x.2"}, {"", "t2"}, {"t0", "t0.1"}, {"new", "new"}, {"x.1", "x.3"},
	} {
		if got := f.UniqueName(c.base); got != c.want {
			t.Errorf("UniqueName(%q) = %q, want %q", c.base, got, c.want)
		}
	}
	if f.ReserveName("t1") || f.ReserveName("t0") || f.ReserveName("x") {
		t.Error("names read from the text are not reserved")
	}
}

func TestParseFloatConstants(t *testing.T) {
	cases := []struct {
		lit  string
		bits uint32
	}{
		{"1.0", 0x3F800000}, {"-2.5", 0xC0200000}, {"0.1", 0x3DCCCCCD}, {"1e+10", 0x501502F9},
		{"1.5e-07", 0x34210FB0}, {"0x7FC00001", 0x7FC00001}, {"0x80000000", 0x80000000},
		{"0x7F800000", 0x7F800000}, {"3", 0x40400000}, {"1e-45", 1}, {"-0.0", 0x80000000},
	}
	for _, c := range cases {
		m := mustParse(t, "@g = global private f32 = "+c.lit+"\n")
		if got := uint32(m.Global("g").Init.Bits); got != c.bits {
			t.Errorf("%s: bits %#x, want %#x", c.lit, got, c.bits)
		}
	}
	// Every printed f32 parses back to its bits.
	for _, bits := range append(specialF32, 0x00000002, 0x7F7FFFFE, 0xBF000000, 0x4F000000) {
		s := FormatF32(bits)
		got, ok := parseFloatBits(F32, s)
		if !ok || uint32(got) != bits {
			t.Errorf("FormatF32(%#x) = %s parses to %#x, %v", bits, s, got, ok)
		}
	}
	for _, bits := range specialF64 {
		s := formatFloatBits(F64, bits)
		got, ok := parseFloatBits(F64, s)
		if !ok || got != bits {
			t.Errorf("f64 %#x = %s parses to %#x, %v", bits, s, got, ok)
		}
	}
	for _, bad := range []string{"inf", "nan", "0x1p3", "1.0.0", "0x123456789", "e5", "+", "1_0"} {
		if _, ok := parseFloatBits(F32, bad); ok {
			t.Errorf("%q accepted as an f32", bad)
		}
	}
	if v, ok := parseFloatBits(F32, "340282356779733661637539395458142568448"); ok {
		t.Errorf("overflowing decimal accepted: %#x", v)
	}
	if math.Float32frombits(0x3DCCCCCD) != 0.1 {
		t.Fatal("sanity")
	}
}

func TestParseIntegerConstants(t *testing.T) {
	ok := map[string]string{
		"i32": "-2147483648", "u32": "4294967295", "i8": "-128", "i16": "32767",
		"i64": "-9223372036854775808", "u64": "18446744073709551615", "bool": "true",
	}
	for ty, lit := range ok {
		m := mustParse(t, "@g = global private "+ty+" = "+lit+"\n")
		if got := m.Global("g").Init.Literal(); got != lit {
			t.Errorf("%s %s prints as %s", ty, lit, got)
		}
	}
	bad := map[string]string{"i32": "2147483648", "u32": "-1", "i8": "128", "u64": "18446744073709551616", "bool": "1"}
	for ty, lit := range bad {
		if _, err := ParseModule("x", []byte("@g = global private "+ty+" = "+lit+"\n")); err == nil {
			t.Errorf("%s %s accepted", ty, lit)
		}
	}
}

// TestParseErrors checks messages and positions (line:col of the offending
// token) for malformed input.
func TestParseErrors(t *testing.T) {
	const fn = "define void @f() {\nentry:\n"
	cases := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"modul \"x\"\n", 1, 1, "expected 'type', 'define', 'declare' or a global"},
		{"@g = global private f32 = 1.0\n@g = global private f32\n", 2, 1, "redefinition of global @g"},
		{"@g = global privat f32\n", 1, 13, "unknown address space 'privat'"},
		{"@g = global private <1 x f32>\n", 1, 21, "at least 2 components"},
		{"@g = global private %S\n", 1, 21, "undefined type %S"},
		{"type %A = { %B b }\ntype %B = { %A a }\n", 1, 6, "type %A contains itself"},
		{"type %A = { f32 x, i32 x }\n", 1, 24, "duplicate field name x"},
		{"type %A = { f32 x offset -4 }\n", 1, 26, "expected a byte offset"},
		{"@g = global private i32 = 1.5\n", 1, 27, "invalid i32 constant '1.5'"},
		{"@g = global private <2 x i32> = <1, 2, 3>\n", 1, 40, "too many elements"},
		{"@g = global private <2 x i32> = <1>\n", 1, 35, "needs 2 elements, found 1"},
		{"@g = global private f32 binding 1\n", 1, 34, "expected ','"},
		{"@g = global private f32 flat flat\n", 1, 30, "duplicate attribute 'flat'"},
		{"@g = global private f32 \"s\n", 1, 25, "unterminated string"},
		{"@g = global private f32 # x\n", 1, 25, "unexpected character '#'"},
		{"define void @f() {\n  ret\n}\n", 2, 3, "expected a block label"},
		{fn + "  %x = add i32 1, %y\n  ret\n}\n", 3, 19, "use of undefined value %y"},
		{fn + "  br %nowhere\n}\n", 3, 6, "use of undefined block %nowhere"},
		{fn + "  %x = add i32 1, 2\n  %x = add i32 1, 2\n  ret\n}\n", 4, 3, "name %x is already used"},
		{fn + "  %x = frobnicate i32 1\n}\n", 3, 8, "unknown instruction 'frobnicate'"},
		{fn + "  %x = add i32 1, 2 extra\n}\n", 3, 21, "expected end of line"},
		{fn + "  add i32 1, 2\n  ret\n}\n", 3, 3, "needs a result name"},
		{fn + "  %s = store i32 1, ptr<function, i32> undef\n  ret\n}\n", 3, 3, "produces no value and cannot be named"},
		{fn + "  %a = alloca i32\n  %l = load ptr<function, f32> %a\n  ret\n}\n", 4, 32, "%a has type ptr<function, i32>, not ptr<function, f32>"},
		{fn + "  %l = load ptr<function, f32> %a\n  %a = alloca i32\n  ret\n}\n", 3, 32, "%a is defined with type ptr<function, i32>, not ptr<function, f32>"},
		{fn + "  %x = icmp foo i32 1, 2\n  ret\n}\n", 3, 13, "unknown icmp predicate 'foo'"},
		{fn + "  %x = extractvalue <2 x f32> zero, 2\n  ret\n}\n", 3, 8, "invalid extractvalue path [2]"},
		{fn + "  %x = intr f32 frob(f32 1.0)\n  ret\n}\n", 3, 17, "unknown intrinsic 'frob'"},
		{fn + "  %x = call f32 @nope()\n  ret\n}\n", 3, 17, "call of undefined function @nope"},
		{fn + "  selection_merge %m\n  %x = add i32 1, 2\n  ret\n}\n", 4, 3, "must be followed by a terminator"},
		{fn + "  ret\n", 1, 18, "function body is not closed"},
		{fn + "  %p = access ptr<private, f32> @g, i32 0\n  ret\n}\n", 3, 33, "use of undefined global @g"},
		{fn + "  ret\n}\ndefine void @f() {\nentry:\n  ret\n}\n", 5, 13, "redefinition of function @f"},
		{"define void @f() compute {\nentry:\n  ret\n}\n", 1, 26, "expected 'numthreads'"},
		{fn + "  switch i32 0 [cas 1: %entry]\n}\n", 3, 17, "expected 'case' or 'default'"},
		{fn + "  %\"bad\\q\" = add i32 1, 2\n  ret\n}\n", 3, 3, "invalid quoted string"},
		{fn + "  %x = add i32 1, 2 !loc 1\n  ret\n}\n", 3, 27, "expected ':'"},
		{"@g = global private f32 = 1.0\n\xff\n", 2, 1, "non-ASCII"},
		// A lexical error later in the file does not hide an earlier error.
		{fn + "  %x = frob i32 1\n  # bad\n}\n", 3, 8, "unknown instruction 'frob'"},
		{"define void @f()\n", 1, 17, "expected '{', found end of line"},
		{"define void @f() {\nentry:\n  ret\n} x\n@g = global private f32\n", 4, 3, "expected end of line"},
		{"define void @f() {\nentry:\n  %x = load ptr<private, f32> @g\n  ret\n}\n@g = global private f32\n}\n", 7, 1, "expected 'type'"},
		{"define void @f() {\nentry:\n  %x = load ptr<private, f32> @g\n  ret\n}\n}\n@g = global private f32\n", 6, 1, "expected 'type'"},
	}
	for _, c := range cases {
		_, err := ParseModule("bad.pir", []byte(c.src))
		if err == nil {
			t.Errorf("no error for:\n%s", c.src)
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("error %T is not a *ParseError: %v", err, err)
			continue
		}
		if pe.File != "bad.pir" || pe.Line != c.line || pe.Col != c.col || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("got %s:%d:%d: %s\nwant %d:%d: ...%s...\nsource:\n%s", pe.File, pe.Line, pe.Col, pe.Msg, c.line, c.col, c.msg, c.src)
		}
	}
}

// TestParseErrorRendering checks the clang-style rendering: position, the
// source line and a caret under the column (tabs kept so it lines up).
func TestParseErrorRendering(t *testing.T) {
	src := "define void @f() {\nentry:\n\t%x = add i32 1, %y\n  ret\n}\n"
	_, err := ParseModule("dir/f.pir", []byte(src))
	want := "dir/f.pir:3:18: error: use of undefined value %y\n" +
		"\t%x = add i32 1, %y\n" +
		"\t                ^"
	if err == nil || err.Error() != want {
		t.Fatalf("got:\n%v\nwant:\n%s", err, want)
	}
	// An error at the end of a file without a final newline.
	_, err = ParseModule("", []byte("@g = global private"))
	want = "<input>:1:20: error: expected a type, found end of file\n" +
		"@g = global private\n" +
		"                   ^"
	if err == nil || err.Error() != want {
		t.Fatalf("got:\n%v\nwant:\n%s", err, want)
	}
}

// TestParseKeepsInvalidIR: the parser checks syntax, names and spelled
// types only, so printed IR that the verifier rejects can still be read
// back and diagnosed.
func TestParseKeepsInvalidIR(t *testing.T) {
	m := mustParse(t, `define void @f(f32 %a) {
entry:
  %x = add i32 1, %a
  %y = fadd f32 %z, 1.0
  %z = fadd f32 %a, 1.0
}
`)
	err := Verify(m)
	if err == nil {
		t.Fatal("verifier accepted invalid IR")
	}
	for _, want := range []string{"operand types differ: i32 and f32", "used before its definition", "does not end with a terminator"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	roundTrip2 := mustParse(t, m.String())
	if roundTrip2.String() != m.String() {
		t.Error("invalid IR does not round-trip")
	}
}

// TestParseSwitchForms covers every case-group spelling.
func TestParseSwitchForms(t *testing.T) {
	src := `define void @f(i32 %s) {
entry:
  switch i32 %s [case 1: %a] [case 2, 3, default: %b] [case -4: %a]
a:
  ret
b:
  ret
}
`
	m := mustParse(t, src)
	sw := m.Func("f").Blocks[0].Terminator()
	if len(sw.Cases) != 3 || !sw.Cases[1].Default || len(sw.Cases[1].Values) != 2 || sw.Cases[2].Values[0] != -4 {
		t.Fatalf("cases: %+v", sw.Cases)
	}
	succ := sw.Successors()
	if len(succ) != 5 || succ[0].Name() != "b" {
		t.Errorf("successors (default first, then one per value): %v", succ)
	}
	if m.String() != src {
		t.Errorf("switch does not round-trip:\n%s", m.String())
	}
	if err := Verify(m); err != nil {
		t.Error(err)
	}
}
