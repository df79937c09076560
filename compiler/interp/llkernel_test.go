package interp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
	"passlens/compiler/pipeline"
	"passlens/internal/testtool"
)

// These tests run OpenCL C kernels that clang-22 compiles for amdgcn at
// test time (testdata/opencl/*.cl) in the interpreter, at wave sizes 32 and
// 64, and compare the buffers with two independent truths: a plain Go
// computation of the same kernel, and — for kernels without barriers or
// wave operations — the same source compiled for the host as C by clang-22
// with a small shim for the work-item functions (testdata/opencl/shim.h)
// and run work-item after work-item (differential execution).

// clKernel is one test kernel and its launch.
type clKernel struct {
	file   string // testdata/opencl/FILE.cl; the kernel has the same name
	name   string // the subtest's name, when not file
	flags  []string
	local  [3]int
	groups [3]int
	// bufs are the kernel's pointer arguments in order: i32 buffers with
	// initial data (n elements), or local memory (local true).
	bufs  []clBuf
	waves []int
	host  bool // also run on the host as C
	// ref computes the final buffers (by argument index) for a wave size.
	ref func(wave int, k *clKernel) map[int][]int32
}

type clBuf struct {
	arg   int
	data  []int32
	local bool
}

// testInput is the deterministic input of the tests: values in [-50, 50].
func testInput(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32((i*37+11)%101 - 50)
	}
	return out
}

func (k *clKernel) threads() int { return k.local[0] * k.local[1] * k.local[2] }

