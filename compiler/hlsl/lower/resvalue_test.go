package lower

import (
	"fmt"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// TestResourceValues: buffers held by locals (reassigned, in local arrays
// indexed per lane, chosen by a divergent branch or a ternary), passed to
// and returned from functions, and held by local and global structs; the
// interpreter's buffers are computed by hand from the source. Global
// resource structs bind their leaves as DXC does.
func TestResourceValues(t *testing.T) {
	src := `struct Pair { RWStructuredBuffer<uint> a; RWStructuredBuffer<uint> b; };
struct Holder { RWStructuredBuffer<uint> Bufs[2]; };
RWStructuredBuffer<uint> X : register(u0);
RWStructuredBuffer<uint> Y : register(u1);
Holder H : register(u4);
Holder K;
struct Solo { RWBuffer<float> b; };
Solo Z;
RWStructuredBuffer<uint> pick(uint i, RWStructuredBuffer<uint> p, RWStructuredBuffer<uint> q) {
  if (i % 2 == 0) return p;
  return q;
}
void put(Pair pr, uint i) { pr.a[i] = i; pr.b[i] = 100 + i; }
[numthreads(8,1,1)]
void main(uint i : SV_GroupIndex) {
  RWStructuredBuffer<uint> r = X;
  r[i] = 1;
  r = Y;
  r[i] += 2;
  RWStructuredBuffer<uint> arr[2];
  arr[0] = X; arr[1] = Y;
  arr[i % 2][8 + i] = 10 + i;
  pick(i, X, Y)[16 + i] = 20 + i;
  RWStructuredBuffer<uint> t = i < 4 ? X : Y;
  t[24 + i] = 30 + i;
  Pair pr; pr.a = H.Bufs[1]; pr.b = K.Bufs[0];
  put(pr, i);
}
`
	prog, diags := compile(t, src, hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(render(prog, diags))
	}
	m, ld := Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(render(prog, ld))
	}
	// K has no register: its leaves the lowered code references (here
	// all, since put's pr.a selects among every RWStructuredBuffer<uint>)
	// take the lowest free u registers in declaration order; Z's leaf is
	// never referenced and stays unbound.
	for name, want := range map[string][2]int{ // set, binding
		"H.Bufs.0": {0, 4}, "H.Bufs.1": {0, 5}, "K.Bufs.0": {0, 2}, "K.Bufs.1": {0, 3}, "Z.b": {-1, -1},
	} {
		g := m.Global(name)
		if g == nil {
			t.Fatalf("no global @%s in\n%s", name, m)
		}
		if got := [2]int{g.Set, g.Binding}; got != want {
			t.Errorf("@%s: set, binding %v, want %v", name, got, want)
		}
	}
	res, err := interp.Run(m, &interp.Input{}, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	x, y := res.Buffer("X").Cells, res.Buffer("Y").Cells
	cell := func(c []uint64, k int) uint64 {
		if k < len(c) {
			return c[k]
		}
		return 0
	}
	for i := 0; i < 8; i++ {
		check := func(what string, got, want uint64) {
			if got != want {
				t.Errorf("lane %d: %s = %d, want %d", i, what, got, want)
			}
		}
		check("X[i]", cell(x, i), 1)
		check("Y[i]", cell(y, i), 2)
		on, off := x, y
		if i%2 == 1 {
			on, off = y, x
		}
		check("arr[i%2][8+i]", cell(on, 8+i), uint64(10+i))
		check("other[8+i]", cell(off, 8+i), 0)
		check("pick[16+i]", cell(on, 16+i), uint64(20+i))
		tb, tn := x, y
		if i >= 4 {
			tb, tn = y, x
		}
		check("t[24+i]", cell(tb, 24+i), uint64(30+i))
		check("not t[24+i]", cell(tn, 24+i), 0)
		check("H.Bufs[1][i]", cell(res.Buffer("H.Bufs.1").Cells, i), uint64(i))
		check("K.Bufs[0][i]", cell(res.Buffer("K.Bufs.0").Cells, i), uint64(100+i))
	}
	// No buffer pointer is stored in memory: ids only.
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpAlloca && in.Type().Elem.Kind == ir.KPointer {
					t.Errorf("%s: alloca of a pointer: %v", f.Name(), in.Type())
				}
			}
		}
	}
}

