// Package vkrun executes SPIR-V compute shaders, and fragment shaders in a
// one-triangle draw, on a real Vulkan driver (Mesa's lavapipe on CI) so
// tests can compare passlens's SPIR-V with the interpreter. It needs no cgo: a small C program (csrc/runner.c, embedded) is
// compiled with the system C compiler against libvulkan on first use and
// cached; each run writes a job file, runs the program and reads the
// buffers back.
package vkrun

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
)

//go:embed csrc/runner.c
var runnerSource []byte

// Buffer is one descriptor-bound buffer of a job, or a sampled image
// (Image) or sampler (Sampler) at that set and binding.
type Buffer struct {
	Set, Binding int
	// ArrayElement is the element of an arrayed descriptor (the binding
	// declares max ArrayElement + 1 descriptors of its buffers).
	ArrayElement int
	Uniform      bool   // a uniform buffer (else a storage buffer)
	Data         []byte // initial contents; the run returns the final ones
	Image        *Image
	Sampler      *Sampler
}

// Image is a sampled image, or with Storage a storage image (one level,
// read back after the run: the run returns its texels in Data's layout):
// Format is a VkFormat, TexelBytes its size, ViewType a VkImageViewType
// (1D/2D images of Layers layers; cube views need Layers a multiple of 6;
// a 3D view's Layers is its depth); Data holds level 0, 1, ... each with
// all its layers, rows of texels from the top-left.
//
// With Samples (2, 4, 8 …) the image is multisampled (Texture2DMS, one
// level: Levels is ignored; ViewType 2D or 2D_ARRAY; TexelBytes 4, 8 or
// 16) and Data holds sample 0 with all its layers, then sample 1, …: the
// runner writes it with a compute shader through a storage view, since
// buffer copies cannot fill a multisampled image (the device needs
// shaderStorageImageMultisample and shaderStorageImageWriteWithoutFormat).
type Image struct {
	Format, TexelBytes, Width, Height, Layers, Levels, ViewType uint32
	Data                                                        []byte
	Storage                                                     bool
	Samples                                                     uint32
}

// Sampler is a VkSampler's state: filters and mipmap mode (0 nearest, 1
// linear), address modes (VkSamplerAddressMode), comparison (CompareOp,
// a VkCompareOp, when Compare), border colour (VkBorderColor) and LOD
// range and bias.
type Sampler struct {
	Mag, Min, Mip              uint32
	Address                    [3]uint32
	Compare                    bool
	CompareOp, Border          uint32
	MinLOD, MaxLOD, MipLODBias float32
}

// encode is the job-file form of an image or sampler (csrc/runner.c).
func (b *Buffer) encode() (kind uint32, data []byte) {
	var w bytes.Buffer
	put := func(v any) { binary.Write(&w, binary.LittleEndian, v) }
	switch {
	case b.Image != nil:
		im := b.Image
		if im.Samples > 1 {
			put([]uint32{im.Format, im.TexelBytes, im.Width, im.Height, im.Layers, im.Samples, im.ViewType})
			w.Write(im.Data)
			return 5, w.Bytes()
		}
		put([]uint32{im.Format, im.TexelBytes, im.Width, im.Height, im.Layers, im.Levels, im.ViewType})
		w.Write(im.Data)
		if im.Storage {
			return 4, w.Bytes()
		}
		return 2, w.Bytes()
	case b.Sampler != nil:
		s := b.Sampler
		cmp := uint32(0)
		if s.Compare {
			cmp = 1
		}
		put([]uint32{s.Mag, s.Min, s.Mip, s.Address[0], s.Address[1], s.Address[2], cmp, s.CompareOp, s.Border})
		put([]float32{s.MinLOD, s.MaxLOD, s.MipLODBias})
		return 3, w.Bytes()
	case b.Uniform:
		return 1, b.Data
	}
	return 0, b.Data
}

// imageHeader is the size of an image's header words in the job file.
const imageHeader = 28

// Job is one compute dispatch, or a draw when Draw is set (SPIRV and Entry
// are then the fragment shader).
type Job struct {
	SPIRV   []uint32
	Entry   string
	Groups  [3]int
	Buffers []Buffer
	Draw    *Draw
}

