package sir

import (
	"fmt"
	"strconv"
	"strings"
)

// The text format, one function per "func" section:
//
//	func main simd8 {
//	  reg %x 32x4 simd8@0 temp
//	  reg %u 32x1 simd1@0 const
//	entry:
//	  (8@0) fadd %x.xy, %x.xy, %u.x
//	  (8@0) fcmp.lt %f, %x.x, 0x3f800000
//	  (8@0) brc %f, then, else
//	}
//
// Registers are "reg %name <bits>x<comps> simd<width>@<start> <file>", with
// "[n]" after the components for an array of n slots (read from as
// "%name[i].x"; movidx adds a register index to i);
// instructions start with their exec range "(width@start)", then the
// opcode (".cond" for comparisons), the destination with its write mask
// (omitted when full), and the sources with their swizzles (omitted when
// identity); immediates are hex bits (":<bits>" unless 32 bits; 1-bit
// immediates are true/false); "-" is the negate modifier. Names other than
// [A-Za-z0-9_$]+ are quoted Go-style, so "%\"res.x\".y" is component y of
// the register res.x. "sampler N @texture @state 2d|cube|volume binding B"
// lines list the (texture, sampler) pairs the tex instructions' immediate
// descriptors (texture.go) refer to by N.

var compLetters = "xyzw"

// String prints f in the SIR text format.
func (f *Func) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "func %s simd%d {\n", f.Name, f.Width)
	for _, r := range f.Regs {
		arr := ""
		if r.Elems > 1 {
			arr = fmt.Sprintf("[%d]", r.Elems)
		}
		fmt.Fprintf(&sb, "  reg %%%s %dx%d%s simd%s %s\n", quote(r.Name), r.BitSize, r.Comps, arr, r.Group, r.File)
	}
	for i, smp := range f.Samplers {
		fmt.Fprintf(&sb, "  sampler %d @%s @%s %s binding %d\n", i, quote(smp.Texture), quote(smp.State), smp.Dim, smp.Binding)
	}
	for _, b := range f.Blocks {
		fmt.Fprintf(&sb, "%s:\n", quote(b.Name))
		for _, in := range b.Instrs {
			sb.WriteString("  ")
			sb.WriteString(in.String())
			sb.WriteByte('\n')
		}
	}
	sb.WriteString("}\n")
	return sb.String()
}

// String prints one instruction.
func (in *Instr) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "(%s) %s", in.Exec, in.Op)
	if in.Cond != CondNone {
		sb.WriteString("." + in.Cond.String())
	}
	var parts []string
	if in.Dst != nil {
		parts = append(parts, in.Dst.String())
	}
	for _, s := range in.Srcs {
		parts = append(parts, s.String())
	}
	for _, b := range in.Succs {
		parts = append(parts, quote(b.Name))
	}
	if len(parts) > 0 {
		sb.WriteString(" " + strings.Join(parts, ", "))
	}
	return sb.String()
}

// String prints a destination: %reg, with ".xy" when the mask is partial.
func (d *Dst) String() string {
	if d.Reg == nil {
		return "<nil>"
	}
	s := "%" + quote(d.Reg.Name)
	if d.Mask != d.Reg.FullMask() {
		s += "."
		for i := 0; i < 4; i++ {
			if d.Mask&(1<<i) != 0 {
				s += string(compLetters[i])
			}
		}
	}
	return s
}

// String prints a source operand.
func (s Src) String() string {
	neg := ""
	if s.Neg {
		neg = "-"
	}
	if s.Reg == nil {
		switch s.ImmBits {
		case 1:
			return fmt.Sprintf("%s%v", neg, s.Imm&1 != 0)
		case 32:
			return fmt.Sprintf("%s0x%x", neg, s.Imm)
		}
		return fmt.Sprintf("%s0x%x:%d", neg, s.Imm, s.ImmBits)
	}
	out := neg + "%" + quote(s.Reg.Name)
	if s.Reg.Elems > 1 || s.Elem != 0 {
		out += fmt.Sprintf("[%d]", s.Elem)
	}
	if s.Swizzle != nil {
		out += "."
		for _, c := range s.Swizzle {
			if int(c) < len(compLetters) {
				out += string(compLetters[c])
			} else {
				out += "?"
			}
		}
	}
	return out
}

// quote returns a register or block name as printed: bare when it is made of
// letters, digits, '_' and '$', a Go-quoted string otherwise.
func quote(n string) string {
	if n == "" {
		return `""`
	}
	for _, c := range n {
		if !(c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return strconv.Quote(n)
		}
	}
	return n
}
