// Package sm3lower holds the SM3 back end's own IR pass, sm3-lower, which
// the "sm3" default pipeline ends with, and RepModel, the reference model of
// SM3's rep loops that tests compare its output with. The pass registers
// itself in the pass table (passes.Register) when the package is linked in;
// the SM3 back end (compiler/target/sm3) imports it, so every program that
// can emit SM3 can also run its pipeline.
package sm3lower

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"passlens/compiler/ir"
	"passlens/compiler/passes"
)

// Pass is the sm3-lower pass: carry integers as floats, mark loops for
// SM3 rep (255-iteration cap), reject what SM3 lacks.
//
// Shader models 1-3 have no integer arithmetic: temporary registers are
// floats, and the integer constant registers iN only feed the rep and loop
// instructions. This pass:
//
//   - carries every i32/u32 value as an f32 of the same shape: add, sub, mul
//     become fadd, fsub, fmul; sdiv/udiv become trunc(a / b); srem/urem become
//     frem; neg is fneg; not x is -1 - x; icmp becomes fcmp (ordered; u32
//     values are assumed below 2^24). shl by a constant is a multiplication,
//     ashr/lshr by a constant floor(x * 2^-k), and x & (2^k - 1) is
//     x - floor(x / 2^k) * 2^k. Results are exact while every value stays
//     within +-2^24 (the f32 significand); integer wrap-around is not
//     emulated. Other bitwise operations, variable shifts and integer
//     constants beyond 2^24 are rejected;
//   - casts between integers and floats are copies (MOVs in SM3 assembly),
//     except float-to-integer, which truncates (trunc); bool-to-integer is a
//     select of 1.0 or 0.0 (-1.0 for sext);
//   - memory that is not function-local (uniforms, inputs, outputs, buffers,
//     statics) keeps its declared integer type: loads convert with
//     sitofp/uitofp and stores with fptosi/fptoui, which the back end emits as
//     MOVs (SM3 constant registers hold integers as floats already). Function
//     variables become f32. Dynamic indices are converted with fptosi (the
//     MOVA into an address register);
//   - marks every loop for SM3's rep instruction with a call
//     "intr void sm3.rep(i32 count, bool done)" at the top of its header and
//     materializes the hardware's iteration cap in the IR: a counter variable
//     <header>.rep set to 0 on entry, incremented on each arrival at the
//     header, and done = (counter >= count), which leaves the loop. The back
//     end emits "defi iN, count" (or binds a uniform integer to iN) and
//     "rep iN", and treats done as the rep instruction's own exit. rep runs
//     the header at most count times: on arrival count+1 the loop ends
//     without running the header again. So done must come before every
//     header instruction whose effect shows (a side effect, or a value used
//     after the loop): a header without such code folds done into its exit
//     test; any other header is split, testing only done, its code moved to
//     <header>.body. Header loads of variables used after the loop are loaded
//     again where used when that reads the same value (the variable is only
//     stored in blocks that go on to the header only, as out-of-ssa's copies
//     are), which keeps most headers clean. Values the cap's exit now
//     bypasses reach their uses through variables %<v>.live (when the cap
//     stops a loop they hold the last iteration's value, as registers do).
//     The count is the exact trip count when the loop is a counted loop
//     k = 0; k < N; k++ with N an integer constant (at most 255) or a uniform
//     integer (SM3's "rep i0" with i0 = m), N + 1 when its header is
//     split (it runs N + 1 times; a uniform N then gets the cap, a constant
//     255 is rejected), 1 for the one-trip do{}while(false) loops of
//     switch-to-if; otherwise it is 255, SM3's "defi i0, 255" with a
//     break_ge policy: such a loop runs its body at most 255 times and then stops,
//     whatever its own condition says (a loop that needs 256 iterations
//     stops after 255 - documented, tested behaviour). RepModel runs the
//     output as the hardware would, for tests;
//   - rejects, naming the construct and its source position: wave operations
//     and barriers (no waves in SM3), atomics, bit reinterpretation
//     (asfloat/asint), bit-counting intrinsics, switches (lower them first
//     with switch-to-if<all>), integer parameters of non-entry functions
//     (inline first), integer struct fields in function memory (run sroa
//     first) and constant trip counts above 255 (255 for a split header).
//
// Integer results are exact while every integer value stays strictly within
// +-2^24 and nothing wraps (no u32 below zero, no mul or shl past 2^32);
// programs leaving that domain are outside SM3's semantics (the
// differential test classifies them with a probe run).
var Pass = &passes.Pass{
	Name: "sm3-lower",
	Run:  run,
}

// RepCap is the iteration cap of loops whose trip count is not a
// constant or a uniform integer: the seed's "defi i0, 255".
const RepCap = 255

// RepIntrinsic names the loop marker sm3-lower places in loop headers.
const RepIntrinsic = "sm3.rep"

func init() {
	passes.Register(Pass)
	ir.RegisterIntrinsic(RepIntrinsic, 0, 2, 2,
		"sm3.rep(i32 count, bool done): marks the enclosing loop header as an SM3 rep loop of count iterations; done is true when the count is exhausted (no effect when executed)")
}

func run(m *ir.Module, ctx *passes.Context) (bool, error) {
	if err := sm3Check(m); err != nil {
		return false, err
	}
	changed := false
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		c, err := sm3MarkLoops(f)
		if err != nil {
			return true, err
		}
		if c {
			changed = true
		}
		if sm3IntsToFloats(f) {
			changed = true
		}
	}
	return changed, nil
}

// sm3Where spells an instruction's position for error messages: the
// source line:col when known, else the function and block.
func sm3Where(f *ir.Function, in *ir.Instr) string {
	if in.Loc.Line > 0 {
		return fmt.Sprintf("%d:%d", in.Loc.Line, in.Loc.Col)
	}
	return "@" + ir.QuoteName(f.Name()) + " " + in.Block.Ref()
}

// sm3Check reports every construct SM3 cannot express, each with its
// source position, as one error.
func sm3Check(m *ir.Module) error {
	var errs []error
	bad := func(f *ir.Function, in *ir.Instr, format string, args ...any) {
		errs = append(errs, fmt.Errorf("sm3-lower: %s: %s: `%s`", sm3Where(f, in), fmt.Sprintf(format, args...), ir.InstrString(in)))
	}
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		if f.Entry == nil {
			for _, p := range f.Params {
				if sm3HasInt(p.Type()) {
					errs = append(errs, fmt.Errorf("sm3-lower: function @%s takes integer parameter %s: inline it first (SM3 has no calls with integer registers)", ir.QuoteName(f.Name()), p.Ref()))
				}
			}
			if sm3HasInt(f.Ret) {
				errs = append(errs, fmt.Errorf("sm3-lower: function @%s returns an integer: inline it first", ir.QuoteName(f.Name())))
			}
		}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				sm3CheckInstr(f, in, bad)
			}
		}
		loops, _ := sm3Loops(f)
		for _, l := range loops {
			if l.count != nil {
				if c, ok := l.count.(*ir.Const); ok && c.Int() > RepCap {
					bad(f, l.header.Terminator(), "loop runs %d times, more than the %d iterations an SM3 rep loop can count", c.Int(), RepCap)
				}
			}
		}
	}
	return errors.Join(errs...)
}