// Draw is one triangle (vertices 0, 1, 2, no vertex buffers) drawn over a
// Width x Height viewport into R32G32B32A32 color attachments, one per
// entry of Targets (fragment outputs at Locations 0, 1, ...), cleared to
// zero; no culling (the triangle 0,0 / 2w,0 / 0,2h is front-facing), depth
// test, blending or multisampling. A vertex shader that maps SV_VertexID
// to a triangle covering the viewport shades every pixel once, at its
// centre.
type Draw struct {
	Vertex      []uint32 // vertex shader SPIR-V
	VertexEntry string
	Width       int
	Height      int
	Targets     []TargetKind
}

// TargetKind is a render target's format: R32G32B32A32 SFLOAT, SINT or
// UINT.
type TargetKind int

const (
	Float TargetKind = iota
	Int
	Uint
)

// Pixels is one render target read back: Width*Height RGBA pixels of
// 32-bit words (float bits or integers), row-major from the top-left.
type Pixels []uint32

// Info describes the device the runner uses.
type Info struct {
	Device       string
	SubgroupSize int
	API          string
	// NonUniformIndexing: the device indexes arrays of buffers and images
	// with indices that differ between lanes (descriptor indexing's
	// shader*ArrayNonUniformIndexing); ImageArrayIndexing: it indexes
	// arrays of sampled and storage images with a dynamically uniform
	// index (Vulkan 1.0's shader*ImageArrayDynamicIndexing);
	// RuntimeDescriptorArrays: runtimeDescriptorArray. Mesa 22.3's
	// lavapipe has none of them.
	NonUniformIndexing, ImageArrayIndexing, RuntimeDescriptorArrays bool
}

var (
	buildOnce sync.Once
	runnerBin string
	buildErr  error
)

// ErrUnavailable wraps every reason the runner cannot be used (no C
// compiler, no Vulkan headers or loader, no device).
var ErrUnavailable = errors.New("vkrun: Vulkan runner unavailable")

// runner compiles runner.c once per process (cached across processes by
// content hash in the user cache directory).
func runner() (string, error) {
	buildOnce.Do(func() {
		cc, err := exec.LookPath("gcc")
		if err != nil {
			if cc, err = exec.LookPath("cc"); err != nil {
				buildErr = fmt.Errorf("%w: no C compiler (gcc/cc)", ErrUnavailable)
				return
			}
		}
		sum := sha256.Sum256(runnerSource)
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		dir = filepath.Join(dir, "passlens-vkrun")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			buildErr = fmt.Errorf("%w: %v", ErrUnavailable, err)
			return
		}
		bin := filepath.Join(dir, "runner-"+hex.EncodeToString(sum[:8]))
		if _, err := os.Stat(bin); err == nil {
			runnerBin = bin
			return
		}
		src := bin + ".c"
		if err := os.WriteFile(src, runnerSource, 0o644); err != nil {
			buildErr = fmt.Errorf("%w: %v", ErrUnavailable, err)
			return
		}
		tmp := fmt.Sprintf("%s.%d.tmp", bin, os.Getpid())
		out, err := exec.Command(cc, "-O1", "-o", tmp, src, "-lvulkan").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("%w: compiling the runner (install libvulkan-dev): %v\n%s", ErrUnavailable, err, out)
			return
		}
		if err := os.Rename(tmp, bin); err != nil {
			buildErr = fmt.Errorf("%w: %v", ErrUnavailable, err)
			return
		}
		runnerBin = bin
	})
	return runnerBin, buildErr
}

var infoRE = regexp.MustCompile(`^device=(.*) subgroup=(\d+) api=(\S+) nonuniform=(\d) imagearrays=(\d) runtimearrays=(\d)`)

// DeviceInfo reports the device the runner picks (lavapipe, "llvmpipe",
// unless $VKRUN_DEVICE names another).
func DeviceInfo() (*Info, error) {
	bin, err := runner()
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(bin, "--info").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%w: no usable Vulkan device (install mesa-vulkan-drivers): %v: %s", ErrUnavailable, err, bytes.TrimSpace(out))
	}
	m := infoRE.FindSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("vkrun: unexpected --info output %q", out)
	}
	n, _ := strconv.Atoi(string(m[2]))
	return &Info{Device: string(m[1]), SubgroupSize: n, API: string(m[3]),
		NonUniformIndexing: string(m[4]) == "1", ImageArrayIndexing: string(m[5]) == "1", RuntimeDescriptorArrays: string(m[6]) == "1"}, nil
}

