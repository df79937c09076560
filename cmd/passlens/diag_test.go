package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sourceAt returns the text of file at line:col (1-based) to the end of
// the line.
func sourceAt(t *testing.T, file string, line, col int) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ls := strings.Split(string(b), "\n")
	if line < 1 || line > len(ls) || col < 1 || col > len(ls[line-1])+1 {
		t.Fatalf("%s has no position %d:%d", file, line, col)
	}
	return ls[line-1][col-1:]
}

// A .pir module that parses but does not verify: every problem points at
// its instruction (file:line:col, the line and a caret), once.
func TestPIRVerifierErrorsLocated(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bad.pir")
	text := "define void @main() {\nentry:\n  %y = add u32 %z, 1\n  br %next\nnext:\n  %z = add u32 1, 2\n  %w = add u32 %y, %z\n  ret\n}\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run("compile", path)
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, stderr)
	}
	want := path + ":3:3: error: function @main, block %entry, %y = add: operand %z (defined in block %next) does not dominate this use\n" +
		"  %y = add u32 %z, 1\n" +
		"  ^\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
}

// Every problem of a module is located at its own line, and the file is
// named once per problem (analyze prints through the same path).
func TestPIRVerifierTwoProblems(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "two.pir")
	text := "define void @main() {\nentry:\n  %a = add u32 %b, 1\n  %b = add u32 1, 1\n  %c = add u32 %d, 1\n  %d = add u32 1, 1\n  ret\n}\n"
	os.WriteFile(path, []byte(text), 0o644)
	code, _, stderr := run("analyze", path)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	for _, l := range []string{path + ":3:3: error: ", path + ":5:3: error: "} {
		if strings.Count(stderr, l) != 1 {
			t.Errorf("want exactly one line starting %q in:\n%s", l, stderr)
		}
	}
	if strings.Count(stderr, path) != 2 {
		t.Errorf("the file is named %d times, want once per problem:\n%s", strings.Count(stderr, path), stderr)
	}
}

var locLineRE = regexp.MustCompile(`^(\S+):(\d+):(\d+): (.*)$`)

// Pass and back-end errors on HLSL input name the file with the position
// of the HLSL source, once per message, and the position is right.
func TestBackEndErrorsLocated(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args   []string
		file   string
		prefix string // after "file:L:C: "
		at     string // the source text at L:C starts with this
		lines  int
	}{
		{[]string{"compile", "--target", "sm3", "samples/nested-loops"}, "samples/nested-loops.hlsl", "sm3: compute shaders have no SM3 profile", "tid : SV_DispatchThreadID", 1},
		// With IR dumps the back end still runs; its failure is reported, located.
		{[]string{"compile", "--target", "sm3", "--print-after-all", "samples/nested-loops"}, "samples/nested-loops.hlsl", "sm3: compute shaders have no SM3 profile", "tid : SV_DispatchThreadID", 1},
		{[]string{"compile", "--target", "sm3", "--print-changed", "-o", "/dev/null", "samples/nested-loops"}, "samples/nested-loops.hlsl", "sm3: compute shaders have no SM3 profile", "tid : SV_DispatchThreadID", 1},
		{[]string{"compile", "--target", "sm3", "samples/wave-divergent"}, "samples/wave-divergent.hlsl", "sm3-lower: wave operation ", "Wave", 4},
		{[]string{"compile", "--target", "sm3", "--passes", "inline,sroa,simplify", "samples/add-mul"}, "samples/add-mul.hlsl", "sm3: sir: load of", "", 1},
	} {
		code, _, stderr := run(c.args...)
		if code != 1 {
			t.Errorf("%v: exit %d", c.args, code)
			continue
		}
		// A back end's message is followed by its source line and a caret
		// under the column (diag.Emit); a pass's message stands alone.
		var ls []string
		all := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
		for i := 0; i < len(all); i++ {
			ls = append(ls, all[i])
			if i+2 < len(all) && locLineRE.MatchString(all[i]) && !locLineRE.MatchString(all[i+1]) {
				m := locLineRE.FindStringSubmatch(all[i])
				col, _ := strconv.Atoi(m[3])
				if caret := all[i+2]; strings.TrimSpace(caret) != "^" || len(caret) != col {
					t.Errorf("%v: caret line %q under %q, want '^' at column %d", c.args, caret, all[i+1], col)
				}
				i += 2
			}
		}
		if len(ls) != c.lines {
			t.Errorf("%v: %d messages, want %d:\n%s", c.args, len(ls), c.lines, stderr)
		}
		for _, l := range ls {
			m := locLineRE.FindStringSubmatch(l)
			if m == nil || m[1] != c.file || !strings.HasPrefix(m[4], c.prefix) {
				t.Errorf("%v: line %q: want %s:L:C: %s...", c.args, l, c.file, c.prefix)
				continue
			}
			if strings.Contains(m[4], c.file) || strings.Count(l, "sm3-lower:") > 1 || strings.Contains(l, "failed: pass") {
				t.Errorf("%v: repeated prefix in %q", c.args, l)
			}
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			if at := sourceAt(t, filepath.Join("../..", c.file), line, col); !strings.HasPrefix(at, c.at) {
				t.Errorf("%v: %s:%d:%d is %q, want it to start with %q", c.args, c.file, line, col, at, c.at)
			}
		}
	}
}