func compileCL(t *testing.T, path string, flags []string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(path)+".ll")
	args := append([]string{"-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-nogpulib", "-mcpu=gfx1100"}, flags...)
	args = append(args, "-O2", "-S", "-emit-llvm", path, "-o", out)
	if msg, err := exec.Command("clang-22", args...).CombinedOutput(); err != nil {
		t.Fatalf("clang-22 %s: %v\n%s", path, err, msg)
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func clKernels() []*clKernel {
	n := 256
	in := testInput(n)
	return []*clKernel{
		{file: "atomics", local: [3]int{64, 1, 1}, groups: [3]int{4, 1, 1}, host: true,
			bufs: []clBuf{{arg: 0, data: in}, {arg: 1, data: []int32{0, -1000, 1000, 0, 0}}},
			ref: func(_ int, k *clKernel) map[int][]int32 {
				acc := []int32{0, -1000, 1000, 0, 0}
				for _, v := range k.bufs[0].data {
					acc[0] += v
					acc[1] = max(acc[1], v)
					acc[2] = min(acc[2], v)
					if v&1 != 0 {
						acc[3]++
					}
					acc[4] ^= v
				}
				return map[int][]int32{1: acc}
			}},
		{file: "reduce", local: [3]int{64, 1, 1}, groups: [3]int{4, 1, 1},
			bufs: []clBuf{{arg: 0, data: in}, {arg: 1, data: []int32{0}}, {arg: 2, data: make([]int32, 4)}, {arg: 3, local: true}},
			ref: func(_ int, k *clKernel) map[int][]int32 {
				total, groups := int32(0), make([]int32, 4)
				for i, v := range k.bufs[0].data {
					groups[i/64] += v
					total += v
				}
				return map[int][]int32{1: {total}, 2: groups}
			}},
		{file: "compact64", flags: []string{"-mwavefrontsize64"}, local: [3]int{64, 1, 1}, groups: [3]int{4, 1, 1},
			bufs: []clBuf{{arg: 0, data: in}, {arg: 1, data: make([]int32, n)}, {arg: 2, data: make([]int32, n)}},
			ref:  func(w int, k *clKernel) map[int][]int32 { return compactRef(w, k.bufs[0].data, false) }},
		{file: "compact32", local: [3]int{64, 1, 1}, groups: [3]int{4, 1, 1}, waves: []int{32},
			bufs: []clBuf{{arg: 0, data: in}, {arg: 1, data: make([]int32, n)}, {arg: 2, data: make([]int32, n)}},
			ref:  func(w int, k *clKernel) map[int][]int32 { return compactRef(w, k.bufs[0].data, true) }},
		{file: "branchy", local: [3]int{64, 1, 1}, groups: [3]int{4, 1, 1}, host: true,
			bufs: []clBuf{{arg: 0, data: in}, {arg: 1, data: make([]int32, n)}},
			ref: func(_ int, k *clKernel) map[int][]int32 {
				out := make([]int32, n)
				for i, v := range k.bufs[0].data {
					out[i] = branchyRef(v)
				}
				return map[int][]int32{1: out}
			}},
		{file: "clmath", local: [3]int{64, 1, 1}, groups: [3]int{4, 1, 1}, host: true,
			bufs: []clBuf{{arg: 0, data: in}, {arg: 1, data: make([]int32, n)}},
			ref: func(_ int, k *clKernel) map[int][]int32 {
				out := make([]int32, n)
				for i, v := range k.bufs[0].data {
					out[i] = clmathRef(v)
				}
				return map[int][]int32{1: out}
			}},
		{file: "lanes", local: [3]int{64, 1, 1}, groups: [3]int{4, 1, 1},
			bufs: []clBuf{{arg: 0, data: in}, {arg: 1, data: make([]int32, n)}, {arg: 2, data: make([]int32, n)},
				{arg: 3, data: make([]int32, n)}, {arg: 4, data: make([]int32, n)}},
			ref: func(w int, k *clKernel) map[int][]int32 {
				in := k.bufs[0].data
				out := map[int][]int32{1: make([]int32, n), 2: make([]int32, n), 3: make([]int32, n), 4: make([]int32, n)}
				for i := range in {
					l := i % 64 % w
					base := i - l
					out[1][i] = in[base+(l^1)]
					out[2][i] = in[base+(l&^3)+3-(l&3)]
					out[3][i] = in[base+(min(l, 32)+5)&31]
					other := l
					if w == 64 {
						other = l ^ 32
					}
					out[4][i] = in[base+other]
				}
				return out
			}},
		{file: "wgfuncs", local: [3]int{64, 1, 1}, groups: [3]int{4, 1, 1},
			bufs: []clBuf{{arg: 0, data: in}, {arg: 1, data: make([]int32, 8*n)}},
			ref: func(_ int, k *clKernel) map[int][]int32 {
				in := k.bufs[0].data
				out := make([]int32, 8*n)
				for g := 0; g < n; g += 64 {
					var sum, mx, mn, inc int32 = 0, math.MinInt32, math.MaxInt32, 0
					anyBig, allAbove := int32(0), int32(1)
					for _, v := range in[g : g+64] {
						sum += v
						mx, mn = max(mx, v), min(mn, v)
						if v > 45 {
							anyBig = 1
						}
						if v <= -50 {
							allAbove = 0
						}
					}
					exc := int32(math.MinInt32)
					for j := g; j < g+64; j++ {
						inc += in[j]
						o := out[8*j : 8*j+8]
						o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7] = sum, mx, mn, inc, exc, in[g+5], anyBig, allAbove
						exc = max(exc, in[j])
					}
				}
				return map[int][]int32{1: out}
			}},
		{file: "grid2d", local: [3]int{8, 4, 1}, groups: [3]int{3, 2, 1}, host: true,
			bufs: []clBuf{{arg: 0, data: make([]int32, 24*8)}},
			ref:  func(_ int, k *clKernel) map[int][]int32 { return map[int][]int32{0: grid2dRef(k, false)} }},
		{file: "amd2d", local: [3]int{8, 4, 1}, groups: [3]int{3, 2, 1}, host: true,
			bufs: []clBuf{{arg: 0, data: make([]int32, 24*8)}},
			ref:  func(_ int, k *clKernel) map[int][]int32 { return map[int][]int32{0: grid2dRef(k, true)} }},
		// Code object v4: the work-group size comes from the dispatch
		// packet (offsets 4 and 6) instead of the hidden arguments.
		{file: "amd2d", name: "amd2d-cov4", flags: []string{"-mcode-object-version=4"}, local: [3]int{8, 4, 1}, groups: [3]int{3, 2, 1},
			bufs: []clBuf{{arg: 0, data: make([]int32, 24*8)}},
			ref:  func(_ int, k *clKernel) map[int][]int32 { return map[int][]int32{0: grid2dRef(k, true)} }},
	}
}

