package lower

import (
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
)

// TestMemberOutOfLineAndOverloads: member functions defined out of line
// (with parameter names other than the declaration's, calling members
// declared later, writing the object through 'this', a static one, a
// base's called on a derived object) and overloaded member functions
// picked by their arguments, run on the interpreter.
func TestMemberOutOfLineAndOverloads(t *testing.T) {
	src := `struct B { uint base; uint scaled(uint k); };
struct S : B {
  uint x;
  void add(uint v);
  uint get();
  uint get(uint a) { return x * a; }
  float get(float a) { return a * 0.5; }
  static uint sq(uint v);
};
uint B::scaled(uint factor) { return base * factor; }
void S::add(uint amount) { x += amount + get(); }
uint S::get() { return x; }
uint S::sq(uint w) { return w * w; }
RWStructuredBuffer<uint> O : register(u0);
[numthreads(4,1,1)]
void main(uint g : SV_GroupIndex) {
  S s; s.base = 10; s.x = g;
  s.add(3);
  O[g] = s.get() + 100 * s.get(2u) + 10000 * (uint)s.get(5.0f) + 100000 * S::sq(g) + 1000000 * s.scaled(g);
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
	res, err := interp.Run(m, &interp.Input{Buffers: []interp.BufferInput{{Name: "O", Count: 4}}}, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	for g := uint64(0); g < 4; g++ {
		x := g + 3 + g // add(3): x += 3 + x
		want := x + 100*(2*x) + 10000*2 + 100000*g*g + 1000000*10*g
		if got := res.Buffer("O").Cells[g]; got != want {
			t.Errorf("O[%d] = %d, want %d", g, got, want)
		}
	}
}