func sm3CheckInstr(f *ir.Function, in *ir.Instr, bad func(*ir.Function, *ir.Instr, string, ...any)) {
	t := in.Type()
	// SM3 registers are 32-bit floats: half, double and the 16/64-bit
	// integers have no representation (one error per instruction).
	for _, v := range append([]*ir.Type{t}, argTypes(in)...) {
		if w := sm3WideScalar(v); w != nil {
			bad(f, in, "type %s is not available in shader model 3 (registers hold 32-bit floats; 16- and 64-bit types need SM6)", w)
			return
		}
	}
	switch op := in.Op; {
	case op == ir.OpIntrinsic && in.Intr != nil:
		a := in.Intr.Attrs
		switch {
		case in.Intr.Name == RepIntrinsic:
		case rwTextureOperand(in):
			bad(f, in, "read-write textures (RWTexture*) are unordered access views, which shader model 3 does not have (%s)", in.Intr.Name)
		case in.Intr.Name == ir.ResIndex:
			bad(f, in, "an unbounded resource array (%s) needs shader model 5.1 or later: shader model 3 has no resource arrays", in.Intr.Name)
		case strings.HasPrefix(in.Intr.Name, "tex."):
			sm3CheckTexture(f, in, bad)
		case ir.IsDerivative(in.Intr.Name):
			// ps_3_0 has dsx/dsy, which D3D9 leaves coarse or fine; ddx
			// and ddy (ddx_coarse, ddy_coarse in the IR) and fwidth map
			// to them. ddx_fine/ddy_fine are shader model 5 intrinsics,
			// which FXC does not compile for ps_3_0.
			switch {
			case in.Intr.Name == "ddx_fine" || in.Intr.Name == "ddy_fine":
				bad(f, in, "%s needs shader model 5; ps_3_0's dsx/dsy leave coarse or fine to the hardware (use ddx/ddy)", in.Intr.Name)
			case f.Entry == nil || f.Entry.Stage != ir.StagePixel:
				bad(f, in, "derivative %s (dsx/dsy) needs a pixel shader: only ps_3_0 shades 2×2 quads", in.Intr.Name)
			}
		case in.Intr.Name == ir.Demote:
			// texkill: the killed pixel keeps running for its quad.
		case ir.IsQuadOp(in.Intr.Name):
			bad(f, in, "quad operation %s is not available in shader model 3 (lanes of a quad cannot read each other)", in.Intr.Name)
		case a.Has(ir.AttrWave):
			bad(f, in, "wave operation %s is not available in shader model 3 (no waves)", in.Intr.Name)
		case a.Has(ir.AttrBarrier):
			bad(f, in, "barrier %s is not available in shader model 3", in.Intr.Name)
		case a.Has(ir.AttrConvergent):
			bad(f, in, "%s is not available in shader model 3", in.Intr.Name)
		default:
			switch in.Intr.Name {
			case "countbits", "firstbithigh", "firstbitlow", "reversebits", "f16tof32", "f32tof16":
				bad(f, in, "%s works on integer bits, which SM3 does not have", in.Intr.Name)
			}
		}
	case op == ir.OpAtomic:
		bad(f, in, "atomic operations are not available in shader model 3")
	case op == ir.OpCall && in.Callee != nil && in.Callee.IsDeclaration():
		c := in.Callee
		for _, p := range c.Params {
			if sm3HasInt(p.Type()) {
				bad(f, in, "call of external @%s with integer parameter %s: SM3 integers are floats", ir.QuoteName(c.Name()), p.Ref())
				break
			}
		}
		if sm3HasInt(c.Ret) {
			bad(f, in, "call of external @%s returning an integer: SM3 integers are floats", ir.QuoteName(c.Name()))
		}
	case op == ir.OpSwitch:
		bad(f, in, "SM3 has no switch instruction: run switch-to-if<all> before sm3-lower")
	case op == ir.OpBitcast:
		s := in.Args[0].Type().Scalar()
		if (s.Kind == ir.KFloat) != (t.Scalar().Kind == ir.KFloat) {
			bad(f, in, "bit reinterpretation between integers and floats (asfloat/asint/asuint) is not expressible with float registers")
		}
	case op == ir.OpOr || op == ir.OpXor:
		if sm3HasInt(t) {
			bad(f, in, "bitwise %s on integers is not expressible in SM3 (integers are carried as floats)", op)
		}
	case op == ir.OpAnd:
		if sm3HasInt(t) {
			if _, ok := sm3LowMask(in.Args[1]); !ok {
				if _, ok := sm3LowMask(in.Args[0]); !ok {
					bad(f, in, "bitwise and on integers is only expressible in SM3 with a constant mask of the form 2^k - 1 (integers are carried as floats)")
				}
			}
		}
	case op == ir.OpShl || op == ir.OpAShr || op == ir.OpLShr:
		if _, ok := sm3ShiftAmount(in.Args[1]); !ok {
			bad(f, in, "%s by a non-constant amount is not expressible in SM3 (integers are carried as floats)", op)
		}
	case op == ir.OpAlloca:
		if e := t.Elem; sm3HasInt(e) && sm3HasStruct(e) {
			bad(f, in, "a function variable of type %s holds integers inside a struct: run sroa first", e)
		}
	}
	for _, a := range in.Args {
		if c, ok := a.(*ir.Const); ok && sm3HasInt(c.Type()) && !sm3IndexOperand(in, a) {
			if v, ok := sm3BigConst(c); ok {
				bad(f, in, "integer constant %d is not exactly representable as a float (beyond 2^24)", v)
			}
		}
	}
}

// argTypes lists the types of in's operands.
func argTypes(in *ir.Instr) []*ir.Type {
	out := make([]*ir.Type, 0, len(in.Args))
	for _, a := range in.Args {
		out = append(out, a.Type())
	}
	return out
}