// TestResourceCounters: the hidden counter follows the buffer when the
// buffer is a parameter or a dynamically indexed array element (each lane
// counts on its own buffer's counter), Append through a parameter appends
// to the global passed, and [[vk::counter_binding(n)]] binds the counter
// for Vulkan in the buffer's set.
func TestResourceCounters(t *testing.T) {
	src := `RWStructuredBuffer<uint> B[2] : register(u0);
[[vk::binding(3, 2)]] [[vk::counter_binding(7)]] RWStructuredBuffer<uint> C : register(u6);
AppendStructuredBuffer<uint> A1 : register(u4);
AppendStructuredBuffer<uint> A2 : register(u5);
void put(AppendStructuredBuffer<uint> a, uint v) { a.Append(v); }
[numthreads(8,1,1)]
void main(uint i : SV_GroupIndex) {
  B[i % 2].IncrementCounter();
  C.DecrementCounter();
  if (i < 3) put(A1, 10 + i); else put(A2, 20);
}
`
	prog, diags := compile(t, src, hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(render(prog, diags))
	}
	m, ld := Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(render(prog, ld))
	}
	res, err := interp.Run(m, &interp.Input{}, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]uint64{"B.0.counter": 4, "B.1.counter": 4, "A1.counter": 3, "A2.counter": 5} {
		if c := res.Buffer(name); c == nil || c.Cells[0] != want {
			t.Errorf("%s = %+v, want %d", name, c, want)
		}
	}
	a1, a2 := res.Buffer("A1").Cells, res.Buffer("A2").Cells
	if a1[0]+a1[1]+a1[2] != 10+11+12 || a2[0] != 20 || a2[4] != 20 {
		t.Errorf("A1 %v, A2 %v", a1[:4], a2[:6])
	}
	g := m.Global("C.counter")
	if g == nil || g.VkSet != 2 || g.VkBinding != 7 || res.Buffer("C.counter").Cells[0] != 0xFFFFFFF8 {
		t.Errorf("C.counter: Vulkan set/binding %d/%d, value %d", g.VkSet, g.VkBinding, res.Buffer("C.counter").Cells[0])
	}
}

// TestPlainStructGlobals: global structs and arrays of structs without
// resources (groupshared, static) are not resource structs: they keep
// their one global (a regression the vkd3d tgsm shader caught).
func TestPlainStructGlobals(t *testing.T) {
	src := `struct D { float f; uint u; };
groupshared D m[4];
static D s = { 1.5, 2 };
RWStructuredBuffer<uint> O : register(u0);
[numthreads(4,1,1)]
void main(uint i : SV_GroupIndex) {
  m[i].u = i + s.u;
  GroupMemoryBarrierWithGroupSync();
  O[i] = m[3 - i].u;
}
`
	prog, diags := compile(t, src, hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(render(prog, diags))
	}
	m, ld := Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(render(prog, ld))
	}
	if m.Global("m") == nil || m.Global("s") == nil {
		t.Fatalf("no @m or @s in\n%s", m)
	}
	res, err := interp.Run(m, &interp.Input{}, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range res.Buffer("O").Cells[:4] {
		if want := uint64(3 - i + 2); c != want {
			t.Errorf("O[%d] = %d, want %d", i, c, want)
		}
	}
}

// TestResourceArrayParams: a global resource array and a sub-array of a
// two-dimensional one (with a per-lane index) pass to array parameters as
// arrays of ids; local arrays copy them.
func TestResourceArrayParams(t *testing.T) {
	src := `RWStructuredBuffer<uint> In[3][2] : register(u0);
RWStructuredBuffer<uint> Out : register(u0, space1);
uint sum(RWStructuredBuffer<uint> A[2], uint i) { return A[0][i] + A[1][i]; }
uint first(RWStructuredBuffer<uint> B[3][2], uint i) { RWStructuredBuffer<uint> c[3][2] = B; return c[2][1][i]; }
[numthreads(3,1,1)]
void main(uint i : SV_GroupIndex) {
  Out[i] = sum(In[i], i) * 1000 + first(In, i);
}
`
	prog, diags := compile(t, src, hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(render(prog, diags))
	}
	m, ld := Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(render(prog, ld))
	}
	in := &interp.Input{}
	for k := 0; k < 6; k++ {
		in.Buffers = append(in.Buffers, interp.BufferInput{Name: fmt.Sprintf("In.%d", k), Data: []any{10 * k, 10*k + 1, 10*k + 2}})
	}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range res.Buffer("Out").Cells[:3] {
		// In[i][0][i] + In[i][1][i] = 10*(2i) + i + 10*(2i+1) + i; In[2][1][i] = 50 + i.
		want := uint64((40*i+10+2*i)*1000 + 50 + i)
		if c != want {
			t.Errorf("Out[%d] = %d, want %d", i, c, want)
		}
	}
}
