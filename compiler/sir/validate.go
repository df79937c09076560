package sir

import (
	"errors"
	"fmt"
	"strings"
)

// Validate checks f against SIR's rules and returns every violation, one
// per line, each naming the function, block and instruction:
//
//   - alignment: every SIMD range (register group and exec range) has a
//     power-of-two width in 1..32, a start that is a multiple of its width,
//     and lies inside the dispatch width;
//   - SIMD ranges: an instruction writes a register only if its exec range
//     lies inside the register's group, and reads a non-uniform register
//     (width > 1) only under the same condition (uniform registers, width 1,
//     are readable from anywhere);
//   - operand sizes: sources and destination of non-conversion ops share one
//     bit size; comparison results, select conditions and branch conditions
//     are 1-bit flags; float ops use 16, 32 or 64 bits;
//   - components: write masks are non-empty and inside the register,
//     swizzles select existing components, slots exist; only read-only
//     registers are arrays, and movidx reads one;
//   - shape: operand count, destination presence, condition codes and
//     branch targets match the opcode; read-only files are never written;
//     registers belong to the function;
//   - blocks end in exactly one terminator.
func Validate(f *Func) error {
	v := &validator{f: f, regs: map[*Reg]bool{}, blocks: map[*Block]bool{}}
	if f.Width < 1 || f.Width > 32 || f.Width&(f.Width-1) != 0 {
		v.errf("func %s: dispatch width %d is not a power of two in 1..32", f.Name, f.Width)
	}
	for i, r := range f.Regs {
		v.regs[r] = true
		if r.ID != i {
			v.errf("func %s: register %%%s has ID %d at index %d", f.Name, r.Name, r.ID, i)
		}
		if msg := v.rangeProblem(r.Group); msg != "" {
			v.errf("func %s: register %%%s: SIMD group %s %s", f.Name, r.Name, r.Group, msg)
		}
		switch r.BitSize {
		case 1, 8, 16, 32, 64:
		default:
			v.errf("func %s: register %%%s: bit size %d is not 1, 8, 16, 32 or 64", f.Name, r.Name, r.BitSize)
		}
		if r.Comps < 1 || r.Comps > 4 {
			v.errf("func %s: register %%%s: %d components (want 1..4)", f.Name, r.Name, r.Comps)
		}
		if r.Elems < 0 || r.Elems > 1 && !r.File.ReadOnly() {
			v.errf("func %s: register %%%s: %d slots; only read-only registers may be arrays", f.Name, r.Name, r.Elems)
		}
	}
	if len(f.Blocks) == 0 {
		v.errf("func %s: no blocks", f.Name)
	}
	for _, b := range f.Blocks {
		v.blocks[b] = true
	}
	for _, b := range f.Blocks {
		v.block(b)
	}
	if len(v.msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(v.msgs, "\n"))
}

type validator struct {
	f      *Func
	regs   map[*Reg]bool
	blocks map[*Block]bool
	msgs   []string
}

func (v *validator) errf(format string, args ...any) {
	v.msgs = append(v.msgs, fmt.Sprintf(format, args...))
}

// rangeProblem explains why g is not an aligned range inside the dispatch
// width, or returns "".
func (v *validator) rangeProblem(g Group) string {
	w := g.Width
	switch {
	case w < 1 || w > 32 || w&(w-1) != 0:
		return "has a width that is not a power of two in 1..32"
	case g.Start < 0 || g.Start%w != 0:
		return "is not aligned: its start must be a multiple of its width"
	case g.End() > v.f.Width:
		return fmt.Sprintf("lies outside the dispatch width %d", v.f.Width)
	}
	return ""
}

func (v *validator) block(b *Block) {
	if len(b.Instrs) == 0 {
		v.errf("func %s: block %s: empty block (needs a terminator)", v.f.Name, b.Name)
		return
	}
	for i, in := range b.Instrs {
		at := fmt.Sprintf("func %s: block %s: instr %d (%s)", v.f.Name, b.Name, i, in)
		last := i == len(b.Instrs)-1
		if in.Op.IsTerminator() && !last {
			v.errf("%s: terminator in the middle of the block", at)
		}
		if last && !in.Op.IsTerminator() {
			v.errf("%s: block does not end in a terminator", at)
		}
		v.instr(at, in)
	}
}