// sm3WideScalar returns the first 16- or 64-bit scalar type inside t
// (through vectors, matrices, arrays, structs and pointers), or nil.
func sm3WideScalar(t *ir.Type) *ir.Type {
	switch {
	case t == nil:
		return nil
	case t.Kind == ir.KInt || t.Kind == ir.KUint || t.Kind == ir.KFloat:
		if t.Bits == 16 || t.Bits == 64 {
			return t
		}
	case t.Kind == ir.KStruct:
		for _, fl := range t.Fields {
			if w := sm3WideScalar(fl.Type); w != nil {
				return w
			}
		}
	case t.Elem != nil:
		return sm3WideScalar(t.Elem)
	}
	return nil
}

// sm3IndexOperand reports whether operand a of in is an index (kept as an
// integer) rather than data.
func sm3IndexOperand(in *ir.Instr, a ir.Value) bool {
	switch in.Op {
	case ir.OpAccess:
		return len(in.Args) > 0 && in.Args[0] != a
	case ir.OpExtractElem:
		return len(in.Args) > 1 && in.Args[1] == a
	case ir.OpInsertElem:
		return len(in.Args) > 2 && in.Args[2] == a
	case ir.OpIntrinsic:
		return in.Intr != nil && in.Intr.Name == RepIntrinsic
	case ir.OpMemset:
		return true
	case ir.OpShl, ir.OpAShr, ir.OpLShr, ir.OpAnd:
		return len(in.Args) > 1 && in.Args[1] == a
	}
	return false
}

// sm3BigConst returns an integer component of c whose magnitude exceeds 2^24.
func sm3BigConst(c *ir.Const) (int64, bool) {
	if c.Zero || c.Undef {
		return 0, false
	}
	if c.Type().IsScalar() {
		if v := c.Int(); v > 1<<24 || v < -(1<<24) {
			return v, true
		}
		return 0, false
	}
	for _, e := range c.Elems {
		if v, ok := sm3BigConst(e); ok {
			return v, true
		}
	}
	return 0, false
}

func sm3HasInt(t *ir.Type) bool {
	switch t.Kind {
	case ir.KInt, ir.KUint:
		return true
	case ir.KVector, ir.KMatrix, ir.KArray:
		return sm3HasInt(t.Elem)
	case ir.KStruct:
		for _, fl := range t.Fields {
			if sm3HasInt(fl.Type) {
				return true
			}
		}
	}
	return false
}

func sm3HasStruct(t *ir.Type) bool {
	switch t.Kind {
	case ir.KStruct:
		return true
	case ir.KArray:
		return sm3HasStruct(t.Elem)
	}
	return false
}

// sm3FloatOf returns t with every integer scalar replaced by f32 (structs are
// kept: sm3Check rejected those that hold integers in function memory).
func sm3FloatOf(t *ir.Type) *ir.Type {
	switch t.Kind {
	case ir.KInt, ir.KUint:
		return ir.F32
	case ir.KVector:
		return ir.Vec(sm3FloatOf(t.Elem), t.Len)
	case ir.KMatrix:
		return ir.Mat(sm3FloatOf(t.Elem), t.Len, t.Cols)
	case ir.KArray:
		return ir.Array(sm3FloatOf(t.Elem), t.Len)
	}
	return t
}

// sm3FloatConst converts an integer constant to the float constant of the
// same value (sm3Check rejected the inexact ones).
func sm3FloatConst(c *ir.Const) *ir.Const {
	t := sm3FloatOf(c.Type())
	switch {
	case c.Zero:
		return ir.ConstZero(t)
	case c.Undef:
		return ir.ConstUndef(t)
	case c.Type().IsIntegral():
		return ir.ConstFloat(ir.F32, float64(c.Int()))
	}
	if c.Type().IsScalar() {
		return c
	}
	elems := make([]*ir.Const, len(c.Elems))
	for i, e := range c.Elems {
		elems[i] = sm3FloatConst(e)
	}
	return ir.ConstAggregate(t, elems)
}

// sm3LowMask returns k if v is the integer constant 2^k - 1 (0 <= k <= 24),
// as a scalar or a splat.
func sm3LowMask(v ir.Value) (int, bool) {
	x, ok := sm3SplatInt(v)
	if !ok || x < 0 || x > 1<<24-1 || x&(x+1) != 0 {
		return 0, false
	}
	k := 0
	for ; x != 0; x >>= 1 {
		k++
	}
	return k, true
}

// sm3ShiftAmount returns the constant shift count of v (0..31).
func sm3ShiftAmount(v ir.Value) (int, bool) {
	x, ok := sm3SplatInt(v)
	if !ok || x < 0 || x > 31 {
		return 0, false
	}
	return int(x), true
}

// sm3SplatInt returns the value of an integer constant or integer splat.
func sm3SplatInt(v ir.Value) (int64, bool) {
	c, ok := v.(*ir.Const)
	if !ok || c.Undef || !c.Type().Scalar().IsIntegral() {
		return 0, false
	}
	if c.Zero {
		return 0, true
	}
	if c.Type().IsScalar() {
		return c.Int(), true
	}
	var x int64
	for i, e := range c.Elems {
		if i == 0 {
			x = e.Int()
		} else if e.Int() != x {
			return 0, false
		}
	}
	return x, len(c.Elems) > 0
}

// ---- loops ----

// sm3Loop is a structured loop and the rep count chosen for it: an exact
// count (constant or uniform integer load) for recognized counted loops,
// nil for the capped default.
type sm3Loop struct {
	header *ir.Block
	merge  *ir.Block
	count  ir.Value
}

// sm3LoopInfo is what the loop analysis needs of a function, computed
// once: constructs, predecessors and users.
type sm3LoopInfo struct {
	cs    *passes.Constructs
	preds map[*ir.Block][]*ir.Block
	users map[ir.Value][]*ir.Instr
}

// sm3Loops finds f's annotated loops and their rep counts.
func sm3Loops(f *ir.Function) ([]sm3Loop, *sm3LoopInfo) {
	li := &sm3LoopInfo{cs: passes.AnalyzeConstructs(f), preds: passes.DistinctPreds(f), users: passes.Users(f)}
	var out []sm3Loop
	for _, c := range li.cs.List() {
		if !c.IsLoop {
			continue
		}
		out = append(out, sm3Loop{header: c.Header, merge: c.Merge, count: sm3CountedLoop(li, c)})
	}
	return out, li
}