// An interpreter error on HLSL input points at the HLSL line of the
// instruction, with the file named once.
func TestRunErrorLocated(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "spin.hlsl")
	os.WriteFile(path, []byte("[numthreads(1,1,1)]\nvoid main() {\n  uint x = 0;\n  while (true) { x = x + 1; }\n}\n"), 0o644)
	code, _, stderr := run("run", path)
	m := locLineRE.FindStringSubmatch(strings.TrimSpace(stderr))
	if code != 1 || m == nil || m[1] != path || !strings.HasPrefix(m[4], "interp: ") || strings.Contains(m[4], "(line ") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	if at := sourceAt(t, path, line, col); !strings.HasPrefix(at, "x") {
		t.Errorf("%d:%d is %q, want the loop body", line, col, at)
	}
}

// A back-end error met by replay's `print target` and `export` names the
// loaded module's file with the HLSL position (as the CLI's does), after
// the script's own position; the snapshot text the output comes from
// keeps no positions, so this checks they are not lost on the way.
func TestReplayBackEndErrorLocated(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mod := filepath.Join(dir, "cs.hlsl")
	os.WriteFile(mod, []byte("[numthreads(1,1,1)]\nvoid main(uint3 tid : SV_DispatchThreadID) { uint x = tid.x; }\n"), 0o644)
	_, _, cli := run("compile", "--target", "sm3", mod)
	for _, cmd := range []string{"print target", "export " + filepath.Join(dir, "out.txt")} {
		script := filepath.Join(dir, "s.txt")
		os.WriteFile(script, []byte("load cs.hlsl\ntarget sm3\n"+cmd+"\n"), 0o644)
		code, _, stderr := run("replay", script)
		first := strings.SplitN(stderr, "\n", 2)[0]
		want := script + ":3:1: error: " + mod + ":2:"
		if code != 1 || !strings.HasPrefix(first, want) || !strings.Contains(first, ": sm3: compute shaders have no SM3 profile") || strings.Count(first, "cs.hlsl") != 1 {
			t.Errorf("%s: exit %d, first line %q, want %q...sm3: compute shaders...", cmd, code, first, want)
			continue
		}
		// The same message the CLI prints for the module (its position is
		// checked against the source in TestBackEndErrorsLocated; the
		// source line and caret follow it on the next lines).
		if cliFirst := strings.SplitN(strings.TrimSpace(cli), "\n", 2)[0]; !strings.HasSuffix(cliFirst, strings.TrimPrefix(first, script+":3:1: error: ")) {
			t.Errorf("%s: %q, want the CLI's message %q", cmd, first, cli)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.txt")); err == nil {
		t.Errorf("export wrote a file although the back end failed")
	}
}

// `passlens run` on an LLVM kernel: arguments from the input, the
// work-group size from the flag, and an operation that cannot run (inline
// asm, imported as opaque) reported at its line and column in the .ll file.
func TestRunLLVMKernel(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ll := filepath.Join(dir, "k.ll")
	os.WriteFile(ll, []byte(`define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) {
entry:
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 true)
  %c = call i64 @llvm.ctpop.i64(i64 %b)
  %c32 = trunc i64 %c to i32
  %v = mul i32 %c32, %n
  %y = add i32 %v, %x
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 %y, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @asm(ptr addrspace(1) %out) {
entry:
  %a = call i32 asm sideeffect "v_mov_b32 $0, 1", "=v"()
  store i32 %a, ptr addrspace(1) %out
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i64 @llvm.ctpop.i64(i64)
`), 0o644)
	in := filepath.Join(dir, "in.json")
	os.WriteFile(in, []byte(`{"buffers": [{"arg": 0, "count": 4}], "args": {"n": 10}}`), 0o644)
	code, stdout, stderr := run("run", ll, "--entry", "k", "--input", in, "--workgroup-size", "4", "--wave", "4")
	if code != 0 || !strings.Contains(stdout, `"arg": 0`) || !strings.Contains(stdout, `"data": [40, 41, 42, 43]`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	code, _, stderr = run("run", ll, "--entry", "asm")
	m := locLineRE.FindStringSubmatch(strings.TrimSpace(stderr))
	if code != 1 || m == nil || m[1] != ll || !strings.Contains(m[4], "LLVM `asm`") || !strings.Contains(m[4], "not run") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	if at := sourceAt(t, ll, line, col); !strings.HasPrefix(at, "call i32 asm") {
		t.Errorf("%d:%d is %q, want the asm call", line, col, at)
	}
	if code, _, stderr := run("run", ll, "--workgroup-size", "2000"); code != 2 || !strings.Contains(stderr, "--workgroup-size 2000") {
		t.Errorf("bad --workgroup-size: exit %d, stderr %q", code, stderr)
	}
}
