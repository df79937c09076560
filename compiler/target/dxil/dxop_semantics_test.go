package dxil

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// dxilOpSemantics is DXIL's opcode table (DirectXShaderCompiler
// docs/DXIL.rst, "Operations"), written independently of dxop.go: what
// each operation computes, as the passlens intrinsic of the same meaning,
// and the operand kind the opcode requires ('f' float, 'i' signed, 'u'
// unsigned, 0 any).
var dxilOpSemantics = map[int]struct {
	name string
	kind byte
}{
	6: {"abs", 'f'}, 7: {"saturate", 'f'}, 8: {"isnan", 'f'}, 9: {"isinf", 'f'},
	12: {"cos", 'f'}, 13: {"sin", 'f'}, 14: {"tan", 'f'}, 15: {"acos", 'f'}, 16: {"asin", 'f'}, 17: {"atan", 'f'},
	18: {"cosh", 'f'}, 19: {"sinh", 'f'}, 20: {"tanh", 'f'}, 21: {"exp2", 'f'}, 22: {"frac", 'f'}, 23: {"log2", 'f'},
	24: {"sqrt", 'f'}, 25: {"rsqrt", 'f'}, 26: {"round", 'f'}, 27: {"floor", 'f'}, 28: {"ceil", 'f'}, 29: {"trunc", 'f'},
	30: {"reversebits", 0}, 31: {"countbits", 0}, 32: {"firstbitlow", 0}, 33: {"firstbithigh", 'u'}, 34: {"firstbithigh", 'i'},
	35: {"max", 'f'}, 36: {"min", 'f'}, 37: {"max", 'i'}, 38: {"min", 'i'}, 39: {"max", 'u'}, 40: {"min", 'u'},
	46: {"mad", 'f'}, 48: {"mad", 'i'}, 49: {"mad", 'u'},
	110: {"WaveIsFirstLane", 0}, 111: {"WaveGetLaneIndex", 0}, 112: {"WaveGetLaneCount", 0},
	113: {"WaveActiveAnyTrue", 0}, 114: {"WaveActiveAllTrue", 0}, 115: {"WaveActiveAllEqual", 0},
	116: {"WaveActiveBallot", 0}, 117: {"WaveReadLaneAt", 0}, 118: {"WaveReadLaneFirst", 0},
	130: {"f32tof16", 'f'}, 131: {"f16tof32", 0}, 135: {"WaveActiveCountBits", 0}, 136: {"WavePrefixCountBits", 0},
}

// unlowerDXOps replaces every dx.op call of m by the passlens intrinsic
// DXIL's table says it computes, so the interpreter can run the lowered
// module. It checks that the operand types suit the opcode (signed vs
// unsigned min/max, ...) and that the i8 wave operation kinds and the
// barrier modes are DXIL's.
func unlowerDXOps(m *ir.Module) error {
	waveOps := map[[2]int64]string{{119, 0}: "WaveActiveSum", {119, 1}: "WaveActiveProduct", {119, 2}: "WaveActiveMin",
		{119, 3}: "WaveActiveMax", {121, 0}: "WavePrefixSum", {121, 1}: "WavePrefixProduct",
		{120, 0}: "WaveActiveBitAnd", {120, 1}: "WaveActiveBitOr", {120, 2}: "WaveActiveBitXor"}
	barriers := map[int64]string{8: "GroupMemoryBarrier", 9: "GroupMemoryBarrierWithGroupSync", 2: "DeviceMemoryBarrier",
		3: "DeviceMemoryBarrierWithGroupSync", 10: "AllMemoryBarrier", 11: "AllMemoryBarrierWithGroupSync"}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op != ir.OpIntrinsic || !strings.HasPrefix(in.Intr.Name, "dx.op.") {
					continue
				}
				op := in.Args[0].(*ir.Const).Int()
				args := in.Args[1:]
				var name string
				switch op {
				case 119, 120, 121:
					kind := args[1].(*ir.Const).Int()
					name = waveOps[[2]int64{op, kind}]
					if op != 120 {
						sign := args[2].(*ir.Const).Int()
						if (sign == 1) != (in.Type().Kind == ir.KUint) {
							return fmt.Errorf("%s: sign operand %d for type %s", ir.InstrString(in), sign, in.Type())
						}
					}
					args = args[:1]
				case 80:
					name = barriers[args[0].(*ir.Const).Int()]
					args = nil
				default:
					s, ok := dxilOpSemantics[int(op)]
					if !ok {
						return fmt.Errorf("%s: opcode %d not in the table", ir.InstrString(in), op)
					}
					name = s.name
					if len(args) > 0 {
						k := args[0].Type().Kind
						if s.kind == 'f' && k != ir.KFloat || s.kind == 'i' && k != ir.KInt || s.kind == 'u' && k != ir.KUint {
							return fmt.Errorf("%s: opcode %d (%s) wants kind %c, operand is %s", ir.InstrString(in), op, s.name, s.kind, args[0].Type())
						}
					}
				}
				if name == "" {
					return fmt.Errorf("%s: unknown operation", ir.InstrString(in))
				}
				if name == "WaveActiveBallot" {
					in.SetType(ir.Vec(ir.U32, 4))
				}
				in.Intr = ir.LookupIntrinsic(name)
				in.Args = args
			}
		}
	}
	return nil
}