// sm3CountedLoop recognizes "for (k = 0; k < N; k++)": the header's exit test
// compares an induction variable that starts at 0 and grows by 1 on the
// back edge (a phi, or after out-of-ssa a variable loaded at the top of
// the header) with N, an integer constant or a load of a uniform integer.
// It returns N (a constant below 0 counts as 0), or nil.
func sm3CountedLoop(li *sm3LoopInfo, l *passes.Construct) ir.Value {
	if sm3OneTrip(li, l) {
		return ir.ConstInt(ir.I32, 1)
	}
	t := l.Header.Terminator()
	if t.Op != ir.OpCondBr {
		return nil
	}
	cmp, ok := t.Args[0].(*ir.Instr)
	if !ok || cmp.Op != ir.OpICmp || cmp.Block != l.Header {
		return nil
	}
	// Normalize to "continue while k < N".
	k, n := cmp.Args[0], cmp.Args[1]
	pred := cmp.Pred
	switch pred {
	case ir.PredSGT, ir.PredUGT, ir.PredSLE, ir.PredULE:
		k, n = n, k
		pred = map[ir.CmpPred]ir.CmpPred{ir.PredSGT: ir.PredSLT, ir.PredUGT: ir.PredULT, ir.PredSLE: ir.PredSGE, ir.PredULE: ir.PredUGE}[pred]
	}
	exitOnTrue := t.Succs[0] == l.Merge
	switch {
	case (pred == ir.PredSLT || pred == ir.PredULT) && t.Succs[1] == l.Merge && t.Succs[0] != l.Merge:
	case (pred == ir.PredSGE || pred == ir.PredUGE) && exitOnTrue && t.Succs[1] != l.Merge:
	default:
		return nil
	}
	if !sm3InductionFromZero(li, l, k) {
		return nil
	}
	switch x := n.(type) {
	case *ir.Const:
		if x.Type().IsIntegral() && !x.Undef {
			if x.Int() < 0 {
				return ir.ConstInt(x.Type(), 0)
			}
			return x
		}
	case *ir.Instr:
		if sm3UniformLoad(x) {
			return x
		}
	}
	return nil
}

// sm3UniformLoad reports whether x loads a scalar integer from uniform
// memory at a constant place: the global itself or a constant access chain
// into it (cbuffer $Globals members), which the back end binds to an
// integer constant register.
func sm3UniformLoad(x *ir.Instr) bool {
	if x.Op != ir.OpLoad || !x.Type().IsIntegral() || !x.Type().IsScalar() {
		return false
	}
	p := x.Args[0]
	for {
		switch v := p.(type) {
		case *ir.Global:
			return v.Space == ir.SpaceUniform
		case *ir.Instr:
			if v.Op != ir.OpAccess {
				return false
			}
			for _, a := range v.Args[1:] {
				if _, ok := a.(*ir.Const); !ok {
					return false
				}
			}
			p = v.Args[0]
		default:
			return false
		}
	}
}

// sm3OneTrip recognizes do{}while(false), the loop switch-to-if builds:
// every back edge is taken on a constant false (or its false edge leaves
// on true), so the header runs once.
func sm3OneTrip(li *sm3LoopInfo, l *passes.Construct) bool {
	backs := 0
	for _, p := range li.preds[l.Header] {
		if !li.cs.Contains(l, p) {
			continue
		}
		backs++
		t := p.Terminator()
		if t == nil || t.Op != ir.OpCondBr {
			return false
		}
		c, ok := t.Args[0].(*ir.Const)
		if !ok || c.Undef {
			return false
		}
		taken := t.Succs[1]
		if c.Bool() {
			taken = t.Succs[0]
		}
		if taken == l.Header {
			return false
		}
	}
	return backs > 0
}

// sm3InductionFromZero reports whether k is 0 on entry to loop l and k+1 on
// every back edge.
func sm3InductionFromZero(li *sm3LoopInfo, l *passes.Construct, k ir.Value) bool {
	cs := li.cs
	ki, ok := k.(*ir.Instr)
	if !ok || ki.Block != l.Header {
		return false
	}
	isZero := func(v ir.Value) bool {
		c, ok := v.(*ir.Const)
		return ok && c.Type().IsIntegral() && !c.Undef && (c.Zero || c.Int() == 0)
	}
	isNext := func(v ir.Value) bool {
		a, ok := v.(*ir.Instr)
		if !ok || a.Op != ir.OpAdd {
			return false
		}
		one := func(x ir.Value) bool { c, ok := x.(*ir.Const); return ok && !c.Zero && !c.Undef && c.Int() == 1 }
		return (a.Args[0] == k && one(a.Args[1])) || (a.Args[1] == k && one(a.Args[0]))
	}
	switch ki.Op {
	case ir.OpPhi:
		for i, pb := range ki.PhiBlocks {
			v := ki.Args[i]
			if cs.Contains(l, pb) {
				if !isNext(v) {
					return false
				}
			} else if !isZero(v) {
				return false
			}
		}
		return len(ki.Args) > 0
	case ir.OpLoad:
		v, ok := ki.Args[0].(*ir.Instr)
		if !ok || v.Op != ir.OpAlloca {
			return false
		}
		// Every use of the variable is a load or a store into it; stores
		// outside the loop store 0, the one inside stores k+1 on the way
		// back to the header.
		inside := 0
		for _, in := range passes.UniqueUsers(li.users[v]) {
			for i, a := range in.Args {
				if a != ir.Value(v) {
					continue
				}
				switch {
				case in.Op == ir.OpLoad:
				case in.Op == ir.OpStore && i == 1:
					if cs.Contains(l, in.Block) {
						inside++
						if !isNext(in.Args[0]) || !sm3BackEdgeBlock(in.Block, l) {
							return false
						}
					} else if !isZero(in.Args[0]) {
						return false
					}
				default:
					return false
				}
			}
		}
		return inside == 1
	}
	return false
}

// sm3BackEdgeBlock reports whether b's only successor is l's header.
func sm3BackEdgeBlock(b *ir.Block, l *passes.Construct) bool {
	s := passes.DistinctSuccs(b)
	return len(s) == 1 && s[0] == l.Header
}

