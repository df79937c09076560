package main

import (
	"bytes"
	"encoding/base64"
	"os/exec"
	"strings"
	"testing"

	"passlens/tui/serve"
)

// The compile worker is a hidden subcommand of the real binary: not in
// the help, it answers a request on stdin with a framed reply (a load
// error located in the module), and refuses bad arguments with status 64.
func TestHiddenCompileWorker(t *testing.T) {
	bin := binary(t)
	help, err := exec.Command(bin, "--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(help), serve.WorkerArg) {
		t.Errorf("--help lists %s", serve.WorkerArg)
	}
	req := func(text string) string {
		return `{"op":"load","name":"a.pir","path":"a.pir","kind":"pir","text":"` + base64.StdEncoding.EncodeToString([]byte(text)) + `"}`
	}
	for _, tc := range []struct{ text, want string }{
		{"define void @main() {\nentry:\n  ret\n}\n", "passlens-worker 1\n2 0\n{}"},
		{"define void @main() {\nentry:\n  ret void\n}\n", "a.pir:3:7: error: operand type cannot be void"},
	} {
		cmd := exec.Command(bin, serve.WorkerArg, "-mem", "1073741824", "-cpu", "10")
		cmd.Stdin = strings.NewReader(req(tc.text))
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %s", err, errb.String())
		}
		if !strings.HasPrefix(out.String(), "passlens-worker 1\n") || !strings.Contains(out.String(), tc.want) {
			t.Errorf("reply %q, want %q", out.String(), tc.want)
		}
	}
	err = exec.Command(bin, serve.WorkerArg, "extra").Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 64 {
		t.Errorf("bad arguments: %v, want exit status 64", err)
	}
}