// compactRef is compact64/compact32 in Go: waves are runs of w work-items
// of a 64-item group (all active).
func compactRef(w int, in []int32, first bool) map[int][]int32 {
	pos, cnt := make([]int32, len(in)), make([]int32, len(in))
	for i, v := range in {
		base := i - i%64%w
		var below, all int32
		for j := base; j < base+w; j++ {
			if in[j] > 0 {
				all++
				if j < i {
					below++
				}
			}
		}
		pos[i] = -1
		if v > 0 {
			pos[i] = below
		}
		cnt[i] = all
		if first {
			cnt[i] = all*1000 + in[base]
		}
	}
	return map[int][]int32{1: pos, 2: cnt}
}

// branchyRef is branchy.cl in Go.
func branchyRef(v int32) int32 {
	if v < -40 {
		return -v * 3
	}
	acc := v
	if acc < 0 {
		acc = -acc
	}
	for k := int32(0); k < acc&15; k++ {
		if (k^v)&1 != 0 {
			continue
		}
		acc += k * 7
		if acc > 90 {
			break
		}
	}
	switch acc % 5 {
	case 0:
		acc += 7
	case 1:
		acc -= 3
		acc *= 2
	case 2:
		acc *= 2
	case 3:
		acc = min(acc, 100)
	default:
		acc = int32(bits.OnesCount32(uint32(v)) + bits.LeadingZeros32(uint32(v|1)))
	}
	m := max(acc, v)
	r := bits.RotateLeft32(uint32(m), 5)
	return int32(r ^ uint32(min(v, 50)))
}

// clmathRef is clmath.cl in Go.
func clmathRef(v int32) int32 {
	u := uint32(v) * 2654435761
	acc := uint32(min(max(v, -10), 10))
	acc += uint32(max(v, 3)) * 7
	acc += min(u, 1000)
	if v < 0 {
		acc += uint32(-v)
	} else {
		acc += uint32(v)
	}
	acc += uint32(bits.OnesCount32(u) + bits.LeadingZeros32(u>>(v&15)))
	acc ^= bits.RotateLeft32(u, 7)
	acc += uint32(uint64(u) * 3000000000 >> 32)
	acc += uint32(int32(int64(v) * 100000000 >> 32))
	acc += uint32(v*3 + 5)
	acc += uint32(int32(min(int64(v)+2147483600, 2147483647)))
	return int32(acc)
}

// grid2dRef is grid2d.cl (amd false) or amd2d.cl (amd true) in Go.
func grid2dRef(k *clKernel, amd bool) []int32 {
	gx, gy := k.local[0]*k.groups[0], k.local[1]*k.groups[1]
	out := make([]int32, gx*gy)
	for y := 0; y < gy; y++ {
		for x := 0; x < gx; x++ {
			if amd {
				out[y*gx+x] = int32(x*3 + y*1000 + gy*100000)
				continue
			}
			lin := (y%k.local[1])*k.local[0] + x%k.local[0]
			group := (y/k.local[1])*k.groups[0] + x/k.local[0]
			out[y*gx+x] = int32(x + 100*y + 10000*lin + 1000000*group + gy*100000000)
		}
	}
	return out
}

// input is the kernel's interpreter input.
func (k *clKernel) input() *Input {
	in := &Input{Dispatch: k.groups, WorkgroupSize: k.local}
	for _, b := range k.bufs {
		arg := b.arg
		bi := BufferInput{Arg: &arg}
		if b.local {
			bi.Count = k.threads()
		} else {
			bi.Type = "i32"
			for _, v := range b.data {
				bi.Data = append(bi.Data, int64(v))
			}
			bi.Count = len(b.data)
		}
		in.Buffers = append(in.Buffers, bi)
	}
	return in
}

// argBuffers returns the result's parameter buffers as i32 values.
func argBuffers(t *testing.T, r *Result) map[int][]int32 {
	t.Helper()
	out := map[int][]int32{}
	for _, b := range r.Buffers {
		if !b.IsArg {
			continue
		}
		if b.Elem != ir.I32 {
			t.Fatalf("argument %d buffer has element type %s, want i32", b.Arg, b.Elem)
		}
		vals := make([]int32, b.Count)
		for i := range vals {
			vals[i] = int32(b.Element(i)[0])
		}
		out[b.Arg] = vals
	}
	return out
}