// sm3MarkLoops places the rep marker and the iteration cap in every loop.
//
// The IR must mean what the hardware does: "rep iN" runs the loop's header
// (and, unless the header's own test leaves, its body) at most count times,
// and on arrival number count+1 leaves without running the header again.
// So the cap's exit, done, must come before every header instruction whose
// effect is observable: a side effect, or a value used after the loop. A
// header without such instructions ("clean") keeps its code and folds done
// into its exit test; the others are split: the header only tests done and
// its code moves to a new block <header>.body. A clean header runs count
// times under the hardware and count+1 times in a counted loop k < N; a
// split one must run N+1 times, so its count is N+1 (a uniform N cannot be
// incremented: such a loop gets the 255 cap).
func sm3MarkLoops(f *ir.Function) (bool, error) {
	loops, li := sm3Loops(f)
	if len(loops) == 0 {
		return false, nil
	}
	cs, preds := li.cs, li.preds
	entry := f.Blocks[0]
	// addPred records a new edge from -> to in preds.
	addPred := func(to, from *ir.Block) {
		for _, x := range preds[to] {
			if x == from {
				return
			}
		}
		preds[to] = append(preds[to], from)
	}
	// Blocks created here stand for the header they were split from.
	origin := map[*ir.Block]*ir.Block{}
	// Users of the original instructions (kept up to date by the reloads;
	// the instructions created here are not looked up).
	users := passes.Users(f)
	for _, l := range loops {
		h := l.header
		c := cs.ByHeader(h)
		t := h.Terminator()
		loc := t.Loc
		inside := func(b *ir.Block) bool {
			if o, ok := origin[b]; ok {
				b = o
			}
			return cs.Contains(c, b)
		}
		sm3ReloadLiveOuts(f, h, inside, users)
		clean := sm3CleanHeader(h, inside, users)
		count := l.count
		if !clean && count != nil {
			if cc, ok := count.(*ir.Const); ok {
				if cc.Int() >= RepCap {
					return true, fmt.Errorf("sm3-lower: %s: loop runs %d times and its header %s has side effects or values used after the loop, so it must run %d times: more than the %d an SM3 rep loop can count",
						sm3Where(f, t), cc.Int(), h.Ref(), cc.Int()+1, RepCap)
				}
				count = ir.ConstInt(cc.Type(), cc.Int()+1)
			} else {
				count = nil // a uniform count cannot be incremented: the cap
			}
		}
		name := h.Name() + ".rep"
		counter := passes.NewInstr(f, ir.OpAlloca, ir.Ptr(ir.SpaceFunction, ir.F32), name)
		counter.Loc = loc
		passes.InsertAt(entry, 0, counter)
		// 0 on every edge into the loop.
		for _, p := range preds[h] {
			if inside(p) {
				continue
			}
			bd := ir.NewBuilder(f)
			bd.Loc = loc
			bd.SetBeforeTerminator(p)
			bd.Store(ir.ConstFloat(ir.F32, 0), counter)
		}
		bd := ir.NewBuilder(f)
		bd.Loc = loc
		bd.SetAfterPhis(h)
		var count32 ir.Value = ir.ConstInt(ir.I32, RepCap)
		var countF ir.Value = ir.ConstFloat(ir.F32, RepCap)
		if count != nil {
			count32 = count
			if cc, ok := count.(*ir.Const); ok {
				countF = ir.ConstFloat(ir.F32, float64(cc.Int()))
			} else {
				// A load of a uniform integer: the comparison below reads
				// it as the float it becomes (sm3IntsToFloats converts the
				// load), the marker as the integer register. It (and its
				// access chain) must come before the marker.
				countF = count
				sm3Hoist(count.(*ir.Instr), h, h.FirstNonPhi())
				bd.SetAfterPhis(h)
				if ci := count.(*ir.Instr); ci.Block == h {
					bd.SetBefore(h.Instrs[passes.IndexInBlock(ci)+1])
				}
			}
		}
		n := bd.Load(counter, name+".n")
		done := bd.Cmp(ir.PredOGE, n, countF, name+".done")
		bd.Intrinsic(RepIntrinsic, ir.Void, []ir.Value{count32, done}, "")
		next := bd.Binary(ir.OpFAdd, n, ir.ConstFloat(ir.F32, 1), name+".next")
		bd.Store(next, counter)
		// Leave the loop when done.
		bd.SetBefore(t)
		switch {
		case clean && t.Op == ir.OpCondBr && t.Succs[1] == l.merge && t.Succs[0] != l.merge:
			t.Args[0] = bd.Select(done, ir.ConstBool(ir.Bool, false), t.Args[0], name+".go")
		case clean && t.Op == ir.OpCondBr && t.Succs[0] == l.merge && t.Succs[1] != l.merge:
			t.Args[0] = bd.Select(done, ir.ConstBool(ir.Bool, true), t.Args[0], name+".stop")
		case clean && t.Op == ir.OpBr:
			body := t.Succs[0]
			nt := passes.NewCondBr(f, done, l.merge, body)
			nt.SetLoopMerge(l.merge, t.Continue)
			nt.Loc = loc
			t.Remove()
			passes.AppendInstr(h, nt)
			addPred(l.merge, h)
			for _, phi := range l.merge.Phis() {
				phi.AddIncoming(ir.ConstUndef(phi.Type()), h)
			}
		case t.Op == ir.OpBr || (t.Op == ir.OpCondBr && (t.Succs[0] == l.merge) != (t.Succs[1] == l.merge)):
			// The header's code must not run once more when the cap stops
			// the loop: the header only tests the cap and its code moves to
			// a new block, where the exit test is a conditional break (no
			// merge of its own needed).
			first := passes.IndexInBlock(next) + 2 // after the counter's store
			rest := f.NewBlockAfter(h, h.Name()+".body")
			origin[rest] = h
			passes.MoveTail(h, first, rest)
			rt := rest.Terminator()
			merge, cont := rt.Merge, rt.Continue
			rt.ClearMerge()
			if cont == h {
				cont = rest // a one-block loop: the code is its continue construct
			}
			nt := passes.NewCondBr(f, done, l.merge, rest)
			nt.SetLoopMerge(merge, cont)
			nt.Loc = loc
			passes.AppendInstr(h, nt)
			for _, s := range passes.DistinctSuccs(rest) {
				for i, x := range preds[s] {
					if x == h {
						preds[s][i] = rest
					}
				}
			}
			preds[rest] = []*ir.Block{h}
			addPred(l.merge, h)
			for _, phi := range l.merge.Phis() {
				phi.AddIncoming(ir.ConstUndef(phi.Type()), h)
			}
		default:
			return true, fmt.Errorf("sm3-lower: %s: loop header %s branches into its body in two directions; an SM3 rep loop needs the header to test only for leaving the loop",
				sm3Where(f, t), h.Ref())
		}
	}
	// The cap's exits bypass code that used to dominate the loop's merge.
	return true, sm3RouteLiveOuts(f)
}

// sm3CleanHeader reports whether h's code (after its phis, before its
// terminator) has no side effect and no value used outside the loop, so
// that running it once more or once less when the rep cap stops the loop
// changes nothing.
func sm3CleanHeader(h *ir.Block, inside func(*ir.Block) bool, users map[ir.Value][]*ir.Instr) bool {
	t := h.Terminator()
	for _, in := range h.Instrs[h.FirstNonPhi():] {
		if in == t {
			continue
		}
		if in.HasSideEffects() {
			return false
		}
		for _, u := range users[in] {
			if !inside(u.Block) {
				return false
			}
		}
	}
	return true
}

