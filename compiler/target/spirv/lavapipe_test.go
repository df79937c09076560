package spirv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"passlens/compiler/progen"
	"passlens/internal/testtool"
	"sync"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/target/spirv/vkrun"
)

// These tests run passlens's SPIR-V on a real Vulkan driver (Mesa's
// lavapipe) and compare every storage buffer, bit for bit, with the
// interpreter run on the same module and input at the driver's subgroup
// size.

var (
	deviceOnce sync.Once
	deviceInfo *vkrun.Info
	deviceErr  error
)

// needDevice returns the Vulkan device info, skipping (or failing under
// CI=true) when no runner or device is available.
func needDevice(t *testing.T) *vkrun.Info {
	t.Helper()
	deviceOnce.Do(func() { deviceInfo, deviceErr = vkrun.DeviceInfo() })
	if deviceErr != nil {
		testtool.Unavailable(t, fmt.Sprintf("no Vulkan runner (apt-get install mesa-vulkan-drivers libvulkan-dev gcc): %v", deviceErr))
	}
	return deviceInfo
}

// runOnDevice assembles m with opts, requires spirv-val (vulkan1.1) to
// accept it and runs job with it on the device, returning the buffers
// read back.
func runOnDevice(t *testing.T, m *ir.Module, opts Options, job vkrun.Job) [][]byte {
	t.Helper()
	words, err := Assemble(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	job.SPIRV = words
	out, err := vkrun.Run(job)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// deviceOptions are the back end options for the device: what it lacks
// of descriptor indexing (Mesa 22.3's lavapipe: non-uniform indices and
// image array indexing) is emitted without it (resarray.go).
func deviceOptions(info *vkrun.Info) Options {
	return Options{NoNonUniformIndexing: !info.NonUniformIndexing, NoImageArrayIndexing: !info.ImageArrayIndexing}
}

// leafOffsets returns the byte offset of each scalar leaf of t in a
// buffer (the interpreter's cell order); a leaf takes scalarBytes of its
// type (2, 4 or 8).
func leafOffsets(t *ir.Type, rule layoutRule, base int, out []int) ([]int, error) {
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat:
		return append(out, base), nil
	case ir.KVector:
		n := scalarBytes(t.Elem)
		for i := 0; i < t.Len; i++ {
			out = append(out, base+n*i)
		}
		return out, nil
	case ir.KMatrix, ir.KArray:
		l, err := typeLayout(t, rule)
		if err != nil {
			return nil, err
		}
		el := t.Elem
		if t.Kind == ir.KMatrix {
			el = rowType(t)
		}
		for i := 0; i < t.Len; i++ {
			if out, err = leafOffsets(el, rule, base+i*l.Stride, out); err != nil {
				return nil, err
			}
		}
		return out, nil
	case ir.KStruct:
		l, err := typeLayout(t, rule)
		if err != nil {
			return nil, err
		}
		for i, f := range t.Fields {
			if out, err = leafOffsets(f.Type, rule, base+l.Offsets[i], out); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("no leaves for %s", t)
}

// gpuCase is one module and input to run both ways.
type gpuCase struct {
	name   string
	m      *ir.Module // after the spirv pipeline
	in     *interp.Input
	groups [3]int
}

// runBoth runs c on the interpreter and on the Vulkan device and returns
// a description of the first difference ("" if the buffers agree).
func runBoth(t *testing.T, c gpuCase) (string, error) {
	info := needDevice(t)
	res, err := interp.Run(c.m, c.in, interp.Options{WaveSize: info.SubgroupSize})
	if err != nil {
		return "", fmt.Errorf("interp: %w", err)
	}
	words, err := Assemble(c.m, deviceOptions(info))
	if err != nil {
		return "", err
	}
	var entry string
	for _, f := range c.m.EntryPoints() {
		entry = f.Name()
	}
	// Buffers: the interpreter's final buffers give the element counts;
	// the initial contents come from the input (zero elsewhere).
	initial := map[string][]uint64{}
	for _, b := range c.in.Buffers {
		cells := make([]uint64, len(b.Data))
		for i, d := range b.Data {
			switch v := d.(type) {
			case uint32:
				cells[i] = uint64(v)
			case int32:
				cells[i] = uint64(uint32(v))
			default:
				return "", fmt.Errorf("test input %T", d)
			}
		}
		initial[b.Name] = cells
	}
	binds := map[string]Binding{}
	for _, b := range Bindings(c.m) {
		binds[b.Global.Name()] = b
	}
	var job vkrun.Job
	job.SPIRV, job.Entry, job.Groups = words, entry, c.groups
	type slot struct {
		offs []int
		buf  *interp.Buffer
	}
	var slots []slot
	for i := range res.Buffers {
		rb := &res.Buffers[i]
		g := c.m.Global(rb.Name)
		b, ok := binds[rb.Name]
		if g == nil || !ok {
			return "", fmt.Errorf("buffer %s has no binding", rb.Name)
		}
		el := g.ValType
		count := 1
		if el.Kind == ir.KArray && el.Len < 0 {
			el, count = el.Elem, rb.Count
		}
		l, err := typeLayout(el, ruleStd430)
		if err != nil {
			return "", err
		}
		stride := l.Size
		if g.ValType.Kind == ir.KArray && g.ValType.Len < 0 {
			al, _ := arrayLayout(el, -1, ruleStd430)
			stride = al.Stride
		}
		for _, s := range leafScalars(el, nil) {
			if scalarBytes(s) != 4 {
				return "", fmt.Errorf("buffer %s: leaf %s is not 32-bit", rb.Name, s)
			}
		}
		var offs []int
		for k := 0; k < count; k++ {
			if offs, err = leafOffsets(el, ruleStd430, k*stride, offs); err != nil {
				return "", err
			}
		}
		data := make([]byte, count*stride)
		for k, v := range initial[rb.Name] {
			binary.LittleEndian.PutUint32(data[offs[k]:], uint32(v))
		}
		job.Buffers = append(job.Buffers, vkrun.Buffer{Set: b.Set, Binding: b.Binding, ArrayElement: b.ArrayIndex, Data: data})
		slots = append(slots, slot{offs, rb})
	}
	out, err := vkrun.Run(job)
	if err != nil {
		return "", err
	}
	for i, s := range slots {
		for k, off := range s.offs {
			got := binary.LittleEndian.Uint32(out[i][off:])
			want := uint32(s.buf.Cells[k])
			if got != want {
				return fmt.Sprintf("buffer %s cell %d: device %d (0x%x), interpreter %d (0x%x)", s.buf.Name, k, got, got, want, want), nil
			}
		}
	}
	return "", nil
}

// TestLavapipeSwitch42 runs the [42,42,40,40] example: after switch-to-if
// the device must agree with the interpreter's maximal reconvergence.
func TestLavapipeSwitch42(t *testing.T) {
	t.Parallel()
	needDevice(t)
	m := parseFile(t, "../../interp/testdata/switch42.pir")
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "value", Data: []any{int32(0), int32(0), int32(1), int32(2)}}}}
	diff, err := runBoth(t, gpuCase{name: "switch42", m: m, in: in, groups: [3]int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff != "" {
		t.Fatalf("switch42: %s", diff)
	}
	res, err := interp.Run(m, in, interp.Options{WaveSize: needDevice(t).SubgroupSize})
	if err != nil {
		t.Fatal(err)
	}
	var got []int32
	for _, c := range res.Buffers[0].Cells[:4] {
		got = append(got, int32(uint32(c)))
	}
	if fmt.Sprint(got) != "[42 42 40 40]" {
		t.Fatalf("switch42 gives %v, want [42 42 40 40]", got)
	}
}

// TestLavapipeModules runs the hand-written compute modules.
func TestLavapipeModules(t *testing.T) {
	t.Parallel()
	needDevice(t)
	r := rand.New(rand.NewPCG(7, 7))
	small := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = uint32(r.IntN(9))
		}
		return out
	}
	cases := []struct {
		file   string
		in     *interp.Input
		groups [3]int
	}{
		{"testdata/control.pir", &interp.Input{Dispatch: [3]int{2, 1, 1}}, [3]int{2, 1, 1}},
		{"testdata/waves.pir", &interp.Input{Dispatch: [3]int{2, 1, 1}, Buffers: []interp.BufferInput{{Name: "io", Data: small(64)}}}, [3]int{2, 1, 1}},
	}
	for _, c := range cases {
		m := parseFile(t, c.file)
		if err := runSpirvPipeline(m); err != nil {
			t.Fatal(err)
		}
		diff, err := runBoth(t, gpuCase{name: c.file, m: m, in: c.in, groups: c.groups})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if diff != "" {
			t.Errorf("%s: %s", c.file, diff)
		}
	}
}

