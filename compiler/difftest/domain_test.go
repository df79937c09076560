package difftest

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// SM3's exact integer domain. Shader model 3 has no integers: fxc, and
// sm3-lower after it, carry them as f32 (docs/control-flow-passes.md, "SM3
// contract"). That is exact while every integer value lies strictly within
// +-2^24 and no operation wraps: on such operands add, sub, mul, division,
// remainder, constant shifts and low masks give the exact result when it
// is in the domain, and a result outside it rounds to a float outside it
// too. A program whose run leaves the domain - a value of 2^24 or more in
// magnitude, an unsigned value that wrapped below zero, a mul or shl that
// wrapped modulo 2^32 - computes something else on SM3 by design: outside
// the target's semantics, not a bug of the pass. The differential test
// classifies such runs with sm3DomainProbe, counts them and names them.

// sm3DomainLimit is 2^24: |v| must stay below it.
const sm3DomainLimit = 1 << 24

// sm3ProbeBase encodes instruction numbers in the probe's flag.
const sm3ProbeBase = 1<<31 - 1

// sm3DomainBuffer names the buffer the probe flags into.
const sm3DomainBuffer = "sm3_domain_probe"

// sm3DomainProbe returns a copy of m that runs as m does and records in
// buffer sm3DomainBuffer (element 0) whether some integer value left the
// exact domain: sm3ProbeBase minus the 1-based number of the offending
// instruction in the returned list (atomic umax: the first in layout
// order, when several do).
func sm3DomainProbe(m *ir.Module) (*ir.Module, []string) {
	c := ir.CloneModule(m)
	g := ir.NewGlobal(sm3DomainBuffer, ir.SpaceStorage, ir.Array(ir.U32, 1))
	g.Set, g.Binding = 15, 15
	c.AddGlobal(g)
	var where []string
	for _, f := range c.Funcs {
		if f.IsDeclaration() {
			continue
		}
		for _, b := range f.Blocks {
			for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
				t := in.Type()
				if t == nil || !t.Scalar().IsIntegral() || t.Scalar().Bits != 32 || !(t.IsScalar() || t.Kind == ir.KVector) {
					continue
				}
				where = append(where, fmt.Sprintf("@%s %s: %s", f.Name(), b.Ref(), ir.InstrString(in)))
				id := uint64(len(where))
				bd := ir.NewBuilder(f)
				if in.Op == ir.OpPhi {
					bd.SetAfterPhis(b)
				} else {
					bd.SetBefore(nextInstr(in))
				}
				sm3ProbeInstr(bd, g, in, id)
			}
		}
	}
	return c, where
}

// nextInstr returns the instruction after in (in is never a terminator:
// terminators have no integer results).
func nextInstr(in *ir.Instr) *ir.Instr {
	for i, x := range in.Block.Instrs {
		if x == in {
			return in.Block.Instrs[i+1]
		}
	}
	return nil
}

// sm3ProbeInstr emits the domain test of in's result, per component.
func sm3ProbeInstr(bd *ir.Builder, g *ir.Global, in *ir.Instr, id uint64) {
	t := in.Type()
	n := 1
	if t.Kind == ir.KVector {
		n = t.Len
	}
	comp := func(v ir.Value, i int) ir.Value {
		if v.Type().Kind != ir.KVector {
			return v
		}
		return bd.ExtractElem(v, ir.ConstInt(ir.I32, int64(i)), "")
	}
	toF := func(v ir.Value) ir.Value {
		op := ir.OpSIToFP
		if v.Type().Scalar().Kind == ir.KUint {
			op = ir.OpUIToFP
		}
		return bd.Cast(op, v, ir.F32, "")
	}
	lim := ir.ConstFloat(ir.F32, sm3DomainLimit)
	outside := func(f ir.Value) ir.Value { // |f| >= 2^24
		a := bd.Intrinsic("abs", ir.F32, []ir.Value{f}, "")
		return bd.Cmp(ir.PredOGE, a, lim, "")
	}
	var bad ir.Value
	or := func(c ir.Value) {
		if bad == nil {
			bad = c
		} else {
			bad = bd.Binary(ir.OpOr, bad, c, "")
		}
	}
	for i := 0; i < n; i++ {
		or(outside(toF(comp(in, i))))
		// A mul or shl may wrap back into the domain: test the exact
		// product as SM3 computes it (rounding keeps it >= 2^24).
		switch in.Op {
		case ir.OpMul:
			or(outside(bd.Binary(ir.OpFMul, toF(comp(in.Args[0], i)), toF(comp(in.Args[1], i)), "")))
		case ir.OpShl:
			if k, ok := constShift(in.Args[1], i); ok {
				or(outside(bd.Binary(ir.OpFMul, toF(comp(in.Args[0], i)), ir.ConstFloat(ir.F32, math.Ldexp(1, k)), "")))
			}
		}
	}
	flag := bd.Select(bad, ir.ConstInt(ir.U32, int64(sm3ProbeBase-id)), ir.ConstInt(ir.U32, 0), "")
	p := bd.Access(g, []ir.Value{ir.ConstInt(ir.I32, 0)}, "")
	bd.Atomic(ir.AtomicUMax, p, flag, nil, "")
}

