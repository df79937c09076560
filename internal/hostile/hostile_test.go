package hostile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"passlens/compiler/interp"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all"
	"passlens/internal/limits"
	"passlens/internal/replay"
)

// The budget of docs: every input of at most 4 MiB is accepted or refused
// within 10 s and 1 GiB (here: the live heap, sampled).
const (
	budgetTime = 10 * time.Second
	budgetHeap = 1 << 30
)

// outcome is what a case must end in: ok (a verified result) or an error
// matching re.
type outcome struct {
	ok bool
	re string
}

func refused(re string) outcome { return outcome{re: re} }

var accepted = outcome{ok: true}

type hcase struct {
	name string
	want outcome
	run  func(dir string) error
}

// repeat builds a string of n copies of s joined by sep.
func repeat(s, sep string, n int) string {
	var b strings.Builder
	b.Grow(n * (len(s) + len(sep)))
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s)
	}
	return b.String()
}

// compute wraps a body in a compute shader with a buffer b.
func compute(body string) string {
	return "RWStructuredBuffer<int> b;\n[numthreads(1,1,1)] void main() {\n" + body + "\n}\n"
}

// compile loads src (written to dir/name) and runs the spirv pipeline
// with the verifier after every pass, then the back end.
func compile(dir, name, src string) error {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		return err
	}
	return compileFile(p)
}

func compileFile(p string) error {
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Size() > limits.MaxModuleSize+1<<20 {
		return fmt.Errorf("test input %s is over 4 MiB", p)
	}
	m, _, err := load.File(p, load.Options{})
	if err != nil {
		return err
	}
	spec, err := pipeline.Default("spirv")
	if err != nil {
		return err
	}
	res := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: "spirv", VerifyEach: true})
	if res.Err != nil {
		return res.Err
	}
	_, err = target.Emit("spirv", m)
	return err
}

// runShader runs src on the interpreter with the JSON input.
func runShader(dir, src, input string) error {
	p := filepath.Join(dir, "s.hlsl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		return err
	}
	m, _, err := load.File(p, load.Options{})
	if err != nil {
		return err
	}
	in, err := interp.ParseInputFile("in.json", []byte(input))
	if err != nil {
		return err
	}
	_, err = interp.Run(m, in, interp.Options{})
	return err
}

const pixelShader = "float4 main(float4 pos : SV_Position) : SV_Target { return pos * 2; }\n"
const vertexShader = "float4 main(float4 p : POSITION) : SV_Position { return p + 1; }\n"

// located matches "file:line:col" diagnostics of the test's files.
const located = `\.(hlsl|pir|ll|json|replay):\d+:\d+`

