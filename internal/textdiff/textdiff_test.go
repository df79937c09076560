package textdiff

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestHunksAndIntraLine(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n  %x = fadd f32 %a, %b\nk\n"
	b := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n  %x = fmul f32 %a, %b\nk\nnew\n"
	d := Compute(a, b)
	if d.Added != 2 || d.Removed != 1 {
		t.Fatalf("added %d removed %d", d.Added, d.Removed)
	}
	got := d.Unified()
	want := "@@ -8,5 +8,6 @@\n h\n i\n j\n-  %x = fadd f32 %a, %b\n+  %x = fmul f32 %a, %b\n k\n+new\n"
	if got != want {
		t.Fatalf("unified:\n%s\nwant:\n%s", got, want)
	}
	var del, add Row
	for _, r := range d.Rows {
		if r.Kind == Del {
			del = r
		}
		if r.Kind == Add && strings.Contains(r.Text, "fmul") {
			add = r
		}
	}
	if len(del.Changed) != 1 || del.Text[del.Changed[0].Start:del.Changed[0].End] != "add" {
		t.Errorf("intra-line del: %+v", del.Changed)
	}
	if len(add.Changed) != 1 || add.Text[add.Changed[0].Start:add.Changed[0].End] != "mul" {
		t.Errorf("intra-line add: %+v", add.Changed)
	}
}

// TestAgainstGNUDiff checks the change counts against diff(1) on random
// edits: the number of added and removed lines of a minimal diff.
func TestAgainstGNUDiff(t *testing.T) {
	diffBin, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("diff(1) not installed")
	}
	dir := t.TempDir()
	for seed := 0; seed < 20; seed++ {
		var a, b []string
		for i := 0; i < 200; i++ {
			line := fmt.Sprintf("line %d", (i*7+seed)%53)
			a = append(a, line)
			switch (i*31 + seed*17) % 11 {
			case 0: // delete
			case 1:
				b = append(b, line+" changed")
			case 2:
				b = append(b, line, "inserted "+line)
			default:
				b = append(b, line)
			}
		}
		as, bs := strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n"
		pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		os.WriteFile(pa, []byte(as), 0o644)
		os.WriteFile(pb, []byte(bs), 0o644)
		out, _ := exec.Command(diffBin, "-d", pa, pb).Output()
		wantAdd, wantDel := 0, 0
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(l, "> ") {
				wantAdd++
			} else if strings.HasPrefix(l, "< ") {
				wantDel++
			}
		}
		d := Compute(as, bs)
		if d.Added+d.Removed != wantAdd+wantDel {
			t.Errorf("seed %d: passlens +%d -%d, diff(1) +%d -%d", seed, d.Added, d.Removed, wantAdd, wantDel)
		}
	}
}
