package sm3

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// hlslGen writes random SM3-compatible pixel shaders: float and int
// arithmetic kept within ±2^24 (values clamped), if/else, counted loops
// (constant counts, and an int uniform count that becomes rep i#), break,
// continue, early return, discard, a bool uniform condition, a local
// array read and written at loop-counter indices, dynamic indexing of a uniform array
// by a loop counter, and uniforms of scalar, vector, matrix and array
// types. Operations are exact on dyadic values or monotone (no division),
// so the interpreter and the emulator compute the same bits and take the
// same branches.
type hlslGen struct {
	r     *rand.Rand
	sb    strings.Builder
	depth int
	loops []string // enclosing loop counters
	arrOK []bool   // whether the counter is a valid index of arr (count <= 4)
	n     int
	vs    bool // vertex shader: no discard
}

func (g *hlslGen) line(format string, args ...any) {
	g.sb.WriteString(strings.Repeat("  ", g.depth+1))
	fmt.Fprintf(&g.sb, format, args...)
	g.sb.WriteByte('\n')
}

var fconsts = []string{"0.5", "1.0", "2.0", "-1.5", "0.25", "3.0", "-4.0"}

// atom is a float-valued leaf.
func (g *hlslGen) atom() string {
	opts := []string{"a", "b", "c", "u0", "u1", "v4.x", "v4.y", "v4.z", "v4.w", "uv.x", "uv.y", "(float)k",
		fconsts[g.r.IntN(len(fconsts))], "M[1].z", "M[2][0]", "N[0].y", "N[3][1]", "N[1].z"}
	if len(g.loops) > 0 {
		i := g.r.IntN(len(g.loops))
		opts = append(opts, "(float)"+g.loops[i])
		if g.arrOK[i] {
			opts = append(opts, "arr["+g.loops[i]+"]", "arr["+g.loops[i]+"]", "loc["+g.loops[i]+"]")
		}
	}
	return opts[g.r.IntN(len(opts))]
}

func (g *hlslGen) expr(d int) string {
	if d <= 0 || g.r.IntN(3) == 0 {
		return g.atom()
	}
	a, b := g.expr(d-1), g.expr(d-1)
	switch g.r.IntN(10) {
	case 0, 1:
		return "(" + a + " + " + b + ")"
	case 2:
		return "(" + a + " - " + b + ")"
	case 3:
		return "(" + a + " * " + b + ")"
	case 4:
		return "min(" + a + ", " + b + ")"
	case 5:
		return "max(" + a + ", " + b + ")"
	case 6:
		return "abs(" + a + ")"
	case 7:
		return "floor(" + a + ")"
	case 8:
		return "(" + g.cond(d-1) + " ? " + a + " : " + b + ")"
	}
	return "(" + a + " * 0.5)"
}

func (g *hlslGen) cond(d int) string {
	switch g.r.IntN(6) {
	case 0:
		return "flag"
	case 1:
		return fmt.Sprintf("k > %d", g.r.IntN(8))
	}
	ops := []string{"<", ">", "<=", ">=", "==", "!="}
	return g.expr(d) + " " + ops[g.r.IntN(len(ops))] + " " + g.expr(d)
}

func (g *hlslGen) stmts(n int) {
	for i := 0; i < n; i++ {
		g.stmt()
	}
}

func (g *hlslGen) stmt() {
	k := g.r.IntN(12)
	if g.depth >= 3 && k >= 6 {
		k = g.r.IntN(6)
	}
	v := []string{"a", "b", "c"}[g.r.IntN(3)]
	switch k {
	case 0, 1, 2, 3:
		if n := len(g.loops); n > 0 && g.arrOK[n-1] && g.r.IntN(3) == 0 {
			// A local array written at a run-time index.
			g.line("loc[%s] = clamp(%s, -64.0, 64.0);", g.loops[n-1], g.expr(1))
			break
		}
		g.line("%s = clamp(%s, -64.0, 64.0);", v, g.expr(2))
	case 4:
		inc := []string{"1", "2", "-1", "n"}
		if len(g.loops) > 0 {
			inc = append(inc, g.loops[len(g.loops)-1])
		}
		g.line("k = clamp(k + %s, -50, 50);", inc[g.r.IntN(len(inc))])
	case 5:
		if len(g.loops) > 0 && g.r.IntN(2) == 0 {
			g.line("if (%s) break;", g.cond(1))
		} else if len(g.loops) > 0 && g.r.IntN(2) == 0 {
			g.line("if (%s) continue;", g.cond(1))
		} else if !g.vs && g.r.IntN(2) == 0 {
			g.line("if (%s) return float4(c, a, b, 0.5);", g.cond(1))
		} else if !g.vs && g.r.IntN(3) == 0 {
			g.line("if (%s) discard;", g.cond(1))
		} else {
			g.line("%s = %s;", v, g.expr(1))
		}
	case 6, 7, 8:
		g.line("if (%s) {", g.cond(1))
		g.depth++
		g.stmts(1 + g.r.IntN(3))
		g.depth--
		if g.r.IntN(2) == 0 {
			g.line("} else {")
			g.depth++
			g.stmts(1 + g.r.IntN(2))
			g.depth--
		}
		g.line("}")
	default:
		g.n++
		iv := fmt.Sprintf("i%d", g.n)
		count, arrOK := "n", false
		if g.r.IntN(3) > 0 {
			c := 1 + g.r.IntN(5)
			count, arrOK = fmt.Sprint(c), c <= 4
		}
		g.line("for (int %s = 0; %s < %s; %s++) {", iv, iv, count, iv)
		g.depth++
		g.loops = append(g.loops, iv)
		g.arrOK = append(g.arrOK, arrOK)
		g.stmts(1 + g.r.IntN(3))
		g.loops = g.loops[:len(g.loops)-1]
		g.arrOK = g.arrOK[:len(g.arrOK)-1]
		g.depth--
		g.line("}")
	}
}

