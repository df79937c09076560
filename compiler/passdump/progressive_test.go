package passdump

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"passlens/bench/dumpgen"
)

// The first part of a progressively opened log is a prefix of the whole
// log: the same steps with the same texts, cut at a banner; the whole log
// equals what Open indexes.
func TestOpenProgressive(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	// Two rounds of a small module: function, loop and module dumps.
	if err := dumpgen.Write(&buf, dumpgen.Options{Size: 1, Funcs: 6, FuncPass: 8, LoopPass: 2, ModPasses: 2}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "x.log")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	for _, firstPart := range []int64{1, 4096, int64(buf.Len()) / 3} {
		pr, err := OpenProgressive(p, firstPart)
		if err != nil {
			t.Fatal(err)
		}
		first := pr.First
		if first == nil {
			t.Fatalf("first part %d of a %d-byte log: none", firstPart, buf.Len())
		}
		if n := len(first.Steps); n == 0 || n >= len(whole.Steps) {
			t.Fatalf("first part %d: %d steps of %d", firstPart, n, len(whole.Steps))
		}
		if cut := first.Size(); cut < firstPart || !maybeBanner(buf.Bytes()[cut:]) || buf.Bytes()[cut-1] != '\n' {
			t.Errorf("first part %d cut at %d, not at a banner line", firstPart, cut)
		}
		for i := range first.Steps {
			a, b := first.Steps[i], whole.Steps[i]
			if a.Pass != b.Pass || a.Scope != b.Scope || a.Offset != b.Offset || a.Status != b.Status || a.Partial != b.Partial {
				t.Fatalf("step %d: first part %+v, whole %+v", i, a, b)
			}
			ta, _, err := first.Text(i)
			if err != nil {
				t.Fatal(err)
			}
			tb, _, _ := whole.Text(i)
			if ta != tb {
				t.Fatalf("step %d: the first part's text differs from the whole log's", i)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		full, err := pr.Wait(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if !pr.Done() || len(full.Steps) != len(whole.Steps) || full.Size() != whole.Size() {
			t.Fatalf("whole log: %d steps, want %d", len(full.Steps), len(whole.Steps))
		}
		last := len(full.Steps) - 1
		ta, _, _ := full.Text(last)
		tb, _, _ := whole.Text(last)
		if ta != tb {
			t.Fatal("the last step differs from Open's")
		}
		full.Close()
	}

	// A log no bigger than twice the first part is indexed whole.
	pr, err := OpenProgressive(p, int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if pr.First != nil {
		t.Error("a small log got a first part")
	}
	if l, err := pr.Wait(context.Background()); err != nil || len(l.Steps) != len(whole.Steps) {
		t.Fatalf("small log: %v", err)
	} else {
		l.Close()
	}
	// Not a log: the error comes from Wait.
	junk := filepath.Join(t.TempDir(), "junk.log")
	os.WriteFile(junk, bytes.Repeat([]byte("no banner here\n"), 1000), 0o644)
	pr, err = OpenProgressive(junk, 100)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pr.Wait(context.Background()); err == nil {
		t.Error("a file without banners indexed")
	}
}