// sm3ReloadLiveOuts lets header loads of function variables be used after
// the loop without pinning the header's last run: a use outside the loop
// loads the variable again, right before the use. That reads the same
// value when every store to the variable is in a block that goes on only
// to the header (out-of-ssa's stores on the edges into a phi's block):
// between the header's last run and the use no such block runs. With
// loads this is what lets "for (k = 0; k < m; k++) res += k" keep an exact
// count (rep i0 = m) after out-of-ssa.
func sm3ReloadLiveOuts(f *ir.Function, h *ir.Block, inside func(*ir.Block) bool, users map[ir.Value][]*ir.Instr) {
	t := h.Terminator()
	for _, in := range append([]*ir.Instr(nil), h.Instrs[h.FirstNonPhi():]...) {
		if in.Op != ir.OpLoad || in == t {
			continue
		}
		v, ok := in.Args[0].(*ir.Instr)
		if !ok || v.Op != ir.OpAlloca {
			continue
		}
		var outside []*ir.Instr
		for _, u := range passes.UniqueUsers(users[in]) {
			if !inside(u.Block) {
				if u.Op == ir.OpPhi {
					outside = nil // SSA form: not handled, the header is split
					break
				}
				outside = append(outside, u)
			}
		}
		if len(outside) == 0 {
			continue
		}
		ok = true
		for _, u := range passes.UniqueUsers(users[v]) {
			switch {
			case u.Op == ir.OpLoad:
			case u.Op == ir.OpStore && u.Args[1] == ir.Value(v) && u.Args[0] != ir.Value(v):
				s := passes.DistinctSuccs(u.Block)
				ok = ok && len(s) == 1 && s[0] == h && u.Block != h
			default:
				ok = false
			}
		}
		if !ok {
			continue
		}
		moved := map[*ir.Instr]bool{}
		for _, u := range outside {
			moved[u] = true
			ld := passes.NewInstr(f, ir.OpLoad, in.Type(), in.Name())
			ld.Args = []ir.Value{v}
			ld.Loc = u.Loc
			passes.InsertAt(u.Block, passes.IndexInBlock(u), ld)
			for i, a := range u.Args {
				if a == ir.Value(in) {
					u.Args[i] = ld
				}
			}
		}
		kept := users[in][:0]
		for _, u := range users[in] {
			if !moved[u] {
				kept = append(kept, u)
			}
		}
		users[in] = kept
	}
}

// sm3Hoist moves the uniform load x (and the access chain it loads through,
// when that is in the same block) to position i of h, if it is in h.
func sm3Hoist(x *ir.Instr, h *ir.Block, i int) {
	if x.Block != h {
		return
	}
	var chain []*ir.Instr
	for p, ok := x.Args[0].(*ir.Instr); ok && p.Block == h && p.Op == ir.OpAccess; p, ok = p.Args[0].(*ir.Instr) {
		chain = append([]*ir.Instr{p}, chain...)
	}
	chain = append(chain, x)
	for _, in := range chain {
		in.Remove()
	}
	for k, in := range chain {
		passes.InsertAt(h, i+k, in)
	}
}

// sm3RouteLiveOuts keeps f valid after the cap's exits were added: a value
// whose definition no longer dominates a use (defined in a loop's body or
// split header and used after the loop, which the cap's exit now reaches
// without passing the definition) is stored to a variable %<v>.live right
// after its definition and loaded right before the use; an access chain is
// recomputed at the use instead. When the cap stops the loop the use reads
// the value of the last iteration that ran: what the SM3 register holds.
func sm3RouteLiveOuts(f *ir.Function) error {
	entry := f.Blocks[0]
	for round := 0; ; round++ {
		if round > len(f.Blocks)+8 {
			return f.Errorf("sm3-lower: could not restore dominance after adding the rep exits")
		}
		dt := passes.NewDomTree(f)
		pos := map[*ir.Instr]int{}
		for _, b := range f.Blocks {
			for i, in := range b.Instrs {
				pos[in] = i
			}
		}
		// where returns the block and position a use is evaluated at.
		where := func(u *ir.Instr, k int) (*ir.Block, int) {
			if u.Op == ir.OpPhi {
				b := u.PhiBlocks[k]
				return b, len(b.Instrs)
			}
			return u.Block, pos[u]
		}
		// at is where for the rewrites below, which shift positions.
		at := func(u *ir.Instr, k int) (*ir.Block, int) {
			if u.Op == ir.OpPhi {
				b := u.PhiBlocks[k]
				return b, len(b.Instrs)
			}
			return u.Block, passes.IndexInBlock(u)
		}
		type def struct {
			d    *ir.Instr
			uses []sm3Use
		}
		var defs []*def
		byDef := map[*ir.Instr]*def{}
		for _, b := range f.Blocks {
			if !dt.Reachable(b) {
				continue
			}
			for _, in := range b.Instrs {
				for k, a := range in.Args {
					d, ok := a.(*ir.Instr)
					if !ok || d.Block == nil || !dt.Reachable(d.Block) {
						continue
					}
					ub, ui := where(in, k)
					if !dt.Reachable(ub) {
						continue
					}
					if ub == d.Block {
						if d.Op == ir.OpPhi || pos[d] < ui {
							continue
						}
					} else if dt.Dominates(d.Block, ub) {
						continue
					}
					e := byDef[d]
					if e == nil {
						e = &def{d: d}
						byDef[d] = e
						defs = append(defs, e)
					}
					e.uses = append(e.uses, sm3Use{in, k})
				}
			}
		}
		if len(defs) == 0 {
			return nil
		}
		for _, e := range defs {
			d := e.d
			if d.Type().Kind == ir.KPointer {
				if d.Op != ir.OpAccess {
					return f.Errorf("sm3-lower: cannot carry pointer %s (%s) past the rep exit of a loop", d.Ref(), d.Op)
				}
				for _, u := range e.uses {
					ub, ui := at(u.in, u.arg)
					c := passes.CloneInstr(f, d)
					if u.in.Op == ir.OpPhi {
						ui = len(ub.Instrs) - 1 // before the terminator
					}
					passes.InsertAt(ub, ui, c)
					c.Block = ub
					u.in.Args[u.arg] = c
				}
				continue
			}
			a := passes.NewInstr(f, ir.OpAlloca, ir.Ptr(ir.SpaceFunction, d.Type()), d.Name()+".live")
			a.Loc = d.Loc
			passes.InsertAt(entry, 0, a)
			st := ir.NewInstr(f, ir.OpStore, ir.Void, "")
			st.Args = []ir.Value{d, a}
			st.Loc = d.Loc
			after := passes.IndexInBlock(d) + 1
			if d.Op == ir.OpPhi {
				after = d.Block.FirstNonPhi()
			}
			passes.InsertAt(d.Block, after, st)
			for _, u := range e.uses {
				ub, ui := at(u.in, u.arg)
				if u.in.Op == ir.OpPhi {
					ui = len(ub.Instrs) - 1 // before the terminator
				}
				ld := passes.NewInstr(f, ir.OpLoad, d.Type(), d.Name())
				ld.Args = []ir.Value{a}
				ld.Loc = u.in.Loc
				passes.InsertAt(ub, ui, ld)
				u.in.Args[u.arg] = ld
			}
		}
	}
}

