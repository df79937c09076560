package spvread

import (
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// This file builds function bodies. Every SPIR-V result of a function
// gets its IR instruction (a placeholder) before any body is translated,
// so forward references (phis, uses in blocks laid out before their
// definition) resolve; translating an instruction fills its placeholder
// in, with helper instructions (sign casts, splats) placed before it.
// SPIR-V lets integer operands differ in signedness from the result
// (OpIAdd %int %uint_a %int_b): the IR does not, so such operands get a
// bitcast (a constant is retyped instead).

// fn is the state of one function's translation.
type fn struct {
	r      *reader
	f      *ir.Function
	vals   map[string]*ir.Instr // result id -> its instruction
	params map[string]*ir.Param
	blocks map[string]*ir.Block
	defs   map[string]*inst // result id -> its SPIR-V instruction
	undefs map[string]*ir.Const
	b      *ir.Block
	// loc is the line and column of the instruction being translated
	// (text input): every instruction made for it gets it, so that the
	// source pane maps IR values to the assembly's lines.
	loc ir.Loc
	// merge annotation waiting for the block's terminator
	mergeKind   ir.MergeKind
	merge, cont *ir.Block
	phiFix      []phiFix
	allocas     []*ir.Instr
	allocaInits []*ir.Instr
}

// phiFix is a phi operand whose type needs a cast in the predecessor.
type phiFix struct {
	phi *ir.Instr
	i   int
}

// functions pre-creates every function, then translates their bodies.
func (r *reader) functions(start int) error {
	type span struct{ from, to int }
	var spans []span
	for i := start; i < len(r.insts); i++ {
		in := &r.insts[i]
		if in.op != "OpFunction" {
			continue
		}
		j := i + 1
		for j < len(r.insts) && r.insts[j].op != "OpFunctionEnd" {
			j++
		}
		if j == len(r.insts) {
			return r.errAt(in.pos, "OpFunction %%%s has no OpFunctionEnd", in.res)
		}
		if err := r.declareFunc(i, j); err != nil {
			return err
		}
		spans = append(spans, span{i, j})
		i = j
	}
	for _, s := range spans {
		if err := r.body(s.from, s.to); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) declareFunc(from, to int) error {
	in := &r.insts[from]
	if err := r.need(in, 2); err != nil {
		return err
	}
	ft, ok := r.fnTypes[in.args[1].s]
	if !ok {
		return r.errAt(in.args[1].pos, "%%%s is not a function type", in.args[1].s)
	}
	var pnames []string
	for k := from + 1; k < to && r.insts[k].op == "OpFunctionParameter"; k++ {
		pnames = append(pnames, r.name(r.insts[k].res))
	}
	if len(pnames) != len(ft.params) {
		return r.errAt(in.pos, "function %%%s has %d parameters, its type %d", in.res, len(pnames), len(ft.params))
	}
	name := r.name(in.res)
	e := r.entries[in.res]
	if _, named := r.names[in.res]; !named && e != nil && !r.idNames {
		name = e.name
	}
	for k := 1; r.m.Func(name) != nil; k++ {
		name = r.name(in.res) + "." + strconv.Itoa(k)
	}
	f := r.m.NewFunction(name, ft.ret, pnames, ft.params)
	if e != nil {
		switch e.model {
		case "GLCompute":
			f.Entry = &ir.EntryPoint{Stage: ir.StageCompute, NumThreads: e.local}
			for k := range f.Entry.NumThreads {
				f.Entry.NumThreads[k] = max(1, f.Entry.NumThreads[k])
			}
		case "Fragment":
			f.Entry = &ir.EntryPoint{Stage: ir.StagePixel}
		case "Vertex":
			f.Entry = &ir.EntryPoint{Stage: ir.StageVertex}
		}
	}
	r.funcs[in.res] = f
	return nil
}

// body translates the instructions between OpFunction (from) and
// OpFunctionEnd (to).
func (r *reader) body(from, to int) error {
	f := r.funcs[r.insts[from].res]
	fe := &fn{r: r, f: f, vals: map[string]*ir.Instr{}, params: map[string]*ir.Param{},
		blocks: map[string]*ir.Block{}, defs: map[string]*inst{}, undefs: map[string]*ir.Const{}}
	k := from + 1
	for p := 0; k < to && r.insts[k].op == "OpFunctionParameter"; k++ {
		fe.params[r.insts[k].res] = f.Params[p]
		p++
	}
	// Placeholders: blocks, then every result.
	for i := k; i < to; i++ {
		in := &r.insts[i]
		if in.op == "OpLabel" {
			if _, dup := fe.blocks[in.res]; dup {
				return r.errAt(in.pos, "label %%%s defined twice", in.res)
			}
			fe.blocks[in.res] = f.NewBlock(r.name(in.res))
		}
	}
	for i := k; i < to; i++ {
		in := &r.insts[i]
		if in.res == "" || in.op == "OpLabel" {
			continue
		}
		if _, dup := fe.vals[in.res]; dup {
			return r.errAt(in.pos, "%%%s defined twice", in.res)
		}
		if in.op == "OpUndef" {
			// An undefined value of the function: a constant.
			t, ok := r.types[in.typ]
			if !ok {
				return r.errAt(in.pos, "result type %%%s of OpUndef is not a type", in.typ)
			}
			fe.undefs[in.res] = ir.ConstUndef(t)
			continue
		}
		if in.op == "OpExtInst" && len(in.args) > 0 && r.extSets[in.args[0].s] != "GLSL.std.450" && r.types[in.typ] == ir.Void {
			continue
		}
		t, ok := r.types[in.typ]
		if !ok {
			return r.errAt(in.pos, "result type %%%s of %s is not a type", in.typ, in.op)
		}
		fe.defs[in.res] = in
		fe.vals[in.res] = ir.NewInstr(f, ir.OpCopy, t, r.name(in.res))
	}
	for i := k; i < to; i++ {
		in := &r.insts[i]
		if in.op == "OpLabel" {
			if fe.b != nil && fe.b.Terminator() == nil {
				return r.errAt(in.pos, "block %s has no terminator before label %%%s", fe.b.Name(), in.res)
			}
			fe.b = fe.blocks[in.res]
			continue
		}
		if fe.b == nil {
			if in.op == "OpLine" || in.op == "OpNoLine" {
				continue
			}
			return r.errAt(in.pos, "%s before the function's first OpLabel", in.op)
		}
		if fe.b.Terminator() != nil {
			if in.op == "OpLine" || in.op == "OpNoLine" {
				continue
			}
			return r.errAt(in.pos, "%s after the terminator of block %s", in.op, fe.b.Name())
		}
		fe.loc = ir.Loc{Line: int32(in.pos.Line), Col: int32(in.pos.Col)}
		if err := fe.inst(in); err != nil {
			return err
		}
	}
	if fe.b != nil && fe.b.Terminator() == nil {
		return r.errAt(r.insts[to].pos, "block %s has no terminator", fe.b.Name())
	}
	if len(f.Blocks) == 0 {
		return nil // a declaration (an imported function)
	}
	// Function variables go to the top of the entry block.
	entry := f.Blocks[0]
	head := append(append([]*ir.Instr{}, fe.allocas...), fe.allocaInits...)
	for _, in := range head {
		in.Block = entry
	}
	entry.Instrs = append(head, entry.Instrs...)
	for _, pf := range fe.phiFix {
		// The cast goes at the end of the predecessor, before its
		// terminator.
		pred := pf.phi.PhiBlocks[pf.i]
		term := pred.Instrs[len(pred.Instrs)-1]
		pred.Instrs = pred.Instrs[:len(pred.Instrs)-1]
		fe.b, fe.loc = pred, pf.phi.Loc
		pf.phi.Args[pf.i] = fe.coerce(pf.phi.Args[pf.i], pf.phi.Type())
		pred.Instrs = append(pred.Instrs, term)
	}
	return nil
}

// value resolves an id operand to a value.
func (fe *fn) value(o operand) (ir.Value, error) {
	if o.kind != kID {
		return nil, fe.r.errAt(o.pos, "expected an id, found %q", o.s)
	}
	if v, ok := fe.vals[o.s]; ok {
		return v, nil
	}
	if p, ok := fe.params[o.s]; ok {
		return p, nil
	}
	if c, ok := fe.r.consts[o.s]; ok {
		return c, nil
	}
	if g, ok := fe.r.globals[o.s]; ok && g.g != nil {
		return g.g, nil
	}
	if c, ok := fe.undefs[o.s]; ok {
		return c, nil
	}
	return nil, fe.r.errAt(o.pos, "%%%s is not a value", o.s)
}

func (fe *fn) block(o operand) (*ir.Block, error) {
	b, ok := fe.blocks[o.s]
	if !ok {
		return nil, fe.r.errAt(o.pos, "%%%s is not a label of this function", o.s)
	}
	return b, nil
}

// emit appends a helper instruction to the current block.
func (fe *fn) emit(op ir.Op, t *ir.Type, args ...ir.Value) *ir.Instr {
	in := ir.NewInstr(fe.f, op, t, "")
	in.Args = args
	in.Block = fe.b
	in.Loc = fe.loc
	fe.b.Instrs = append(fe.b.Instrs, in)
	return in
}

// put appends a placeholder, now filled in, to the current block.
func (fe *fn) put(in *ir.Instr) {
	in.Block = fe.b
	in.Loc = fe.loc
	fe.b.Instrs = append(fe.b.Instrs, in)
}

// sameBits reports whether a and b differ at most in integer signedness.
func sameBits(a, b *ir.Type) bool {
	if a == b {
		return true
	}
	if a.Kind == ir.KVector && b.Kind == ir.KVector {
		return a.Len == b.Len && sameBits(a.Elem, b.Elem)
	}
	return a.IsIntegral() && b.IsIntegral() && a.Bits == b.Bits
}

// coerce gives v type want when they differ only in signedness: a
// constant is retyped, anything else bitcast.
func (fe *fn) coerce(v ir.Value, want *ir.Type) ir.Value {
	if v.Type() == want || !sameBits(v.Type(), want) {
		return v
	}
	if c, ok := v.(*ir.Const); ok {
		return retype(c, want)
	}
	return fe.emit(ir.OpBitcast, want, v)
}

func retype(c *ir.Const, t *ir.Type) *ir.Const {
	switch {
	case c.Zero:
		return ir.ConstZero(t)
	case c.Undef:
		return ir.ConstUndef(t)
	case t.Kind == ir.KVector:
		el := make([]*ir.Const, t.Len)
		for i := range el {
			el[i] = retype(c.Elem(i), t.Elem)
		}
		return ir.ConstAggregate(t, el)
	}
	return ir.ConstInt(t, c.Int())
}

// values resolves id operands.
func (fe *fn) values(os []operand) ([]ir.Value, error) {
	out := make([]ir.Value, len(os))
	for i, o := range os {
		v, err := fe.value(o)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// constInt reads an id operand that must be an integer constant (scopes,
// memory semantics).
func (fe *fn) constInt(o operand) (int64, bool) {
	c, ok := fe.r.consts[o.s]
	if !ok || !c.Type().IsIntegral() || c.Undef {
		return 0, false
	}
	if c.Zero {
		return 0, true
	}
	return c.Int(), true
}

// isPtrName reports whether an id names something the opaque fallback
// must not take as an operand.
func (fe *fn) operandValue(o operand) (ir.Value, bool) {
	if o.kind != kID {
		return nil, false
	}
	if _, ok := fe.r.types[o.s]; ok {
		return nil, false
	}
	if _, ok := fe.blocks[o.s]; ok {
		return nil, false
	}
	v, err := fe.value(o)
	if err != nil {
		return nil, false
	}
	return v, true
}

// opaque keeps an instruction passlens cannot represent as an intrinsic
// call named spirv.opaque.<Op> on its value operands: the CFG and the
// def-use edges stay, the operation cannot run.
func (fe *fn) opaque(in *inst, res *ir.Instr) error {
	var args []ir.Value
	for _, o := range in.args {
		if v, ok := fe.operandValue(o); ok {
			args = append(args, v)
		}
	}
	name := "spirv.opaque." + strings.TrimPrefix(in.op, "Op")
	var attrs ir.Attr
	switch {
	case strings.HasPrefix(in.op, "OpGroup"), strings.HasPrefix(in.op, "OpSubgroup"):
		attrs = ir.AttrConvergent | ir.AttrDivergenceSource | ir.AttrWave
	case strings.HasPrefix(in.op, "OpAtomic"):
		attrs = ir.AttrDivergenceSource
	case strings.HasPrefix(in.op, "OpDPd"), strings.HasPrefix(in.op, "OpFwidth"), in.op == "OpControlBarrier",
		strings.HasPrefix(in.op, "OpImageSampleImplicit"):
		attrs = ir.AttrConvergent
	}
	it := ir.RegisterIntrinsic(name, attrs, 0, 64, "SPIR-V "+in.op+" (kept, not executable)")
	if res == nil {
		res = ir.NewInstr(fe.f, ir.OpIntrinsic, ir.Void, "")
	}
	res.Op, res.Intr, res.Args = ir.OpIntrinsic, it, args
	fe.put(res)
	return nil
}

// IsOpaque reports whether in stands for a SPIR-V instruction the reader
// kept without its meaning.
func IsOpaque(in *ir.Instr) bool {
	return in.Op == ir.OpIntrinsic && in.Intr != nil && strings.HasPrefix(in.Intr.Name, "spirv.opaque.")
}