func compareBuffers(t *testing.T, what string, got, want map[int][]int32) {
	t.Helper()
	for arg, w := range want {
		g, ok := got[arg]
		if !ok {
			t.Errorf("%s: no buffer for argument %d", what, arg)
			continue
		}
		if !slices.Equal(g, w) {
			for i := range w {
				if i >= len(g) || g[i] != w[i] {
					t.Errorf("%s: argument %d differs first at [%d]: got %v, want %v\ngot  %v\nwant %v", what, arg, i, g[min(i, len(g)-1)], w[i], g, w)
					break
				}
			}
		}
	}
}

func TestOpenCLKernelsRun(t *testing.T) {
	t.Parallel()
	testtool.Require(t, "clang-22", "clang-22")
	for _, k := range clKernels() {
		name := k.name
		if name == "" {
			name = k.file
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "opencl", k.file+".cl")
			src := compileCL(t, path, k.flags)
			m, err := llvm.Import(k.file+".ll", src)
			if err != nil {
				t.Fatal(err)
			}
			noteCoverage(m)
			waves := k.waves
			if waves == nil {
				waves = []int{32, 64}
			}
			var first map[int][]int32
			for _, w := range waves {
				for _, pol := range Policies() {
					r, err := Run(m, k.input(), Options{Entry: k.file, WaveSize: w, Policy: pol})
					if err != nil {
						t.Fatalf("wave %d %s: %v", w, pol, err)
					}
					got := argBuffers(t, r)
					compareBuffers(t, fmt.Sprintf("wave %d %s vs Go reference", w, pol), got, k.ref(w, k))
					if first == nil {
						first = got
					}
				}
			}
			// Every snapshot of the explorer's default (spirv) pipeline
			// keeps the kernel's results: the lanes pane runs them.
			sp, err := pipeline.Default("spirv")
			if err != nil {
				t.Fatal(err)
			}
			pm, err := llvm.Import(k.file+".ll", src)
			if err != nil {
				t.Fatal(err)
			}
			res := pipeline.Run(context.Background(), pm, sp, pipeline.Options{Target: "spirv", VerifyEach: true})
			if res.Err != nil {
				t.Fatalf("spirv pipeline: %v", res.Err)
			}
			for _, s := range res.Snapshots {
				sm, err := s.FreshModule()
				if err != nil {
					t.Fatalf("after %s: %v", s.Pass, err)
				}
				noteCoverage(sm)
				w := waves[0]
				r, err := Run(sm, k.input(), Options{Entry: k.file, WaveSize: w})
				if err != nil {
					t.Fatalf("after %s: wave %d: %v", s.Pass, w, err)
				}
				compareBuffers(t, fmt.Sprintf("after %s, wave %d vs Go reference", s.Pass, w), argBuffers(t, r), k.ref(w, k))
			}
			if k.host {
				host := runOnHost(t, k, path)
				compareBuffers(t, "host C run vs Go reference", host, k.ref(32, k))
				compareBuffers(t, "interpreter vs host C run", first, host)
			}
		})
	}
}