// ---- integers as floats ----

// sm3IntsToFloats retypes f's integer values as floats, rewriting the
// operations that change. Each block is rebuilt once (new instructions
// collected in a scratch block and spliced in), and the uses of integer
// loads from outside memory move to their conversions in one walk, so the
// work is linear in the function's size.
func sm3IntsToFloats(f *ir.Function) bool {
	changed := false
	// Which values were integers before any was retyped (operands may be
	// rewritten before or after their users, in layout order).
	wasInt := map[ir.Value]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if sm3HasInt(in.Type()) {
				wasInt[in] = true
			}
		}
	}
	intVal := func(v ir.Value) bool {
		if in, ok := v.(*ir.Instr); ok {
			return wasInt[in]
		}
		return sm3HasInt(v.Type())
	}
	scratch := &ir.Block{Func: f}
	bd := ir.NewBuilder(f)
	conv := map[ir.Value]ir.Value{} // integer load from outside -> its float
	for _, b := range f.Blocks {
		out := make([]*ir.Instr, 0, len(b.Instrs))
		for _, in := range b.Instrs {
			scratch.Instrs = scratch.Instrs[:0]
			bd.SetBlock(scratch)
			bd.Loc = in.Loc
			c, after := sm3Rewrite(f, in, bd, intVal)
			changed = changed || c
			for _, x := range scratch.Instrs {
				x.Block = b
				out = append(out, x)
			}
			out = append(out, in)
			if after != nil {
				after.Block = b
				out = append(out, after)
				conv[in] = after
			}
		}
		b.Instrs = out
	}
	if len(conv) == 0 {
		return changed
	}
	// Uses of the loaded integers read the converted floats; the rep
	// marker keeps the integer (it names the integer register).
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpIntrinsic && in.Intr.Name == RepIntrinsic {
				continue
			}
			for i, a := range in.Args {
				if cv, ok := conv[a]; ok && cv != ir.Value(in) {
					in.Args[i] = cv
				}
			}
		}
	}
	return true
}

// sm3ExternalPtr reports a pointer into memory other than function
// variables.
func sm3ExternalPtr(p ir.Value) bool {
	t := p.Type()
	return t.Kind == ir.KPointer && t.Space != ir.SpaceFunction
}