func cases() []hcase {
	longChain := func(n int) string { return compute("int x = b[0];\nb[1] = " + repeat("x", "+", n) + ";") }
	return []hcase{
		// Long operator chains and statement lists: refused over the bound,
		// compiled (verified after every pass) under it.
		{"hlsl 2M-term 1+1+...+1 (3.9 MiB)", refused(located + `: error: expression too long`), func(d string) error {
			return compile(d, "chain.hlsl", compute("b[0] = "+repeat("1", "+", 2_000_000)+";"))
		}},
		{"hlsl 10^4-term chain", accepted, func(d string) error { return compile(d, "chain.hlsl", longChain(10_000)) }},
		{"hlsl 1M-term comma chain", refused(located + `: error: expression too long`), func(d string) error {
			return compile(d, "comma.hlsl", compute("int x = 0; x = ("+repeat("x", ",", 1_000_000)+");"))
		}},
		{"hlsl 1M postfix ++", refused(located + `: error: expression too long`), func(d string) error {
			return compile(d, "post.hlsl", compute("int x = 0; x"+strings.Repeat("++", 1_000_000)+";"))
		}},
		{"hlsl 10^4 statements", accepted, func(d string) error {
			return compile(d, "stmts.hlsl", compute("int x = b[0]; "+strings.Repeat("x = x + 1; ", 10_000)+"b[1] = x;"))
		}},
		{"hlsl 10^4 ifs on one variable (alloca/store/load chain)", accepted, func(d string) error {
			var s strings.Builder
			s.WriteString("int x = b[0];\n")
			for i := 0; i < 10_000; i++ {
				fmt.Fprintf(&s, "if (x > %d) { x = x + %d; }\n", i, i%7)
			}
			s.WriteString("b[1] = x;")
			return compile(d, "ifs.hlsl", compute(s.String()))
		}},
		{"hlsl 100 functions chained with early returns (sroa past 64)", accepted, func(d string) error {
			return compile(d, "calls.hlsl", callChain(100))
		}},
		{"hlsl 10^4 functions chained", refused(`call chain .* more than 512 calls deep`), func(d string) error {
			return compile(d, "calls.hlsl", callChain(10_000))
		}},
		// Nesting.
		{"hlsl parens 10^6 deep", refused(located + `: error: .*nested too deeply`), func(d string) error {
			return compile(d, "parens.hlsl", compute("b[0] = "+strings.Repeat("(", 1_000_000)+"1"+strings.Repeat(")", 1_000_000)+";"))
		}},
		{"hlsl blocks 10^6 deep", refused(located + `: error: .*nested too deeply`), func(d string) error {
			return compile(d, "blocks.hlsl", compute(strings.Repeat("{", 1_000_000)+strings.Repeat("}", 1_000_000)))
		}},
		{"hlsl ifs 10^5 deep", refused(located + `: error: .*nested too deeply`), func(d string) error {
			return compile(d, "ifs.hlsl", compute(strings.Repeat("if (b[0] > 0) ", 100_000)+"b[1] = 1;"))
		}},
		{"hlsl template types 10^5 deep", refused(located + `: error: `), func(d string) error {
			return compile(d, "types.hlsl", "RWStructuredBuffer<"+strings.Repeat("vector<", 100_000)+"int"+strings.Repeat(">", 100_000)+"> b;\n[numthreads(1,1,1)] void main() {}\n")
		}},
		{"hlsl macros nested 10^4 deep", refused(located + `: error: `), func(d string) error {
			var s strings.Builder
			s.WriteString("#define M0 1\n")
			for i := 1; i < 10_000; i++ {
				fmt.Fprintf(&s, "#define M%d (M%d)\n", i, i-1)
			}
			return compile(d, "macros.hlsl", s.String()+compute("b[0] = M9999;"))
		}},
		{"hlsl exponential macro", refused(located + `: error: `), func(d string) error {
			var s strings.Builder
			s.WriteString("#define A0 1\n")
			for i := 1; i < 64; i++ {
				fmt.Fprintf(&s, "#define A%d A%d+A%d\n", i, i-1, i-1)
			}
			return compile(d, "bomb.hlsl", s.String()+compute("b[0] = A63;"))
		}},
		{"hlsl self-recursive macro", refused(located + `: error: `), func(d string) error {
			return compile(d, "rec.hlsl", "#define f(x) f(x) + g\n#define g f(1)\n"+compute("b[0] = f(2);"))
		}},
		// Unbounded reads.
		{"hlsl #include of itself", refused(located + `: error: #include nested too deeply`), func(d string) error {
			return compile(d, "self.hlsl", "#include \"self.hlsl\"\n"+compute(""))
		}},
		{"hlsl #include /dev/zero", refused(located + `: error: cannot include '/dev/zero': .*not a regular file`), func(d string) error {
			return compile(d, "z.hlsl", "#include \"/dev/zero\"\n"+compute(""))
		}},
		{"hlsl #include a FIFO", refused(located + `: error: cannot include 'fifo': .*FIFO`), func(d string) error {
			if err := syscall.Mkfifo(filepath.Join(d, "fifo"), 0o600); err != nil {
				return err
			}
			return compile(d, "f.hlsl", "#include \"fifo\"\n"+compute(""))
		}},
		{"hlsl #include a directory", refused(located + `: error: cannot include '.': .*directory`), func(d string) error {
			return compile(d, "dir.hlsl", "#include \".\"\n"+compute(""))
		}},
		{"compile /dev/zero", refused(`/dev/zero: not a regular file`), func(d string) error { return compileFile("/dev/zero") }},
		{"module of 4 MiB + 1 byte", refused(`too large .*the limit is 4194304`), func(d string) error {
			return compile(d, "big.hlsl", compute("")+strings.Repeat(" ", limits.MaxModuleSize))
		}},
		// Sizes, tokens and bytes.
		{"hlsl float a[100000000]", refused(located + `: error: `), func(d string) error {
			return compile(d, "arr.hlsl", compute("float a[100000000]; a[b[0]] = 1; b[1] = a[2];"))
		}},
		{"hlsl float a[1<<40] is refused (literals fold at 64 bits; beyond 32 bits the value is INT_MIN, docs/hlsl-rules.md lex.literal)", refused(located + `: error: array size must be positive`), func(d string) error {
			return compile(d, "arr.hlsl", compute("float a[1<<40]; a[b[0]] = 1; b[1] = a[2];"))
		}},
		{"hlsl 4 MiB identifier", refused(located + `: error: `), func(d string) error {
			return compile(d, "ident.hlsl", compute("b[0] = "+strings.Repeat("a", 4_000_000)+";"))
		}},
		{"hlsl NUL, invalid UTF-8 and ESC bytes", refused(located + `: error: `), func(d string) error {
			err := compile(d, "bytes.hlsl", compute("b[0] = 1;\x00 \xff\xfe \x1b]0;pwned\x07 \x1b[2J"))
			if err != nil && strings.ContainsAny(err.Error(), "\x00\x1b\x07") {
				return fmt.Errorf("control bytes reach the diagnostics: %q", err)
			}
			return err
		}},
		// The other frontends.
		{".pir types 10^5 deep", refused(located + `: error: type nested too deeply`), func(d string) error {
			return compile(d, "deep.pir", "module \"d\"\n@g = global private "+strings.Repeat("[1 x ", 100_000)+"u32"+strings.Repeat("]", 100_000)+"\n")
		}},
		{".ll types 10^5 deep", refused(located + `: type nested too deeply`), func(d string) error {
			return compile(d, "deep.ll", "@g = global "+strings.Repeat("[1 x ", 100_000)+"i32"+strings.Repeat("]", 100_000)+" zeroinitializer\ndefine void @f() {\nentry:\n  ret void\n}\n")
		}},
		// Interpreter input and limits.
		{"run: JSON nested 10^5 deep", refused(located + `: .*max depth`), func(d string) error {
			return runShader(d, compute("b[0] = 1;"), `{"uniforms":{"u":`+strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000)+"}}")
		}},
		{"run: JSON array of 2M elements", refused(`in.json: `), func(d string) error {
			return runShader(d, compute("b[0] = 1;"), `{"buffers":[{"name":"b","count":-1,"data":[`+repeat("0", ",", 2_000_000)+`]}]}`)
		}},
		{"run: dispatch [1,1,1,1]", refused(`in.json:1:2: dispatch has 4 sizes`), func(d string) error {
			return runShader(d, compute("b[0] = 1;"), `{"dispatch":[1,1,1,1]}`)
		}},
		{"run: dispatch 2^32", refused(`in.json: dispatch\[0\] = 4294967296`), func(d string) error {
			return runShader(d, compute("b[0] = 1;"), `{"dispatch":[4294967296,1,1]}`)
		}},
		{"run: dispatch 65535^3", refused(`more than the limit|memory limit`), func(d string) error {
			return runShader(d, compute("b[0] = 1;"), `{"dispatch":[65535,65535,65535]}`)
		}},
		{"run: rect 1024x1024", refused(`memory limit`), func(d string) error {
			return runShader(d, pixelShader, `{"rect":{"width":1024,"height":1024}}`)
		}},
		{"run: vertex_count 4e6", refused(`memory limit`), func(d string) error {
			return runShader(d, vertexShader, `{"vertex_count":4000000}`)
		}},
		{"run: infinite loop", refused(`step limit exceeded`), func(d string) error {
			return runShader(d, compute("int i = 0; while (b[0] == 0) { i++; } b[1] = i;"), `{}`)
		}},
		{"run: wave sizes 0, 3, 1<<20", refused(`wave size`), func(d string) error {
			m, _, err := load.File("samples/add-mul", load.Options{})
			if err != nil {
				return err
			}
			var errs []error
			for _, w := range []int{-1, 3, 1 << 20} {
				_, err := interp.Run(m, nil, interp.Options{WaveSize: w})
				if err == nil {
					return fmt.Errorf("wave size %d accepted", w)
				}
				errs = append(errs, err)
			}
			return errors.Join(errs...)
		}},
		// Replay scripts.
		{"replay: 4 MiB of junk", refused(located + `: error: `), func(d string) error {
			return replay.Run(filepath.Join(d, "x.replay"), bytes.NewReader(bytes.Repeat([]byte("\x1b[2J junk\n"), 400_000)), &bytes.Buffer{})
		}},
	}
}