// Run executes a job and returns each buffer's final contents (for a
// draw, RunDraw also returns the render targets).
func Run(job Job) ([][]byte, error) {
	bufs, _, err := RunDraw(job)
	return bufs, err
}

// RunDraw executes a job and returns each buffer's final contents and,
// for a draw, each render target.
func RunDraw(job Job) ([][]byte, []Pixels, error) {
	bin, err := runner()
	if err != nil {
		return nil, nil, err
	}
	d := job.Draw
	if d != nil && (d.Width <= 0 || d.Height <= 0 || d.Width > 4096 || d.Height > 4096 || len(d.Targets) > 8) {
		return nil, nil, fmt.Errorf("vkrun: bad draw %dx%d with %d targets", d.Width, d.Height, len(d.Targets))
	}
	var w bytes.Buffer
	put := func(v uint32) { binary.Write(&w, binary.LittleEndian, v) }
	pad := func(n int) {
		for ; n%4 != 0; n++ {
			w.WriteByte(0)
		}
	}
	if d == nil {
		put(0)
		for _, g := range job.Groups {
			put(uint32(max(g, 1)))
		}
	} else {
		put(1)
		put(uint32(d.Width))
		put(uint32(d.Height))
		put(uint32(len(d.Targets)))
		for _, k := range d.Targets {
			if k < Float || k > Uint {
				return nil, nil, fmt.Errorf("vkrun: bad target kind %d", k)
			}
			put(uint32(k))
		}
	}
	put(uint32(len(job.Buffers)))
	for _, b := range job.Buffers {
		if b.Set < 0 || b.Binding < 0 {
			return nil, nil, fmt.Errorf("vkrun: buffer with set %d binding %d", b.Set, b.Binding)
		}
		put(uint32(b.Set))
		put(uint32(b.Binding))
		put(uint32(b.ArrayElement))
		kind, data := b.encode()
		put(kind)
		put(uint32(len(data)))
		w.Write(data)
		pad(len(data))
	}
	put(uint32(len(job.SPIRV)))
	for _, x := range job.SPIRV {
		put(x)
	}
	put(uint32(len(job.Entry)))
	w.WriteString(job.Entry)
	pad(len(job.Entry))
	if d != nil {
		put(uint32(len(d.Vertex)))
		for _, x := range d.Vertex {
			put(x)
		}
		put(uint32(len(d.VertexEntry)))
		w.WriteString(d.VertexEntry)
		pad(len(d.VertexEntry))
	}

	dir, err := os.MkdirTemp("", "vkrun")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	jf, of := filepath.Join(dir, "job"), filepath.Join(dir, "out")
	if err := os.WriteFile(jf, w.Bytes(), 0o644); err != nil {
		return nil, nil, err
	}
	if out, err := exec.Command(bin, jf, of).CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("vkrun: %v: %s", err, bytes.TrimSpace(out))
	}
	data, err := os.ReadFile(of)
	if err != nil {
		return nil, nil, err
	}
	res := make([][]byte, len(job.Buffers))
	pos := 0
	for i := range res {
		if pos+4 > len(data) {
			return nil, nil, fmt.Errorf("vkrun: output truncated")
		}
		n := int(binary.LittleEndian.Uint32(data[pos:]))
		pos += 4
		if pos+n > len(data) {
			return nil, nil, fmt.Errorf("vkrun: output truncated")
		}
		res[i] = append([]byte(nil), data[pos:pos+n]...)
		if im := job.Buffers[i].Image; im != nil && im.Storage && n >= imageHeader {
			res[i] = res[i][imageHeader:] // the texels after the header
		}
		pos += (n + 3) &^ 3
	}
	var pix []Pixels
	if d != nil {
		n := d.Width * d.Height * 4
		for range d.Targets {
			if pos+4*n > len(data) {
				return nil, nil, fmt.Errorf("vkrun: output truncated")
			}
			p := make(Pixels, n)
			for k := range p {
				p[k] = binary.LittleEndian.Uint32(data[pos+4*k:])
			}
			pix = append(pix, p)
			pos += 4 * n
		}
	}
	return res, pix, nil
}