// ulpBounds are the documented accuracy limits (docs/dxil.md) of the
// expansions dxop.go writes for intrinsics DXIL has no operation for,
// over this test's domain; everything else must be bit-identical.
var ulpBounds = map[int]int64{0: 16, 1: 2, 2: 2, 3: 16, 4: 2} // exp log log10 pow atan2

// TestDXILOpSemantics lowers testdata/dxop-semantics.hlsl (one intrinsic per
// output slot) with the back end's intrinsic lowering, maps every dx.op
// call back through DXIL's opcode table and runs both modules on the
// interpreter. Results must be bit-identical, except the transcendental
// expansions (exp, log, log10, pow, atan2), whose error in ulps must stay
// within ulpBounds. A wrong opcode (floor for ceil, signed for unsigned
// max, a wrong wave kind or barrier mode) makes it fail.
func TestDXILOpSemantics(t *testing.T) {
	t.Parallel()
	const n = 64
	xs, ys := make([]any, n), make([]any, n)
	for i := 0; i < n; i++ {
		x := (float64(i)-31.5)*0.61 + 0.013*float64(i%7)
		y := math.Sin(float64(i)*0.9)*4 + 0.05
		if i%9 == 4 {
			x = math.Round(x)
		}
		xs[i], ys[i] = x, y
	}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "X", Data: xs}, {Name: "Y", Data: ys},
		{Name: "OutF", Count: n * 40}, {Name: "OutI", Count: n * 12}, {Name: "OutU", Count: n * 12}}}
	m := loadHLSL(t, "testdata/dxop-semantics.hlsl")
	runSpec(t, m, "inline,sroa,simplify,scalarize,simplify")
	opts := interp.Options{WaveSize: 16}
	want, err := interp.Run(m, in, opts)
	if err != nil {
		t.Fatal(err)
	}
	c := ir.CloneModule(m)
	for _, f := range c.Funcs {
		if err := lowerIntrinsicsNU(f, nil); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(c.String(), "dx.op.") {
		t.Fatal("no dx.op call after lowering")
	}
	if err := unlowerDXOps(c); err != nil {
		t.Fatal(err)
	}
	got, err := interp.Run(c, in, opts)
	if err != nil {
		t.Fatalf("lowered module: %v", err)
	}
	maxULP := map[int]int64{}
	for _, name := range []string{"OutI", "OutU"} {
		w, g := want.Buffer(name), got.Buffer(name)
		for k := range w.Cells {
			if w.Cells[k] != g.Cells[k] {
				t.Errorf("%s[%d] (slot %d): %#x, lowered %#x", name, k, k%12, w.Cells[k], g.Cells[k])
			}
		}
	}
	w, g := want.Buffer("OutF"), got.Buffer("OutF")
	for k := range w.Cells {
		slot := k % 40
		d := ulpDiff(uint32(w.Cells[k]), uint32(g.Cells[k]))
		if d > maxULP[slot] {
			maxULP[slot] = d
		}
		if d > ulpBounds[slot] {
			t.Errorf("OutF slot %d, lane %d (x=%v, y=%v): %v, lowered %v: %d ulp (bound %d)", slot, k/40, xs[k/40], ys[k/40],
				math.Float32frombits(uint32(w.Cells[k])), math.Float32frombits(uint32(g.Cells[k])), d, ulpBounds[slot])
		}
	}
	var rep []string
	for slot, d := range maxULP {
		if d > 0 {
			rep = append(rep, fmt.Sprintf("slot %d: %d ulp", slot, d))
		}
	}
	sort.Strings(rep)
	t.Logf("largest differences (slots 0-4: exp log log10 pow atan2): %s", strings.Join(rep, ", "))
}

// ulpDiff is the distance in units in the last place between two f32
// values (0 for two NaNs, and for +0 and -0).
func ulpDiff(a, b uint32) int64 {
	fa, fb := math.Float32frombits(a), math.Float32frombits(b)
	if fa != fa && fb != fb {
		return 0
	}
	if fa != fa || fb != fb {
		return math.MaxInt64
	}
	ord := func(x uint32) int64 {
		if x&0x80000000 != 0 {
			return -int64(x & 0x7fffffff)
		}
		return int64(x)
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return d
}