// runOnHost compiles the kernel as C for the host with the shim, runs
// every work-item in order (groups and local ids x fastest) and reads the
// final buffers back.
func runOnHost(t *testing.T, k *clKernel, path string) map[int][]int32 {
	t.Helper()
	dir := t.TempDir()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	var c strings.Builder
	c.WriteString("#include \"shim.h\"\n#include \"" + abs + "\"\n")
	var names []string
	for i, b := range k.bufs {
		vals := make([]string, len(b.data))
		for j, v := range b.data {
			vals[j] = strconv.Itoa(int(v))
		}
		fmt.Fprintf(&c, "static int b%d[%d] = {%s};\n", i, max(1, len(b.data)), strings.Join(vals, ", "))
		names = append(names, fmt.Sprintf("b%d", i))
	}
	c.WriteString("int main(void) {\n")
	for d := 0; d < 3; d++ {
		fmt.Fprintf(&c, "  shim_lsz[%d] = %d; shim_ngr[%d] = %d;\n", d, k.local[d], d, k.groups[d])
	}
	c.WriteString(`  for (size_t gz = 0; gz < shim_ngr[2]; gz++)
  for (size_t gy = 0; gy < shim_ngr[1]; gy++)
  for (size_t gx = 0; gx < shim_ngr[0]; gx++)
  for (size_t lz = 0; lz < shim_lsz[2]; lz++)
  for (size_t ly = 0; ly < shim_lsz[1]; ly++)
  for (size_t lx = 0; lx < shim_lsz[0]; lx++) {
    size_t g[3] = {gx, gy, gz}, l[3] = {lx, ly, lz};
    for (int d = 0; d < 3; d++) {
      shim_grp[d] = g[d]; shim_lid[d] = l[d]; shim_gid[d] = g[d] * shim_lsz[d] + l[d];
    }
`)
	fmt.Fprintf(&c, "    %s(%s);\n  }\n", k.file, strings.Join(names, ", "))
	for i, b := range k.bufs {
		fmt.Fprintf(&c, "  printf(\"%d\"); for (int i = 0; i < %d; i++) printf(\" %%d\", b%d[i]); printf(\"\\n\");\n", b.arg, len(b.data), i)
	}
	c.WriteString("  return 0;\n}\n")
	main := filepath.Join(dir, "main.c")
	if err := os.WriteFile(main, []byte(c.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "kernel")
	cmd := exec.Command("clang-22", "-x", "c", "-O2", "-fwrapv", "-w", "-I", filepath.Dir(abs), main, "-o", exe)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clang-22 (host): %v\n%s\n%s", err, msg, c.String())
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatalf("host run: %v", err)
	}
	res := map[int][]int32{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		arg, _ := strconv.Atoi(f[0])
		for _, s := range f[1:] {
			v, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("host output %q: %v", line, err)
			}
			res[arg] = append(res[arg], int32(v))
		}
	}
	return res
}