// constShift returns component i of a constant shift amount.
func constShift(v ir.Value, i int) (int, bool) {
	c, ok := v.(*ir.Const)
	if !ok || c.Undef {
		return 0, false
	}
	if c.Zero {
		return 0, true
	}
	if c.Type().IsScalar() {
		return int(c.Int() & 31), true
	}
	if i < len(c.Elems) {
		return int(c.Elems[i].Int() & 31), true
	}
	return 0, false
}

// sm3OutOfDomain runs the probe of m on in and returns the first offending
// instruction in layout order ("" when every integer value stayed in the domain).
func sm3OutOfDomain(m *ir.Module, in *interp.Input) (string, error) {
	probe, where := sm3DomainProbe(m)
	if err := ir.Verify(probe); err != nil {
		return "", fmt.Errorf("domain probe does not verify: %w", err)
	}
	rs, err := runAllSteps(probe, in, 8_000_000)
	if err != nil {
		return "", err
	}
	for _, r := range rs {
		b := r.Buffer(sm3DomainBuffer)
		if b == nil {
			return "", fmt.Errorf("domain probe: no buffer %s in the result", sm3DomainBuffer)
		}
		if c := b.Cells[0]; c != 0 {
			id := sm3ProbeBase - c
			if id < 1 || id > uint64(len(where)) {
				return "", fmt.Errorf("domain probe: flag %d names no instruction", c)
			}
			return where[id-1], nil
		}
	}
	return "", nil
}

// TestSM3DomainProbe: the probe flags exactly the runs whose integers leave
// SM3's exact domain (values from the input buffer, so nothing is folded),
// names the instruction, and leaves the program's own results unchanged.
func TestSM3DomainProbe(t *testing.T) {
	t.Parallel()
	const head = `@In = global storage [? x u32] binding 0, 0 readonly kind "StructuredBuffer"
@Out = global storage [? x u32] binding 0, 1 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %pa = access ptr<storage, [? x u32]> @In, i32 0
  %pb = access ptr<storage, [? x u32]> @In, i32 1
  %a = load ptr<storage, u32> %pa
  %b = load ptr<storage, u32> %pb
`
	const tail = `  %po = access ptr<storage, [? x u32]> @Out, i32 0
  store u32 %r, ptr<storage, u32> %po
  ret
}
`
	for _, tc := range []struct {
		name, body string
		a, b       uint32
		want       string // offending instruction, "" for none
	}{
		{"sub in domain", "  %r = sub u32 %a, %b\n", 9, 4, ""},
		{"sub wraps", "  %r = sub u32 %a, %b\n", 4, 9, "%r = sub u32 %a, %b"},
		{"largest value", "  %r = add u32 %a, %b\n", 1<<24 - 2, 1, ""},
		{"2^24", "  %r = add u32 %a, %b\n", 1<<24 - 1, 1, "%r = add u32 %a, %b"},
		{"mul wraps to 0", "  %r = mul u32 %a, %b\n", 1 << 16, 1 << 16, "%r = mul u32 %a, %b"},
		{"mul in domain", "  %r = mul u32 %a, %b\n", 4095, 4097, ""},
		{"shl wraps to 0", "  %r = shl u32 %a, 31\n", 60, 0, "%r = shl u32 %a, 31"},
		{"shl in domain", "  %r = shl u32 %a, 3\n", 60, 0, ""},
		{"big input", "  %r = udiv u32 %a, 2\n", 1 << 30, 0, "%a = load ptr<storage, u32> %pa"},
		{"signed negative", "  %s = sub i32 0, 5\n  %ai = bitcast u32 %a to i32\n  %m = mul i32 %ai, %s\n  %n = add i32 %m, 100\n  %r = bitcast i32 %n to u32\n", 20, 0, ""},
		{"signed below -2^24", "  %ai = bitcast u32 %a to i32\n  %m = mul i32 %ai, -4\n  %n = add i32 %m, 100000000\n  %r = bitcast i32 %n to u32\n", 1 << 23, 0, "%m = mul i32 %ai, -4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ir.ParseModule(tc.name, []byte(head+tc.body+tail))
			if err != nil {
				t.Fatal(err)
			}
			in := &interp.Input{Buffers: []interp.BufferInput{{Name: "In", Data: []any{tc.a, tc.b}}, {Name: "Out", Count: 1}}}
			got, err := sm3OutOfDomain(m, in)
			if err != nil {
				t.Fatal(err)
			}
			if (got == "") != (tc.want == "") || !strings.Contains(got, tc.want) {
				t.Errorf("probe says %q, want %q", got, tc.want)
			}
			probe, _ := sm3DomainProbe(m)
			r1, err1 := runAll(m, in)
			r2, err2 := runAll(probe, in)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if a, b := r1[0].Buffer("Out").Cells[0], r2[0].Buffer("Out").Cells[0]; a != b {
				t.Errorf("probe changed the result: %d vs %d", a, b)
			}
		})
	}
}