// sm3Rewrite converts one instruction. New instructions it needs before in
// are emitted with bd; an instruction to place right after in (the
// conversion of an integer loaded from outside memory) is returned.
func sm3Rewrite(f *ir.Function, in *ir.Instr, bd *ir.Builder, intVal func(ir.Value) bool) (changed bool, after *ir.Instr) {
	t := in.Type()
	convArgs := func() {
		for i, a := range in.Args {
			if c, ok := a.(*ir.Const); ok && sm3HasInt(c.Type()) && !sm3IndexOperand(in, a) {
				in.Args[i] = sm3FloatConst(c)
			}
		}
	}
	retype := func() { in.SetType(sm3FloatOf(t)) }
	splat := func(x float64) ir.Value { return ir.ConstFloat(sm3FloatOf(t), x) }
	switch op := in.Op; {
	case op == ir.OpIntrinsic && in.Intr.Name == RepIntrinsic:
		return false, nil
	case op == ir.OpAlloca:
		if !sm3HasInt(t.Elem) {
			return false, nil
		}
		in.SetType(ir.Ptr(ir.SpaceFunction, sm3FloatOf(t.Elem)))
	case op == ir.OpLoad:
		if !sm3HasInt(t) {
			return false, nil
		}
		if sm3ExternalPtr(in.Args[0]) {
			// The load keeps its integer type (a MOV from a constant
			// register holding the integer as a float) and is converted.
			op := ir.OpSIToFP
			if t.Scalar().Kind == ir.KUint {
				op = ir.OpUIToFP
			}
			cv := ir.NewInstr(f, op, sm3FloatOf(t), in.Name()+".f")
			cv.Args = []ir.Value{in}
			cv.Loc = in.Loc
			return true, cv
		}
		retype()
	case op == ir.OpStore:
		vt := in.Args[1].Type().Elem // the declared pointee: still integer in outside memory
		if !intVal(in.Args[0]) {
			return false, nil
		}
		if sm3ExternalPtr(in.Args[1]) {
			v := in.Args[0]
			if _, ok := v.(*ir.Const); ok {
				return false, nil // an integer constant is stored as is
			}
			op := ir.OpFPToSI
			if vt.Scalar().Kind == ir.KUint {
				op = ir.OpFPToUI
			}
			in.Args[0] = bd.Cast(op, v, vt, passes.BaseName(v)+".i")
			return true, nil
		}
		convArgs()
	case op == ir.OpAccess:
		did := false
		for i := 1; i < len(in.Args); i++ {
			if _, ok := in.Args[i].(*ir.Const); !ok && intVal(in.Args[i]) {
				in.Args[i] = bd.Cast(ir.OpFPToSI, in.Args[i], ir.I32, passes.BaseName(in.Args[i])+".idx")
				did = true
			}
		}
		if in.Args[0].Type().Space == ir.SpaceFunction && sm3HasInt(t.Elem) {
			in.SetType(ir.Ptr(ir.SpaceFunction, sm3FloatOf(t.Elem)))
			did = true
		}
		return did, nil
	case op == ir.OpExtractElem || op == ir.OpInsertElem:
		k := 1
		if op == ir.OpInsertElem {
			k = 2
		}
		did := false
		if _, ok := in.Args[k].(*ir.Const); !ok && intVal(in.Args[k]) {
			in.Args[k] = bd.Cast(ir.OpFPToSI, in.Args[k], ir.I32, passes.BaseName(in.Args[k])+".idx")
			did = true
		}
		if !sm3HasInt(t) {
			return did, nil
		}
		convArgs()
		retype()
	case op == ir.OpAdd || op == ir.OpSub || op == ir.OpMul || op == ir.OpSRem || op == ir.OpURem:
		in.Op = map[ir.Op]ir.Op{ir.OpAdd: ir.OpFAdd, ir.OpSub: ir.OpFSub, ir.OpMul: ir.OpFMul, ir.OpSRem: ir.OpFRem, ir.OpURem: ir.OpFRem}[op]
		convArgs()
		retype()
	case op == ir.OpSDiv || op == ir.OpUDiv:
		convArgs()
		q := bd.Binary(ir.OpFDiv, in.Args[0], in.Args[1], in.Name()+".q")
		q.SetType(sm3FloatOf(t))
		sm3Intrinsic(in, "trunc", q)
		retype()
	case op == ir.OpNeg:
		in.Op = ir.OpFNeg
		retype()
	case op == ir.OpNot && sm3HasInt(t):
		in.Op = ir.OpFSub
		in.Args = []ir.Value{splat(-1), in.Args[0]}
		retype()
	case op == ir.OpShl:
		k, _ := sm3ShiftAmount(in.Args[1])
		in.Op = ir.OpFMul
		retype()
		in.Args = []ir.Value{sm3ConvOne(in.Args[0]), splat(math.Ldexp(1, k))}
	case op == ir.OpAShr || op == ir.OpLShr:
		k, _ := sm3ShiftAmount(in.Args[1])
		x := sm3ConvOne(in.Args[0])
		q := bd.Binary(ir.OpFMul, x, ir.ConstFloat(sm3FloatOf(t), math.Ldexp(1, -k)), in.Name()+".q")
		q.SetType(sm3FloatOf(t))
		sm3Intrinsic(in, "floor", q)
		retype()
	case op == ir.OpAnd && sm3HasInt(t):
		x, mask := in.Args[0], in.Args[1]
		k, ok := sm3LowMask(mask)
		if !ok {
			k, _ = sm3LowMask(x)
			x = mask
		}
		x = sm3ConvOne(x)
		ft := sm3FloatOf(t)
		q := bd.Binary(ir.OpFMul, x, ir.ConstFloat(ft, math.Ldexp(1, -k)), in.Name()+".q")
		q.SetType(ft)
		fl := bd.Intrinsic("floor", ft, []ir.Value{q}, in.Name()+".fl")
		hi := bd.Binary(ir.OpFMul, fl, ir.ConstFloat(ft, math.Ldexp(1, k)), in.Name()+".hi")
		hi.SetType(ft)
		in.Op = ir.OpFSub
		in.Args = []ir.Value{x, hi}
		retype()
	case op == ir.OpICmp:
		if !intVal(in.Args[0]) {
			return false, nil // bool comparisons
		}
		in.Op = ir.OpFCmp
		in.Pred = map[ir.CmpPred]ir.CmpPred{
			ir.PredEQ: ir.PredOEQ, ir.PredNE: ir.PredUNE,
			ir.PredSLT: ir.PredOLT, ir.PredULT: ir.PredOLT, ir.PredSLE: ir.PredOLE, ir.PredULE: ir.PredOLE,
			ir.PredSGT: ir.PredOGT, ir.PredUGT: ir.PredOGT, ir.PredSGE: ir.PredOGE, ir.PredUGE: ir.PredOGE,
		}[in.Pred]
		convArgs()
	case op == ir.OpSIToFP || op == ir.OpUIToFP:
		in.Op = ir.OpCopy // the integer is a float already: a MOV
		convArgs()
	case op == ir.OpFPToSI || op == ir.OpFPToUI:
		sm3Intrinsic(in, "trunc", in.Args[0])
		retype()
	case op == ir.OpZExt || op == ir.OpSExt:
		src := in.Args[0]
		if src.Type().Scalar().Kind == ir.KBool {
			one := 1.0
			if op == ir.OpSExt {
				one = -1
			}
			in.Op = ir.OpSelect
			in.Args = []ir.Value{src, splat(one), splat(0)}
		} else {
			in.Op = ir.OpCopy
			convArgs()
		}
		retype()
	case op == ir.OpTrunc:
		if t.Scalar().Kind == ir.KBool {
			// The low bit: x - 2 * floor(x / 2) != 0.
			x := sm3ConvOne(in.Args[0])
			st := x.Type()
			if st.Scalar().IsIntegral() {
				st = sm3FloatOf(st)
			}
			r := bd.Binary(ir.OpFRem, x, ir.ConstFloat(st, 2), in.Name()+".bit")
			r.SetType(st)
			in.Op = ir.OpFCmp
			in.Pred = ir.PredUNE
			in.Args = []ir.Value{r, ir.ConstFloat(st, 0)}
			return true, nil
		}
		in.Op = ir.OpCopy
		convArgs()
		retype()
	case op == ir.OpBitcast:
		if !sm3HasInt(t) {
			return false, nil
		}
		in.Op = ir.OpCopy
		convArgs()
		retype()
	case op == ir.OpRet:
		if len(in.Args) == 1 && sm3HasInt(in.Args[0].Type()) {
			if f.Entry != nil {
				if _, ok := in.Args[0].(*ir.Const); ok {
					return false, nil
				}
				in.Args[0] = bd.Cast(ir.OpFPToSI, in.Args[0], in.Args[0].Type(), passes.BaseName(in.Args[0])+".i")
				return true, nil
			}
			convArgs()
		}
		return false, nil
	default:
		anyInt := sm3HasInt(t)
		for _, a := range in.Args {
			if sm3HasInt(a.Type()) && !sm3IndexOperand(in, a) {
				anyInt = true
			}
		}
		if !anyInt {
			return false, nil
		}
		convArgs()
		if sm3HasInt(t) {
			retype()
		}
	}
	return true, nil
}

// sm3Use is one operand slot: the using instruction and the argument index.
type sm3Use struct {
	in  *ir.Instr
	arg int
}

// sm3ConvOne converts an integer constant operand to float (others are
// retyped in place by their own rewrite).
func sm3ConvOne(v ir.Value) ir.Value {
	if c, ok := v.(*ir.Const); ok && sm3HasInt(c.Type()) {
		return sm3FloatConst(c)
	}
	return v
}

// sm3Intrinsic turns in into a call of the named elementwise intrinsic on x.
func sm3Intrinsic(in *ir.Instr, name string, x ir.Value) {
	in.Op = ir.OpIntrinsic
	in.Intr = ir.LookupIntrinsic(name)
	in.Args = []ir.Value{x}
	in.Pred = ir.PredNone
}

// rwTextureOperand reports whether a tex.* call works on a read-write
// texture (ir/rwtexture.go), which SM3 cannot express.
func rwTextureOperand(in *ir.Instr) bool {
	if len(in.Args) == 0 || !strings.HasPrefix(in.Intr.Name, "tex.") {
		return false
	}
	g, ok := in.Args[0].(*ir.Global)
	return ok && ir.IsRWTextureGlobal(g)
}