// callChain is n functions, each calling the previous one behind an early
// return (a one-case switch per level after inline).
func callChain(n int) string {
	var s strings.Builder
	s.WriteString("RWStructuredBuffer<int> b;\nint f0(int x) { return x + 1; }\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&s, "int f%d(int x) { if (x > %d) return f%d(x) + 1; return x; }\n", i, i, i-1)
	}
	fmt.Fprintf(&s, "[numthreads(1,1,1)] void main() { b[0] = f%d(b[1]); }\n", n-1)
	return s.String()
}

// measure runs f, sampling the live heap, and returns the elapsed time,
// the peak heap and f's error.
func measure(f func() error) (elapsed time.Duration, peak uint64, err error) {
	runtime.GC()
	var max atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > max.Load() {
				max.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	t0 := time.Now()
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		err = f()
	}()
	elapsed = time.Since(t0)
	close(stop)
	<-done
	return elapsed, max.Load(), err
}

func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile inputs take about a minute")
	}
	prev := runtime.GOMAXPROCS(1) // the budget is for one core
	defer runtime.GOMAXPROCS(prev)
	for _, c := range cases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			elapsed, peak, err := measure(func() error { return c.run(dir) })
			t.Logf("%v, peak heap %d MiB", elapsed.Round(time.Millisecond), peak>>20)
			if elapsed > budgetTime {
				t.Errorf("took %v (budget %v)", elapsed, budgetTime)
			}
			if peak > budgetHeap {
				t.Errorf("peak heap %d MiB (budget %d MiB)", peak>>20, budgetHeap>>20)
			}
			switch {
			case c.want.ok && err != nil:
				t.Errorf("refused: %.600s", err)
			case !c.want.ok && err == nil:
				t.Errorf("accepted; want an error matching %q", c.want.re)
			case !c.want.ok && !regexp.MustCompile(c.want.re).MatchString(err.Error()):
				t.Errorf("error %.600q does not match %q", err.Error(), c.want.re)
			}
			if err != nil && strings.Contains(err.Error(), "goroutine ") {
				t.Errorf("a stack trace reaches the user: %.300s", err)
			}
			if err != nil && len(err.Error()) > 64<<10 {
				t.Errorf("the error is %d bytes long", len(err.Error()))
			}
		})
	}
}
