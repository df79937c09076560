package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"passlens/compiler/passes"
)

// timeRowRE matches one row of the --time-passes table.
var timeRowRE = regexp.MustCompile(`^\s+([0-9.]+)(ms|s)\s+([0-9.]+)%\s+(\S+)\s+(\d+)\s+([0-9.]+)\s+(.+)$`)

type parsedRow struct {
	wall, verify time.Duration
	allocs       int
}

func parseTimeRows(t *testing.T, stderr string) (map[string]parsedRow, []string) {
	t.Helper()
	rows := map[string]parsedRow{}
	var order []string
	dur := func(num, unit string) time.Duration {
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			t.Fatalf("bad time %q", num)
		}
		if unit == "ms" {
			return time.Duration(v * float64(time.Millisecond))
		}
		return time.Duration(v * float64(time.Second))
	}
	for _, line := range strings.Split(stderr, "\n") {
		m := timeRowRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		r := parsedRow{wall: dur(m[1], m[2])}
		if m[4] != "-" {
			u := "s"
			num := strings.TrimSuffix(m[4], "s")
			if strings.HasSuffix(num, "m") {
				u, num = "ms", strings.TrimSuffix(num, "m")
			}
			r.verify = dur(num, u)
		}
		r.allocs, _ = strconv.Atoi(m[5])
		rows[m[7]] = r
		order = append(order, m[7])
	}
	return rows, order
}

func TestCompileTimePasses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plain, timed := filepath.Join(dir, "plain.spv"), filepath.Join(dir, "timed.spv")
	var out, errb bytes.Buffer
	if code := runMain([]string{"compile", "--target", "spirv", "--emit", "bin", "-o", plain, "samples/switch-fallthrough"}, &out, &errb); code != 0 {
		t.Fatalf("compile: exit %d: %s", code, errb.String())
	}
	if errb.Len() != 0 {
		t.Fatalf("compile without --time-passes wrote to stderr: %q", errb.String())
	}
	errb.Reset()
	if code := runMain([]string{"compile", "--time-passes", "--target", "spirv", "--emit", "bin", "-o", timed, "samples/switch-fallthrough"}, &out, &errb); code != 0 {
		t.Fatalf("compile --time-passes: exit %d: %s", code, errb.String())
	}
	a, _ := os.ReadFile(plain)
	b, _ := os.ReadFile(timed)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("--time-passes changed the output (%d vs %d bytes)", len(a), len(b))
	}
	rows, order := parseTimeRows(t, errb.String())
	want := []string{"read", "frontend (hlsl)"}
	for i, p := range passes.DefaultPipelines["spirv"] {
		want = append(want, strconv.Itoa(i+1)+" "+p)
	}
	want = append(want, "snapshots, input verify", "emit (spirv)", "write output", "total")
	if strings.Join(order, "|") != strings.Join(want, "|") {
		t.Fatalf("rows:\n%s\nwant:\n%s\nstderr:\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"), errb.String())
	}
	var sum time.Duration
	allocs := 0
	for _, name := range order[:len(order)-1] {
		r := rows[name]
		sum += r.wall + r.verify
		allocs += r.allocs
		if strings.Contains(name, " ") && name[0] >= '1' && name[0] <= '9' && r.verify == 0 {
			t.Errorf("%s: no verifier time although --verify-each is on", name)
		}
	}
	total := rows["total"]
	// Rows are printed rounded to µs: the sum matches the total within that.
	if d := total.wall - sum; d < -time.Duration(len(order))*time.Microsecond || d > time.Duration(len(order))*time.Microsecond {
		t.Errorf("total %v, sum of rows %v", total.wall, sum)
	}
	if total.allocs != allocs || rows["frontend (hlsl)"].allocs == 0 || rows["1 inline"].allocs == 0 {
		t.Errorf("allocations: total %d, sum %d, frontend %d, inline %d", total.allocs, allocs, rows["frontend (hlsl)"].allocs, rows["1 inline"].allocs)
	}
}

// A failing compile still prints the phases that ran.
func TestCompileTimePassesOnError(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bad.hlsl")
	if err := os.WriteFile(path, []byte("[numthreads(1,1,1)]\nvoid main() { undeclared = 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runMain([]string{"compile", "--time-passes", "--target", "spirv", path}, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, errb.String())
	}
	rows, order := parseTimeRows(t, errb.String())
	if strings.Join(order, "|") != "read|frontend (hlsl)|total" {
		t.Fatalf("rows %q; stderr:\n%s", order, errb.String())
	}
	if !strings.Contains(errb.String(), "bad.hlsl:2:") || rows["frontend (hlsl)"].allocs == 0 {
		t.Fatalf("want the diagnostic with file:line and the frontend row; stderr:\n%s", errb.String())
	}
}