// lavapipeRandomCount is the number of generated programs run on the
// device per test run.
const lavapipeRandomCount = 100

// TestLavapipeRandom runs generated programs (divergent control flow,
// loops, lowered switches, wave operations) on both and compares.
func TestLavapipeRandom(t *testing.T) {
	t.Parallel()
	needDevice(t)
	agree := 0
	for seed := 0; seed < lavapipeRandomCount; seed++ {
		src, threads := progen.Program(uint64(1000 + seed))
		m, err := ir.ParseModule("gen.pir", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := runSpirvPipeline(m); err != nil {
			t.Fatal(err)
		}
		groups := 2
		r := rand.New(rand.NewPCG(uint64(seed), 1))
		data := make([]any, threads*groups)
		for i := range data {
			data[i] = uint32(r.IntN(64))
		}
		in := &interp.Input{Dispatch: [3]int{groups, 1, 1}, Buffers: []interp.BufferInput{
			{Name: "in", Data: data},
			{Name: "out", Count: threads * groups * progen.Vars},
		}}
		diff, err := runBoth(t, gpuCase{name: "gen", m: m, in: in, groups: [3]int{groups, 1, 1}})
		if err != nil {
			var ie *interp.Error
			if errors.As(err, &ie) {
				t.Fatalf("seed %d: %v\n%s", seed, err, src)
			}
			t.Fatalf("seed %d: %v", seed, err)
		}
		if diff != "" {
			t.Errorf("seed %d: %s\n%s", seed, diff, m)
			continue
		}
		agree++
	}
	t.Logf("%d/%d random programs agree between lavapipe and the interpreter", agree, lavapipeRandomCount)
}

// TestLavapipeUnloweredSwitch runs switch42 without switch-to-if (an
// OpSwitch whose case 0 falls through into default) and reports which
// reconvergence policy of the interpreter the driver matches. Both are
// allowed by SPIR-V, so this is a measurement, not a requirement; the
// test only checks that the device gives one of the two answers.
func TestLavapipeUnloweredSwitch(t *testing.T) {
	t.Parallel()
	info := needDevice(t)
	m := parseFile(t, "../../interp/testdata/switch42.pir")
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "value", Data: []any{int32(0), int32(0), int32(1), int32(2)}}}}
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 16)
	for i, v := range []uint32{0, 0, 1, 2} {
		binary.LittleEndian.PutUint32(data[4*i:], v)
	}
	out, err := vkrun.Run(vkrun.Job{SPIRV: words, Entry: "main", Groups: [3]int{1, 1, 1},
		Buffers: []vkrun.Buffer{{Set: 0, Binding: 0, Data: data}}})
	if err != nil {
		t.Fatal(err)
	}
	var dev []int32
	for i := 0; i < 4; i++ {
		dev = append(dev, int32(binary.LittleEndian.Uint32(out[0][4*i:])))
	}
	matched := ""
	for _, p := range interp.Policies() {
		res, err := interp.Run(m, in, interp.Options{WaveSize: info.SubgroupSize, Policy: p})
		if err != nil {
			t.Fatal(err)
		}
		var got []int32
		for _, c := range res.Buffers[0].Cells[:4] {
			got = append(got, int32(uint32(c)))
		}
		if fmt.Sprint(got) == fmt.Sprint(dev) {
			matched = p.String()
		}
	}
	if matched == "" {
		t.Fatalf("unlowered switch42 on %s gives %v, matching no interpreter policy", info.Device, dev)
	}
	t.Logf("unlowered switch42 on %s: %v (interpreter policy %s)", info.Device, dev, matched)
}

// TestLavapipeDetectsDifferences is the negative control: the comparison
// must notice when the interpreter runs with another wave size.
func TestLavapipeDetectsDifferences(t *testing.T) {
	t.Parallel()
	info := needDevice(t)
	m := parseFile(t, "testdata/waves.pir")
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	data := make([]any, 64)
	for i := range data {
		data[i] = uint32(i % 7)
	}
	in := &interp.Input{Dispatch: [3]int{2, 1, 1}, Buffers: []interp.BufferInput{{Name: "io", Data: data}}}
	saved := info.SubgroupSize
	info.SubgroupSize = saved * 2
	defer func() { info.SubgroupSize = saved }()
	diff, err := runBoth(t, gpuCase{name: "waves", m: m, in: in, groups: [3]int{2, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff == "" {
		t.Fatal("a different wave size went unnoticed")
	}
}

// u32s turns words into the []any the buffer helpers take.
func u32s(xs ...uint32) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