// features are constructs of the emitted assembly the random programs must
// exercise (each in at least 5 programs).
var features = map[string]*regexp.Regexp{
	"rep on a uniform i#":        regexp.MustCompile(`(?m)^//\s+n\s+i\d+\s+1$`),
	"rep on a defi count":        regexp.MustCompile(`defi i\d+, [1-5], `),
	"break_<cmp>":                regexp.MustCompile(`break_(lt|ge|gt|le|eq|ne) `),
	"if/else":                    regexp.MustCompile(`(?m)^\s+else$`),
	"texkill":                    regexp.MustCompile(`texkill `),
	"uniform array select chain": regexp.MustCompile(`cmp r\d+\.[xyzw], -r\d+\.z, c`),
	"uniform array c#[aL]":       regexp.MustCompile(`c\d+\[aL\]`),
	"matrix rows":                regexp.MustCompile(`(?m)^//\s+M\s+c\d+\s+[1-4]$`),
	"column_major 4x3":           regexp.MustCompile(`(?m)^//\s+N\s+c\d+\s+[1-3]$`),
	"if b# on a bool":            regexp.MustCompile(`(?m)^\s+if b\d+$`),
}

// randomPixelShader returns the HLSL of program seed.
func randomPixelShader(seed uint64) string {
	g := &hlslGen{r: rand.New(rand.NewPCG(seed, 0x53d3))}
	g.sb.WriteString(`float u0;
float u1;
float4 v4;
int n;
bool flag;
float arr[4];
row_major float4x4 M;
float4x3 N;

float4 main(float2 uv : TEXCOORD0) : SV_Target {
  float a = uv.x;
  float b = uv.y;
  float c = u0;
  int k = 0;
  float loc[4] = {a, b, c, u1};
`)
	g.stmts(3 + g.r.IntN(4))
	g.sb.WriteString("  return float4(a, b + loc[1], c + loc[3], (float)k);\n}\n")
	return g.sb.String()
}

// randomVertexShader returns the HLSL of vertex program seed: the same
// statements, with the position and a texture coordinate as outputs.
func randomVertexShader(seed uint64) string {
	g := &hlslGen{r: rand.New(rand.NewPCG(seed, 0x7e47)), vs: true}
	g.sb.WriteString(`float u0;
float u1;
float4 v4;
int n;
bool flag;
float arr[4];
row_major float4x4 M;
float4x3 N;
float4x4 C;
float3x3 D;

struct VOut {
  float4 pos : SV_Position;
  float2 tc : TEXCOORD0;
};

VOut main(float4 p : POSITION, float2 uv : TEXCOORD0) {
  float a = uv.x;
  float b = p.y;
  float c = u0;
  int k = 0;
  float loc[4] = {a, b, c, u1};
`)
	g.stmts(3 + g.r.IntN(4))
	g.sb.WriteString(`  VOut o;
  o.pos = mul(float4(a, b, c, 1.0), M) + mul(p, C);
  o.pos.xyz += mul(p.xyz, D);
  o.tc = float2((float)k + loc[2], p.w);
  return o;
}
`)
	return g.sb.String()
}

