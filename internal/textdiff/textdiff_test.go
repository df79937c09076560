package textdiff

import (
	"fmt"
	"math/rand"
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
	var del, add int
	for i, r := range d.Rows {
		if r.Kind == Del {
			del = i
		}
		if r.Kind == Add && strings.Contains(r.Text, "fmul") {
			add = i
		}
	}
	if c := d.Changed(del); len(c) != 1 || d.Rows[del].Text[c[0].Start:c[0].End] != "add" {
		t.Errorf("intra-line del: %+v", c)
	}
	if c := d.Changed(add); len(c) != 1 || d.Rows[add].Text[c[0].Start:c[0].End] != "mul" {
		t.Errorf("intra-line add: %+v", c)
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

// TestScriptRebuildsBothSides checks, on random and large inputs, that the
// edit script's Same+Del lines are exactly a and Same+Add lines exactly b.
func TestScriptRebuildsBothSides(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 200; trial++ {
		n := rng.Intn(300)
		if trial%50 == 0 {
			n = 70000 // past go-diff's rune-encoding limit
		}
		var a, b []int
		for i := 0; i < n; i++ {
			a = append(a, rng.Intn(n/3+2))
		}
		for _, x := range a {
			switch rng.Intn(10) {
			case 0:
			case 1:
				b = append(b, x, rng.Intn(n+5))
			case 2:
				b = append(b, rng.Intn(n+5))
			default:
				b = append(b, x)
			}
		}
		var ra, rb []int
		for _, op := range diffLines(a, b) {
			if op.kind != Add {
				ra = append(ra, a[op.a])
			}
			if op.kind != Del {
				rb = append(rb, b[op.b])
			}
			if op.kind == Same && a[op.a] != b[op.b] {
				t.Fatalf("trial %d: Same pairs unequal lines", trial)
			}
		}
		if fmt.Sprint(ra) != fmt.Sprint(a) || fmt.Sprint(rb) != fmt.Sprint(b) {
			t.Fatalf("trial %d (n=%d): script does not rebuild the inputs", trial, n)
		}
	}
}