func (v *validator) instr(at string, in *Instr) {
	if in.Op == OpInvalid || in.Op >= numOps {
		v.errf("%s: invalid opcode", at)
		return
	}
	info := ops[in.Op]
	if msg := v.rangeProblem(in.Exec); msg != "" {
		v.errf("%s: exec range %s %s", at, in.Exec, msg)
	}
	if len(in.Srcs) != info.srcs {
		v.errf("%s: %s takes %d operands, has %d", at, in.Op, info.srcs, len(in.Srcs))
	}
	if n := in.Op.numSuccs(); len(in.Succs) != n {
		v.errf("%s: %s takes %d branch targets, has %d", at, in.Op, n, len(in.Succs))
	}
	for _, s := range in.Succs {
		if !v.blocks[s] {
			v.errf("%s: branch target is not a block of the function", at)
		}
	}
	isCmp := in.Op == OpFCmp || in.Op == OpICmp
	if isCmp && (in.Cond == CondNone || in.Cond >= numConds) {
		v.errf("%s: %s needs a condition", at, in.Op)
	}
	if !isCmp && in.Cond != CondNone {
		v.errf("%s: %s takes no condition", at, in.Op)
	}
	if info.dst != (in.Dst != nil) {
		if info.dst {
			v.errf("%s: %s needs a destination", at, in.Op)
		} else {
			v.errf("%s: %s has no destination", at, in.Op)
		}
	}
	if d := in.Dst; d != nil && d.Reg != nil {
		r := d.Reg
		if !v.regs[r] {
			v.errf("%s: destination %%%s is not a register of the function", at, r.Name)
		}
		if r.File.ReadOnly() {
			v.errf("%s: writes read-only %s register %%%s", at, r.File, r.Name)
		}
		if !r.Group.Contains(in.Exec) {
			v.errf("%s: writes %%%s (SIMD group %s) from exec range %s outside it", at, r.Name, r.Group, in.Exec)
		}
		if d.Mask == 0 || d.Mask&^r.FullMask() != 0 {
			v.errf("%s: write mask %04b does not fit %%%s's %d components", at, d.Mask, r.Name, r.Comps)
		}
	} else if in.Dst != nil {
		v.errf("%s: destination without a register", at)
	}
	for i, s := range in.Srcs {
		v.src(at, in, i, s)
	}
	if in.Op == OpTex && len(in.Srcs) == TexSrcs {
		if !in.Srcs[0].IsImm() {
			v.errf("%s: tex needs an immediate descriptor as operand 0", at)
		} else if d := TexDescOf(in); d.Kind() >= numTexKinds || d.Pair() >= len(v.f.Samplers) {
			v.errf("%s: tex descriptor %s names no kind or sampler pair of the function (%d pairs)", at, d, len(v.f.Samplers))
		}
	}
	v.sizes(at, in)
}

func (v *validator) src(at string, in *Instr, i int, s Src) {
	if s.Reg == nil {
		switch s.ImmBits {
		case 1, 8, 16, 32, 64:
		default:
			v.errf("%s: operand %d: immediate bit size %d", at, i, s.ImmBits)
		}
		return
	}
	r := s.Reg
	if !v.regs[r] {
		v.errf("%s: operand %d: %%%s is not a register of the function", at, i, r.Name)
	}
	if r.Group.Width > 1 && !r.Group.Contains(in.Exec) {
		v.errf("%s: operand %d: reads %%%s (SIMD group %s) from exec range %s outside it", at, i, r.Name, r.Group, in.Exec)
	}
	if len(s.Swizzle) > 4 {
		v.errf("%s: operand %d: swizzle longer than 4", at, i)
	}
	if s.Elem < 0 || s.Elem >= r.Slots() {
		v.errf("%s: operand %d: slot %d of %%%s, which has %d", at, i, s.Elem, r.Name, r.Slots())
	}
	if in.Op == OpMovIdx && i == 0 && r.Elems <= 1 {
		v.errf("%s: movidx reads %%%s, which is not a register array", at, r.Name)
	}
	if in.Op == OpMovIdx && i == 0 && len(in.Srcs) == 3 {
		if c := in.Srcs[2]; !c.IsImm() || c.Imm < 1 || s.Elem+int(c.Imm) > r.Slots() {
			v.errf("%s: movidx slot count must be an immediate from 1 to the %d slots after slot %d of %%%s", at, r.Slots()-s.Elem, s.Elem, r.Name)
		}
	}
	for _, c := range s.Swizzle {
		if int(c) >= r.Comps {
			v.errf("%s: operand %d: swizzle selects component %d of %%%s, which has %d", at, i, c, r.Name, r.Comps)
		}
	}
}

// sizes checks the operand bit-size rules.
func (v *validator) sizes(at string, in *Instr) {
	info := ops[in.Op]
	flagSrc := -1 // operand that must be a 1-bit flag
	switch in.Op {
	case OpSel, OpBrc:
		flagSrc = 0
	}
	for i, s := range in.Srcs {
		if i == flagSrc && s.BitSize() != 1 {
			v.errf("%s: operand %d: condition must be a 1-bit flag, is %d bits", at, i, s.BitSize())
		}
	}
	if info.flagD && in.Dst != nil && in.Dst.Reg != nil && in.Dst.Reg.BitSize != 1 {
		v.errf("%s: %s writes a 1-bit flag, %%%s has %d bits", at, in.Op, in.Dst.Reg.Name, in.Dst.Reg.BitSize)
	}
	// The reference size all value operands must share.
	ref, refWhat := 0, ""
	if !info.conv && in.Dst != nil && in.Dst.Reg != nil {
		ref, refWhat = in.Dst.Reg.BitSize, "destination"
	}
	for i, s := range in.Srcs {
		if i == flagSrc || in.Op == OpF2I || in.Op == OpI2F {
			continue
		}
		if ref == 0 {
			ref, refWhat = s.BitSize(), fmt.Sprintf("operand %d", i)
			continue
		}
		if s.BitSize() != ref {
			v.errf("%s: operand %d has %d bits, %s has %d", at, i, s.BitSize(), refWhat, ref)
		}
	}
	switch in.Op {
	case OpFAdd, OpFMul, OpFMad, OpFMin, OpFMax, OpFRcp, OpFRsq, OpFFrc, OpFCmp,
		OpFAbs, OpFExp2, OpFLog2, OpFSin, OpFCos, OpFPow, OpFDsx, OpFDsy:
		if ref != 0 && ref != 16 && ref != 32 && ref != 64 {
			v.errf("%s: float op on %d-bit values", at, ref)
		}
	}
}
