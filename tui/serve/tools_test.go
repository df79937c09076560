package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"passlens/internal/testtool"
)

// toolModule is a small kernel whose -O2 pipeline changes it (a loop that
// instcombine and the loop passes rewrite).
const toolModule = `define i32 @sum(ptr %p, i32 %n) {
entry:
  %a = alloca i32
  store i32 0, ptr %a
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %q = getelementptr i32, ptr %p, i32 %i
  %v = load i32, ptr %q
  %s = load i32, ptr %a
  %t = add i32 %s, %v
  store i32 %t, ptr %a
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = load i32, ptr %a
  ret i32 %r
}
`

func toolServer(t *testing.T, tweak func(*Config), hook func(*Server)) *testServer {
	t.Helper()
	testtool.Require(t, "opt-22", "llvm-22")
	testtool.Require(t, "prlimit", "util-linux")
	ts := startServer(t, func(c *Config) {
		c.AllowTools = []string{"opt-22"}
		if tweak != nil {
			tweak(c)
		}
	}, hook)
	if err := os.WriteFile(filepath.Join(ts.dir, "k.ll"), []byte(toolModule), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ts.dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(ts.dir, "sub", "out.ll")); err != nil {
		t.Fatal(err)
	}
	return ts
}

// Everything a session may not do with an allowed tool is refused with a
// reason, before anything runs.
func TestToolCommandRefusals(t *testing.T) {
	ts := toolServer(t, nil, nil)
	ls := &liveSession{info: &sessionInfo{}}
	for _, c := range []struct{ line, want string }{
		{"clang-22 -O2 k.ll", "clang-22 is not allowed on this server"},
		{"bash -c id", "only opt-22 may run here"},
		{"llc-22 k.ll", "llc-22 is not allowed on this server (allowed: opt-22)"},
		{"/usr/bin/opt-22 k.ll", "is not allowed on this server"},
		{"opt-22 -load=/tmp/x.so k.ll", "option -load=/tmp/x.so is not allowed"},
		{"opt-22 --load-pass-plugin=/tmp/x.so k.ll", "is not allowed"},
		{"opt-22 -o /tmp/x k.ll", "option -o is not allowed"},
		{"opt-22 -passes=instcombine @args k.ll", "@args: no such module"},
		{"opt-22 -O2 /etc/passwd", "absolute paths are not allowed"},
		{"opt-22 -O2 ../k.ll", "'..' is not allowed"},
		{"opt-22 -O2 sub/out.ll", "resolves outside the modules directory"},
		{"opt-22 -O2 k.ll k.ll", "one module only"},
		{"opt-22 -O2", "name a module of the modules directory"},
		{"opt-22 -passes=../x k.ll", "is not allowed"},
		{"opt-22 -passes=dot-cfg k.ll", "passes that write files or start programs"},
		{"opt-22 -passes=function(view-cfg) k.ll", "passes that write files or start programs"},
	} {
		_, err := ts.srv.toolCommand(ls, c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v (want %q)", c.line, err, c.want)
		}
	}
	cmd, err := ts.srv.toolCommand(ls, "opt-22 -O2 -mtriple=amdgcn-- k.ll")
	if err != nil {
		t.Fatal(err)
	}
	argv := strings.Join(cmd.Argv, " ")
	if !strings.HasSuffix(argv, " -O2 -mtriple=amdgcn-- k.ll -o /dev/null") || !filepath.IsAbs(cmd.Argv[0]) {
		t.Errorf("argv %q", argv)
	}
	if cmd.Dir == "" || cmd.Dir == ts.dir {
		t.Errorf("the tool runs in %q, not a directory of its own", cmd.Dir)
	} else if got, err := os.ReadFile(filepath.Join(cmd.Dir, "k.ll")); err != nil || string(got) != toolModule {
		t.Errorf("the run directory lacks the module's copy: %v", err)
	}
	if strings.Join(cmd.Env, " ") != "PATH= HOME="+cmd.Dir+" TMPDIR="+cmd.Dir+" LC_ALL=C" {
		t.Errorf("env %q", cmd.Env)
	}
	ls.end()
	if _, err := os.Stat(cmd.Dir); !os.IsNotExist(err) {
		t.Errorf("the run directory outlived the session: %v", err)
	}
	if w := strings.Join(cmd.Wrapper, " "); !strings.Contains(w, "--as=") || !strings.Contains(w, "--cpu=30") || !strings.Contains(w, "--fsize=") || !strings.Contains(w, "nice -n 10") {
		t.Errorf("wrapper %q", w)
	}
	if _, err := New(Config{AllowTools: []string{"clang-22"}, AuthorizedKeysPath: "x"}); err == nil || !strings.Contains(err.Error(), "cannot be served") {
		t.Errorf("--allow-tool clang-22: %v", err)
	}
	if _, err := New(Config{AllowTools: []string{"/usr/bin/opt-22"}, AuthorizedKeysPath: "x"}); err == nil || !strings.Contains(err.Error(), "not a path") {
		t.Errorf("--allow-tool /usr/bin/opt-22: %v", err)
	}
}

// A session runs an allowed tool on a module of the modules directory and
// steps through its pass log; a tool whose log passes the limit is stopped
// and its message shown; without --allow-tool nothing runs.
func TestAllowToolSession(t *testing.T) {
	ts := toolServer(t, nil, nil)
	tm := openTerm(t, ts.mustDial(t, "alice"), 160, 48, nil)
	tm.waitFor("t run a tool", wait)
	tm.send("t\x15opt-22 -passes=mem2reg,instcombine k.ll\r")
	tm.waitFor("InstCombinePass", 30*time.Second)
	tm.waitFor("PromotePass", wait)
	tm.send("q")
	tm.exit(wait)
	if !strings.Contains(ts.log.String(), "-o /dev/null") {
		t.Errorf("the server log lacks the tool command:\n%s", ts.log.String())
	}

	small := toolServer(t, nil, func(s *Server) { s.testToolLogLimit = 2048 })
	tm = openTerm(t, small.mustDial(t, "bob"), 160, 48, nil)
	tm.waitFor(PickerTitle, wait)
	tm.send("t\x15opt-22 -O2 k.ll\r")
	tm.waitFor("file size limit exceeded", 30*time.Second)

	none := startServer(t, nil, nil)
	tm = openTerm(t, none.mustDial(t, "carol"), 160, 48, nil)
	tm.waitFor(PickerTitle, wait)
	tm.send("t")
	tm.waitFor("this server runs no external tools", wait)
}
