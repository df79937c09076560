package tui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"passlens/compiler/load"
	"passlens/compiler/passdump"
	"passlens/internal/testtool"
	"passlens/themes"
	"passlens/tui"
	"passlens/tui/backend"
)

// TestLanesRunLLVMKernel opens an OpenCL kernel that clang-22 compiles for
// amdgcn at test time, loads an input with its argument buffers, and runs
// it in the lanes pane: the wave operations (ballot.i64) and the argument
// buffer with the positions that ballot and mbcnt compute must show.
func TestLanesRunLLVMKernel(t *testing.T) {
	testtool.Require(t, "clang-22", "clang-22")
	t.Setenv("HOME", t.TempDir())
	cl, in := compactKernel(t)
	ll := filepath.Join(filepath.Dir(cl), "compact.ll")
	clang(t, cl, "-S", "-emit-llvm", "-o", ll)
	checkLanes(t, func() tui.Driver {
		m, src, err := load.File(ll, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		drv := backend.New(src, m)
		if err := drv.SetInput(in); err != nil {
			t.Fatal(err)
		}
		return drv
	})
}

// TestLanesRunLLVMKernelPassLog does the same on the last step of clang's
// own -print-after-all log of the kernel (the explorer opens a log at its
// last step).
func TestLanesRunLLVMKernelPassLog(t *testing.T) {
	testtool.Require(t, "clang-22", "clang-22")
	t.Setenv("HOME", t.TempDir())
	cl, in := compactKernel(t)
	log := filepath.Join(filepath.Dir(cl), "compact.log")
	out := clang(t, cl, "-S", "-emit-llvm", "-o", os.DevNull, "-mllvm", "-print-after-all")
	if err := os.WriteFile(log, out, 0o644); err != nil {
		t.Fatal(err)
	}
	checkLanes(t, func() tui.Driver {
		l, err := passdump.Open(log)
		if err != nil {
			t.Fatal(err)
		}
		drv := backend.NewDumpDriver(l)
		if err := drv.SetInput(in); err != nil {
			t.Fatal(err)
		}
		return drv
	})
}

// compactKernel writes an OpenCL kernel that numbers the kept elements of
// each wave with ballot (i64) and mbcnt, and an input for it: in[i] is -1
// where i%3 == 1, 1 elsewhere.
func compactKernel(t *testing.T) (cl, input string) {
	t.Helper()
	dir := t.TempDir()
	cl = filepath.Join(dir, "compact.cl")
	if err := os.WriteFile(cl, []byte(`
__kernel void compact(__global const int *in, __global int *pos) {
  size_t i = get_global_id(0);
  int keep = in[i] > 0;
  ulong b = __builtin_amdgcn_ballot_w64(keep);
  uint p = __builtin_amdgcn_mbcnt_hi((uint)(b >> 32), __builtin_amdgcn_mbcnt_lo((uint)b, 0u));
  pos[i] = keep ? (int)p : -1;
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	var data []string
	for i := 0; i < 64; i++ {
		if i%3 == 1 {
			data = append(data, "-1")
		} else {
			data = append(data, "1")
		}
	}
	input = filepath.Join(dir, "in.json")
	if err := os.WriteFile(input, []byte(`{"workgroup_size": [64, 1, 1], "buffers": [{"arg": 0, "data": [`+strings.Join(data, ", ")+`]}, {"arg": 1, "count": 64}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return cl, input
}

// clang compiles cl for amdgcn (wave64 features, -O2) with extra
// arguments and returns its standard error.
func clang(t *testing.T, cl string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("clang-22", append([]string{"-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-nogpulib",
		"-mcpu=gfx1100", "-mwavefrontsize64", "-O2", cl}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("clang-22: %v\n%s", err, stderr.String())
	}
	return []byte(stderr.String())
}

// checkLanes opens the explorer on the driver, runs the lanes pane (5, r)
// and checks the wave operation and the positions ballot and mbcnt give.
// The run is background work: the screen is taken after a pause and
// retaken with a longer one while the pane has not shown the run yet, so a
// slow machine changes the run time, not the result.
func checkLanes(t *testing.T, newDriver func() tui.Driver) {
	t.Helper()
	var s string
	for pause := 500 * time.Millisecond; ; pause *= 2 {
		tm := teatest.NewTestModel(t, tui.New(newDriver(), tui.Options{Target: "spirv", Theme: themes.NoColorTheme()}),
			teatest.WithInitialTermSize(160, 48),
			teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
		waitScreen(t, tm, "compact")
		keys(tm, "5", "r")
		time.Sleep(pause)
		s = finalScreen(t, tm)
		if strings.Contains(s, "argument %1 (64 × i32)") && !strings.Contains(s, "(esc cancels)") {
			break
		}
		if pause > 30*time.Second {
			t.Fatalf("the lanes pane did not show the run after a %v pause:\n%s", pause, s)
		}
	}
	for _, want := range []string{
		"entry compact, wave size 32",
		"llvm.amdgcn.ballot.i64",
		"[  0] 0  -1  1  2  -1  3  4  -1",
		// Lane 0 of the second wave (thread 32, 32%3 == 2) is kept and
		// counts from 0 again.
		"[ 32] 0  1  -1  2  3  -1  4  5",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("lanes pane does not show %q:\n%s", want, s)
		}
	}
}

// TestLanesRunShownKernel opens a module with two kernels and no chosen
// entry point: the lanes pane runs the kernel the function filter shows.
func TestLanesRunShownKernel(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	ll := filepath.Join(t.TempDir(), "two.ll")
	if err := os.WriteFile(ll, []byte(`define amdgpu_kernel void @first(ptr addrspace(1) %out) {
entry:
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 1, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @second(ptr addrspace(1) %out) !reqd_work_group_size !0 {
entry:
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %b = call i32 @llvm.amdgcn.ballot.i32(i1 true)
  %v = add i32 %b, %x
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 %v, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ballot.i32(i1)
!0 = !{i32 4, i32 1, i32 1}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	var s string
	for pause := 500 * time.Millisecond; ; pause *= 2 {
		m, src, err := load.File(ll, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tm := teatest.NewTestModel(t, tui.New(backend.New(src, m), tui.Options{Target: "spirv", Theme: themes.NoColorTheme()}),
			teatest.WithInitialTermSize(160, 48),
			teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
		waitScreen(t, tm, "@second")
		keys(tm, "f")
		typeText(tm, "second")
		keys(tm, "enter", "5", "r")
		time.Sleep(pause)
		s = finalScreen(t, tm)
		if strings.Contains(s, "entry second") && !strings.Contains(s, "(esc cancels)") {
			break
		}
		if pause > 30*time.Second {
			t.Fatalf("the lanes pane did not run @second after a %v pause:\n%s", pause, s)
		}
	}
	// Four work-items (its !reqd_work_group_size), ballot 0b1111 = 15.
	if !strings.Contains(s, "argument %out (64 × i32)") || !strings.Contains(s, "[  0] 15  16  17  18  0  0  0  0") {
		t.Errorf("lanes pane:\n%s", s)
	}
}