// TestLLVMKernelRefusals checks that what cannot run is reported as a
// located error naming the instruction, never a panic: an opaque operation
// (inline asm), a call of a function without a body, a bad argument key.
func TestLLVMKernelRefusals(t *testing.T) {
	t.Parallel()
	src := `define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %a = call i32 asm sideeffect "v_mov_b32 $0, $1", "=v,v"(i32 %x)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 %a, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @c(ptr addrspace(1) %out) {
entry:
  %v = call i32 @helper(i32 1)
  store i32 %v, ptr addrspace(1) %out
  ret void
}
define amdgpu_kernel void @d(ptr addrspace(1) %out) {
entry:
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %x, 4
  br i1 %c, label %t, label %e
t:
  %r = call i32 @_Z21work_group_reduce_addi(i32 %x)
  store i32 %r, ptr addrspace(1) %out
  br label %e
e:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @helper(i32)
declare i32 @_Z21work_group_reduce_addi(i32)
`
	m, err := llvm.Import("k.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	noteCoverage(m)
	for _, c := range []struct {
		entry string
		in    *Input
		err   error
		want  []string
	}{
		{"k", nil, ErrUnsupported, []string{"@k %entry", "llvm.opaque.asm", "LLVM `asm`", "not run", "lanes {0-31}"}},
		{"c", nil, ErrUnsupported, []string{"@c %entry", "call i32 @helper", "without a body"}},
		{"d", nil, ErrDivergentBarrier, []string{"@d %t", "work_group_reduce_addi", "lanes {0-3} of wave 0 reached the barrier but lanes {4-31}"}},
		{"c", &Input{Args: map[string]any{"n": 1}}, ErrInput, []string{`"n" names no scalar parameter of @c`}},
		{"c", &Input{Buffers: []BufferInput{{Name: "nothing"}}}, ErrInput, []string{`"nothing" matches no storage global and no pointer parameter`}},
	} {
		_, err := Run(m, c.in, Options{Entry: c.entry})
		if !errors.Is(err, c.err) {
			t.Fatalf("@%s: got %v, want %v", c.entry, err, c.err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("@%s: error %q does not say %q", c.entry, err, w)
			}
		}
		var ie *Error
		if c.err != ErrInput && (!errors.As(err, &ie) || ie.Loc.Line == 0) {
			t.Errorf("@%s: error is not located in the .ll file: %#v", c.entry, err)
		}
	}
}

// TestOpenCLCorpusRunsOrRefuses runs every kernel of the LLVM reader's
// OpenCL corpus (../llvm/testdata/opencl, clang-22 -O2 at test time) with
// the default input: each runs, or stops with an ErrUnsupported error
// located in its .ll file — never another error, never a panic. The count
// that runs is the figure docs/run.md gives.
func TestOpenCLCorpusRunsOrRefuses(t *testing.T) {
	t.Parallel()
	testtool.Require(t, "clang-22", "clang-22")
	files, err := filepath.Glob(filepath.Join("..", "llvm", "testdata", "opencl", "*.cl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	ran, refused := 0, 0
	for _, f := range files {
		src := compileCL(t, f, nil)
		m, err := llvm.Import(filepath.Base(f)+".ll", src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		noteCoverage(m)
		for _, e := range m.EntryPoints() {
			_, err := Run(m, nil, Options{Entry: e.Name()})
			var ie *Error
			switch {
			case err == nil:
				ran++
			case errors.Is(err, ErrUnsupported) && errors.As(err, &ie) && ie.Loc.Line > 0 && ie.Instr != "":
				refused++
				t.Logf("%s @%s: %v", filepath.Base(f), e.Name(), err)
			default:
				t.Errorf("%s @%s: %v", filepath.Base(f), e.Name(), err)
			}
		}
	}
	t.Logf("%d kernels run, %d refused with a located error", ran, refused)
	if ran < 40 {
		t.Errorf("%d kernels run, docs/run.md says 40", ran)
	}
}

// TestDispatchPacketFields loads every field of the dispatch packet and
// the hidden arguments that the interpreter fills, at the offsets of the
// HSA hsa_kernel_dispatch_packet_t and of the AMDGPU code object v5
// hidden arguments, with the widths clang and the device libraries load
// them with.
func TestDispatchPacketFields(t *testing.T) {
	t.Parallel()
	type field struct {
		implicit bool
		off      int
		width    int
	}
	fields := []field{
		{false, 2, 16}, {false, 4, 16}, {false, 6, 16}, {false, 8, 16}, {false, 12, 32}, {false, 16, 32}, {false, 20, 32},
		{true, 0, 32}, {true, 4, 32}, {true, 8, 32}, {true, 12, 16}, {true, 14, 16}, {true, 16, 16},
		{true, 18, 16}, {true, 40, 64}, {true, 48, 64}, {true, 64, 16},
	}
	var body strings.Builder
	for i, f := range fields {
		base := "%d"
		if f.implicit {
			base = "%ia"
		}
		fmt.Fprintf(&body, "  %%g%d = getelementptr i8, ptr addrspace(4) %s, i64 %d\n", i, base, f.off)
		fmt.Fprintf(&body, "  %%v%d = load i%d, ptr addrspace(4) %%g%d\n", i, f.width, i)
		if f.width != 64 {
			fmt.Fprintf(&body, "  %%w%d = zext i%d %%v%d to i64\n", i, f.width, i)
		} else {
			fmt.Fprintf(&body, "  %%w%d = add i64 %%v%d, 0\n", i, i)
		}
		fmt.Fprintf(&body, "  %%p%d = getelementptr i64, ptr addrspace(1) %%out, i32 %d\n", i, i)
		fmt.Fprintf(&body, "  store i64 %%w%d, ptr addrspace(1) %%p%d\n", i, i)
	}
	src := "define amdgpu_kernel void @k(ptr addrspace(1) %out) {\nentry:\n" +
		"  %d = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()\n  %ia = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()\n" +
		body.String() + "  ret void\n}\ndeclare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()\ndeclare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()\n"
	m, err := llvm.Import("packet.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	noteCoverage(m)
	arg := 0
	in := &Input{Dispatch: [3]int{3, 4, 1}, WorkgroupSize: [3]int{8, 2, 1}, Buffers: []BufferInput{{Arg: &arg, Count: len(fields)}}}
	r, err := Run(m, in, Options{WaveSize: 16})
	if err != nil {
		t.Fatal(err)
	}
	// setup = 2 dimensions; workgroup_size 8, 2, 1; grid_size 24, 8, 1;
	// block_count 3, 4, 1; group_size 8, 2, 1; remainder 0; global
	// offsets 0; grid_dims 2.
	want := []uint64{2, 8, 2, 1, 24, 8, 1, 3, 4, 1, 8, 2, 1, 0, 0, 0, 2}
	b := r.Buffers[len(r.Buffers)-1]
	if !b.IsArg || b.Count != len(want) {
		t.Fatalf("buffer %+v", b)
	}
	for i, w := range want {
		if got := b.Element(i)[0]; got != w {
			t.Errorf("field %+v: got %d, want %d", fields[i], got, w)
		}
	}
}

// TestStructByteOffsets runs structs.cl, whose fields of mixed widths
// clang addresses with byte offsets, against a Go computation.
func TestStructByteOffsets(t *testing.T) {
	t.Parallel()
	testtool.Require(t, "clang-22", "clang-22")
	src := compileCL(t, filepath.Join("testdata", "opencl", "structs.cl"), nil)
	m, err := llvm.Import("structs.ll", src)
	if err != nil {
		t.Fatal(err)
	}
	noteCoverage(m)
	const n = 64
	type rec struct {
		c int8
		i int32
		s int16
		f float32
	}
	in := make([]rec, n)
	var data []any
	for k := range in {
		in[k] = rec{int8(k%7 - 3), int32(k*3 - 50), int16(k*11 - 300), float32(k)*1.5 - 20}
		data = append(data, int64(in[k].c), int64(in[k].i), int64(in[k].s), float64(in[k].f))
	}
	a0, a1 := 0, 1
	input := &Input{WorkgroupSize: [3]int{n, 1, 1}, Buffers: []BufferInput{{Arg: &a0, Data: data}, {Arg: &a1, Count: n}}}
	for _, w := range []int{32, 64} {
		r, err := Run(m, input, Options{WaveSize: w})
		if err != nil {
			t.Fatal(err)
		}
		out := r.Buffers[len(r.Buffers)-1]
		if !out.IsArg || out.Arg != 1 || out.Count != n {
			t.Fatalf("output buffer %+v", out)
		}
		for k, x := range in {
			want := rec{x.c + 1, int32(x.c)*1000000 + x.i*100 + int32(x.s) + int32(x.f), x.s * 2, x.f * 0.5}
			e := out.Element(k)
			got := rec{int8(e[0]), int32(e[1]), int16(e[2]), math.Float32frombits(uint32(e[3]))}
			if got != want {
				t.Fatalf("wave %d: record %d: got %+v, want %+v", w, k, got, want)
			}
		}
	}
}

// TestFloatAtomics runs fatomics.cl (atomicrmw fadd, fmin, fmax and sub,
// imported as opaque operations named after the operation) against a Go
// computation.
func TestFloatAtomics(t *testing.T) {
	t.Parallel()
	testtool.Require(t, "clang-22", "clang-22")
	m, err := llvm.Import("fatomics.ll", compileCL(t, filepath.Join("testdata", "opencl", "fatomics.cl"), nil))
	if err != nil {
		t.Fatal(err)
	}
	noteCoverage(m)
	const n = 128
	var data []any
	sum, lo, hi := float32(0), float32(1000), float32(-1000)
	for i := 0; i < n; i++ {
		v := float32(int32(testInput(n)[i])) / 4
		data = append(data, float64(v))
		sum += v
		lo, hi = min(lo, v), max(hi, v)
	}
	a0, a1, a2 := 0, 1, 2
	in := &Input{WorkgroupSize: [3]int{64, 1, 1}, Dispatch: [3]int{2, 1, 1}, Buffers: []BufferInput{
		{Arg: &a0, Data: []any{0.0, 1000.0, -1000.0}}, {Arg: &a1, Type: "i32", Data: []any{10000}}, {Arg: &a2, Data: data}}}
	for _, w := range []int{32, 64} {
		r, err := Run(m, in, Options{WaveSize: w})
		if err != nil {
			t.Fatal(err)
		}
		got := map[int][]uint64{}
		for _, b := range r.Buffers {
			for i := 0; i < b.Count; i++ {
				got[b.Arg] = append(got[b.Arg], b.Element(i)[0])
			}
		}
		f := []float32{math.Float32frombits(uint32(got[0][0])), math.Float32frombits(uint32(got[0][1])), math.Float32frombits(uint32(got[0][2]))}
		if f[0] != sum || f[1] != lo || f[2] != hi {
			t.Errorf("wave %d: floats %v, want [%v %v %v]", w, f, sum, lo, hi)
		}
		if c := int32(got[1][0]); c != 10000-n*(n-1)/2 {
			t.Errorf("wave %d: counter %d, want %d", w, c, 10000-n*(n-1)/2)
		}
	}
}