// TestRandomVertexPrograms does for 60 random vertex shaders what
// TestRandomPrograms does for pixel shaders; dynamic indexing here uses
// the address register (mova a0.x, c#[a0.x]).
func TestRandomVertexPrograms(t *testing.T) {
	t.Parallel()
	const programs, runsEach = 60, 3
	compiled, agreed, runs, mova, aL, dp := 0, 0, 0, 0, 0, 0
	for seed := uint64(1); seed <= programs; seed++ {
		src := randomVertexShader(seed)
		m, err := loadSource(fmt.Sprintf("vrand-%d.hlsl", seed), "hlsl", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: the generator wrote invalid HLSL: %v\n%s", seed, err, src)
		}
		asm, err := compileSM3(m)
		if err != nil {
			t.Errorf("seed %d: compile: %v\n%s", seed, firstLineOf(err.Error()), src)
			continue
		}
		compiled++
		if strings.Contains(asm, "mova a0.x") {
			mova++
		}
		if strings.Contains(asm, "[aL]") {
			aL++
		}
		if strings.Contains(asm, "dp4 ") && strings.Contains(asm, "dp3 ") {
			dp++
		}
		r := rand.New(rand.NewPCG(seed, 98))
		for i := 0; i < runsEach; i++ {
			ref, _ := loadSource("vrand.hlsl", "hlsl", []byte(src))
			c, err := prepare(ref, asm, r)
			if err != nil {
				t.Errorf("seed %d: %v", seed, err)
				break
			}
			runs++
			diff, err := runDiff(ref, asm, c)
			if err != nil || diff != "" {
				t.Errorf("seed %d run %d: %v%s\nuniforms %v\n%s\n%s", seed, i, err, diff, c.interpIn.Uniforms, src, asm)
				break
			}
			agreed++
		}
	}
	t.Logf("random vertex programs: %d/%d compiled (%d use mova, %d c#[aL], %d dp4 and dp3); %d/%d emulator runs agree with the interpreter", compiled, programs, mova, aL, dp, agreed, runs)
	if dp < programs/2 {
		t.Errorf("only %d vertex programs use dp4 and dp3 for their column-major products", dp)
	}
	if mova < 5 {
		t.Errorf("only %d vertex programs index a uniform array with mova", mova)
	}
}

// TestRandomPrograms compiles 150 random pixel shaders for SM3 and runs each
// with 3 random uniform/input sets on the emulator and the interpreter.
func TestRandomPrograms(t *testing.T) {
	t.Parallel()
	const programs, runsEach = 150, 3
	compiled, agreed, runs, killed := 0, 0, 0, 0
	seen := map[string]int{}
	var failures []string
	for seed := uint64(1); seed <= programs; seed++ {
		src := randomPixelShader(seed)
		m, err := loadSource(fmt.Sprintf("rand-%d.hlsl", seed), "hlsl", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: the generator wrote invalid HLSL: %v\n%s", seed, err, src)
		}
		asm, err := compileSM3(m)
		if err != nil {
			failures = append(failures, fmt.Sprintf("seed %d: compile: %v\n%s", seed, firstLineOf(err.Error()), src))
			continue
		}
		compiled++
		for name, re := range features {
			if re.MatchString(asm) {
				seen[name]++
			}
		}
		if strings.Contains(src, "loc[i") {
			seen["local array indexed (source)"]++
		}
		if strings.Contains(src, "continue;") {
			seen["continue (source)"]++
		}
		if strings.Contains(src, "return float4(c, a, b, 0.5)") {
			seen["early return (source)"]++
		}
		r := rand.New(rand.NewPCG(seed, 99))
		for i := 0; i < runsEach; i++ {
			ref, _ := loadSource("rand.hlsl", "hlsl", []byte(src))
			c, err := prepare(ref, asm, r)
			if err != nil {
				failures = append(failures, fmt.Sprintf("seed %d: %v", seed, err))
				break
			}
			runs++
			diff, err := runDiff(ref, asm, c)
			if err != nil || diff != "" {
				failures = append(failures, fmt.Sprintf("seed %d run %d: %v%s\nuniforms %v\n%s\n%s", seed, i, err, diff, c.interpIn.Uniforms, src, asm))
				break
			}
			agreed++
			if c.killed {
				killed++
			}
		}
	}
	t.Logf("random programs: %d/%d compiled; %d/%d emulator runs agree with the interpreter (%d discarded the pixel)", compiled, programs, agreed, runs, killed)
	t.Logf("programs using: %v", seen)
	for _, name := range append(slices.Collect(maps.Keys(features)), "continue (source)", "early return (source)", "local array indexed (source)") {
		if seen[name] < 5 {
			t.Errorf("only %d programs use %s: the generator no longer covers it", seen[name], name)
		}
	}
	for i, f := range failures {
		if i == 10 {
			t.Errorf("... and %d more failures", len(failures)-10)
			break
		}
		t.Error(f)
	}
}
