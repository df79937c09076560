package spvread_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/spvread"
	"passlens/compiler/target/spirv"
	"passlens/compiler/target/spirv/vkrun"
	"passlens/internal/testtool"
)

// glslCase is one GLSL compute shader of testdata/glsl: its workgroup
// count and the words of its buffers before the run (binding 0 holds
// data[i] = (7i+3) mod 29).
type glslCase struct {
	file   string
	groups int
	extra  []uint32 // binding 1's initial words, if the shader has it
}

var glslCases = []glslCase{
	{"loops.comp", 2, nil},
	{"switch.comp", 4, nil},
	{"shared.comp", 4, nil},
	{"atomics.comp", 2, []uint32{0, 0, 0xFFFFFFFF, 0, 0x7FFFFFFF, 0}},
	{"subgroup.comp", 2, nil},
	{"math.comp", 2, make([]uint32, 4*16)},
}

// TestGlslang compiles the GLSL compute shaders of testdata/glsl with
// glslangValidator (-V --target-env vulkan1.1), reads the binary and
// spirv-dis's text, checks that both read modules verify and print alike,
// and runs the read module in the interpreter at lavapipe's subgroup size:
// every buffer word equals what lavapipe computes running glslang's
// SPIR-V.
func TestGlslang(t *testing.T) {
	glslang := testtool.Require(t, "glslangValidator", "glslang-tools")
	testtool.Require(t, "spirv-dis", "spirv-tools")
	info, derr := vkrun.DeviceInfo()
	for _, c := range glslCases {
		t.Run(c.file, func(t *testing.T) {
			spv := filepath.Join(t.TempDir(), c.file+".spv")
			if out, err := exec.Command(glslang, "-V", "--target-env", "vulkan1.1", filepath.Join("testdata/glsl", c.file), "-o", spv).CombinedOutput(); err != nil {
				t.Fatalf("glslangValidator: %v\n%s", err, out)
			}
			bin, err := os.ReadFile(spv)
			if err != nil {
				t.Fatal(err)
			}
			m, err := spvread.Read(c.file, bin)
			if err != nil {
				t.Fatalf("binary: %v", err)
			}
			if err := ir.Verify(m); err != nil {
				t.Fatalf("binary read does not verify: %v\n%s", err, m)
			}
			raw, err := spvread.Read(c.file, disassemble(t, bin, true))
			if err != nil {
				t.Fatalf("text: %v", err)
			}
			if a, b := m.String(), raw.String(); a != b {
				t.Fatalf("binary and --raw-id text read differently:\n%s\n----\n%s", a, b)
			}
			named, err := spvread.Read(c.file, disassemble(t, bin, false))
			if err != nil {
				t.Fatalf("text: %v", err)
			}
			if err := ir.Verify(named); err != nil {
				t.Fatalf("text read does not verify: %v\n%s", err, named)
			}
			for _, f := range m.Funcs {
				for _, b := range f.Blocks {
					for _, in := range b.Instrs {
						if spvread.IsOpaque(in) {
							t.Errorf("opaque operation %s: glslang's output should map completely", in.Intr.Name)
						}
					}
				}
			}
			if derr != nil {
				testtool.Unavailable(t, fmt.Sprintf("no Vulkan runner: %v", derr))
			}
			ep := m.EntryPoints()
			if len(ep) != 1 {
				t.Fatalf("%d entry points", len(ep))
			}
			n := c.groups * ep[0].Entry.NumThreads[0]
			data := make([]uint32, n)
			for i := range data {
				data[i] = uint32((7*i + 3) % 29)
			}
			words, err := spirv.Words(bin)
			if err != nil {
				t.Fatal(err)
			}
			job := vkrun.Job{SPIRV: words, Entry: "main", Groups: [3]int{c.groups, 1, 1},
				Buffers: []vkrun.Buffer{{Binding: 0, Data: le(data)}}}
			in := &interp.Input{Dispatch: [3]int{c.groups, 1, 1}}
			zero, one := 0, 1
			in.Buffers = append(in.Buffers, interp.BufferInput{Set: &zero, Binding: &zero, Data: anys(data)})
			if c.extra != nil {
				job.Buffers = append(job.Buffers, vkrun.Buffer{Binding: 1, Data: le(c.extra)})
				bi := interp.BufferInput{Set: &zero, Binding: &one, Data: anys(c.extra)}
				if c.file == "math.comp" {
					bi = interp.BufferInput{Set: &zero, Binding: &one, Count: n}
				}
				in.Buffers = append(in.Buffers, bi)
			}
			gpu, err := vkrun.Run(job)
			if errors.Is(err, vkrun.ErrUnavailable) {
				testtool.Unavailable(t, err.Error())
			}
			if err != nil {
				t.Fatalf("lavapipe: %v", err)
			}
			res, err := interp.Run(named, in, interp.Options{WaveSize: info.SubgroupSize})
			if err != nil {
				t.Fatalf("interp: %v\n%s", err, named)
			}
			for bi, b := range job.Buffers {
				var got *interp.Buffer
				for k := range res.Buffers {
					if res.Buffers[k].Binding == b.Binding {
						got = &res.Buffers[k]
					}
				}
				if got == nil {
					t.Fatalf("no interpreter buffer at binding %d", b.Binding)
				}
				want := gpu[bi]
				var diffs []string
				for w := 0; w < len(want)/4 && w < len(got.Cells); w++ {
					if g, x := uint32(got.Cells[w]), binary.LittleEndian.Uint32(want[4*w:]); g != x {
						diffs = append(diffs, fmt.Sprintf("word %d: interp %#x, lavapipe %#x", w, g, x))
					}
				}
				if len(diffs) > 0 {
					t.Errorf("binding %d differs in %d words, first: %s", b.Binding, len(diffs), strings.Join(diffs[:min(4, len(diffs))], "; "))
				}
			}
		})
	}
}

func le(ws []uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

func anys(ws []uint32) []any {
	out := make([]any, len(ws))
	for i, w := range ws {
		out[i] = w
	}
	return out
}
