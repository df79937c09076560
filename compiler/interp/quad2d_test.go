package interp

import (
	"testing"

	"passlens/compiler/ir"
)

// quad2DModule computes, for every thread of numthreads(4, 2, 1), the
// coarse and fine derivatives of its SV_GroupThreadID x and y and of
// x·y, and WaveGetLaneIndex-free quad reads, into @o (8 values a thread,
// at SV_GroupIndex·8).
const quad2DModule = `@o = global storage [? x f32] binding 0, 0
@tid = global input <3 x u32> semantic "SV_GroupThreadID"
@gi = global input u32 semantic "SV_GroupIndex"

define void @main() compute numthreads(4, 2, 1) {
entry:
  %t = load ptr<input, <3 x u32>> @tid
  %g = load ptr<input, u32> @gi
  %xu = extractvalue <3 x u32> %t, 0
  %yu = extractvalue <3 x u32> %t, 1
  %x = uitofp u32 %xu to f32
  %y = uitofp u32 %yu to f32
  %xy = fmul f32 %x, %y
  %a = intr f32 ddx_coarse(f32 %x)
  %b = intr f32 ddy_coarse(f32 %y)
  %c = intr f32 ddx_fine(f32 %xy)
  %d = intr f32 ddy_fine(f32 %xy)
  %e = intr f32 QuadReadAcrossX(f32 %x)
  %f = intr f32 QuadReadAcrossY(f32 %y)
  %base = mul u32 %g, 8
  %p0 = access ptr<storage, [? x f32]> @o, u32 %base
  store f32 %a, ptr<storage, f32> %p0
  %i1 = add u32 %base, 1
  %p1 = access ptr<storage, [? x f32]> @o, u32 %i1
  store f32 %b, ptr<storage, f32> %p1
  %i2 = add u32 %base, 2
  %p2 = access ptr<storage, [? x f32]> @o, u32 %i2
  store f32 %c, ptr<storage, f32> %p2
  %i3 = add u32 %base, 3
  %p3 = access ptr<storage, [? x f32]> @o, u32 %i3
  store f32 %d, ptr<storage, f32> %p3
  %i4 = add u32 %base, 4
  %p4 = access ptr<storage, [? x f32]> @o, u32 %i4
  store f32 %e, ptr<storage, f32> %p4
  %i5 = add u32 %base, 5
  %p5 = access ptr<storage, [? x f32]> @o, u32 %i5
  store f32 %f, ptr<storage, f32> %p5
  ret
}
`

// TestComputeQuads2D: with numthreads(4, 2, 1) and derivatives, the
// quads are 2×2 blocks of SV_GroupThreadID (DirectX-Specs SM6.6 "2D
// Quads"): ddx of x and ddy of y are 1 everywhere, the fine derivatives
// of x·y are y and x of the quad's row and column, and QuadReadAcrossX/Y
// read the horizontal and vertical neighbours. The linear layout (threads
// 4k..4k+3) gives other values (ddy of y would be 0), so the test tells
// the two apart; without derivatives (numthreads(8, 1, 1)-style 1D
// groups) the order is SV_GroupIndex.
func TestComputeQuads2D(t *testing.T) {
	m, err := ir.ParseModule("quad2d.pir", []byte(quad2DModule))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runT(m, &Input{Buffers: []BufferInput{{Name: "o", Count: 64}}}, Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	o := res.Buffer("o").Cells
	f := func(v uint64) float32 { return f32(v) }
	for gi := 0; gi < 8; gi++ {
		x, y := gi%4, gi/4
		qx, qy := x&^1, y&^1 // the quad's top-left thread
		want := []float32{1, 1,
			float32(qy + y - qy), // ddx_fine(x·y) in the thread's row: y
			float32(qx + x - qx), // ddy_fine(x·y) in the thread's column: x
			float32(x ^ 1), float32(y ^ 1)}
		for k, w := range want {
			if got := f(o[gi*8+k]); got != w {
				t.Errorf("thread (%d, %d) value %d = %g, want %g", x, y, k, got, w)
			}
		}
	}
	if quad2D(m, [3]int{4, 1, 1}) || quad2D(m, [3]int{6, 3, 1}) || !quad2D(m, [3]int{2, 2, 1}) {
		t.Error("quad2D: 1D or odd numthreads must keep the linear layout, 2×2 must not")
	}
}
