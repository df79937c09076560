package replay

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// FuzzReplay runs arbitrary scripts: no panic, no hang, errors located at
// a script line, nothing written (exports stay in memory).
func FuzzReplay(f *testing.F) {
	for _, s := range []string{
		"load samples/add-mul\nstep 2\nprint ir\nnext\ndiff prev\nlast\nprint target\n",
		"load samples/wave-switch-42\ntarget dxil\npasses inline,sroa\nfirst\nanalyze\nrun --wave 4\n",
		"load samples/divergent-loop\nfunction main\nexplain %x\ngoto sroa\nexport out.ll\n",
		"load samples/pixel\nrun --wave 8 --policy switch-separate\n",
		"# comment\n\nbogus command\n",
		"load /dev/zero\n",
		"step 99999999999999999999\n",
		"load samples/add-mul\npasses " + strings.Repeat("inline,", 100) + "\n",
		"load samples/add-mul\nprint \x1b[2J\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, script []byte) {
		if len(script) > 4096 {
			return
		}
		done := make(chan error, 1)
		go func() {
			e := NewEngine("fuzz.replay", &bytes.Buffer{})
			e.WriteFile = func(string, []byte) error { return nil }
			done <- e.Run("fuzz.replay", bytes.NewReader(script))
		}()
		select {
		case err := <-done:
			if err == nil {
				return
			}
			if _, ok := err.(*Error); !ok && !strings.Contains(err.Error(), "token too long") {
				t.Fatalf("error without a script line: %v", err)
			}
			if strings.ContainsAny(err.Error(), "\x1b\x00\x07") {
				t.Fatalf("control bytes in the error: %q", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("the script ran for more than 20 s:\n%s", script)
		}
	})
}
