// Package sir is SIR, the scalar back-end IR that sits between the
// scalarized passlens IR (after a target pipeline such as "sm3") and the
// assembly emitters.
//
// SIR's design principles:
//
//   - Values live in logical registers with a three-dimensional size: bit
//     size, vector components and SIMD width. Each register also has a SIMD
//     group (the channel range it belongs to); only instructions executing
//     inside that range may write or read it (the validator checks this), so
//     that mixed-up execution groups are caught early and so that register
//     allocation may use the logical CFG for registers of the same bit size
//     and SIMD range.
//   - Every instruction carries its exec size and group (its SIMD range).
//   - Control flow is unstructured: blocks end in br/brc/ret/discard.
//   - The IR is SSA-ish: most registers are written once, but partial
//     (write-masked or narrower exec range) and multiple writes are allowed;
//     the optimizations (copy-prop, CSE, DCE) only touch registers that are
//     written exactly once by a full write.
//
// The text form is produced by Func.String (printer.go); Validate
// (validate.go) enforces the structural rules; CopyProp, CSE and DCE
// (opt_*.go) are the basic optimizations; Liveness and Pressure
// (liveness.go) feed register allocation.
package sir

import "fmt"

// Group is a SIMD channel range [Start, Start+Width). Width is a power of two
// between 1 and 32 and Start is a multiple of Width (alignment rule). A
// register of width 1 is uniform: one value shared by all channels.
type Group struct {
	Start, Width int
}

// End is one past the last channel of the range.
func (g Group) End() int { return g.Start + g.Width }

// Contains reports whether h lies inside g.
func (g Group) Contains(h Group) bool { return h.Start >= g.Start && h.End() <= g.End() }

func (g Group) String() string { return fmt.Sprintf("%d@%d", g.Width, g.Start) }

// File is the register file a logical register belongs to.
type File uint8

const (
	// FileTemp is an ordinary allocatable temporary.
	FileTemp File = iota
	// FileInput is a shader input (read-only, defined on entry).
	FileInput
	// FileConst is a uniform constant (read-only, defined on entry).
	FileConst
	// FileOutput is a shader output (write-only as far as DCE is concerned:
	// writes to it are never dead).
	FileOutput
)

var fileNames = [...]string{FileTemp: "temp", FileInput: "input", FileConst: "const", FileOutput: "output"}

func (f File) String() string {
	if int(f) < len(fileNames) {
		return fileNames[f]
	}
	return "file?"
}

// ReadOnly reports files whose registers are defined on entry and never
// written.
func (f File) ReadOnly() bool { return f == FileInput || f == FileConst }

// Reg is a logical register.
type Reg struct {
	ID      int    // index in Func.Regs
	Name    string // printed as %Name
	BitSize int    // bits per component per channel: 1, 8, 16, 32 or 64
	Comps   int    // vector components, 1..4
	Group   Group  // SIMD range the register belongs to
	File    File
	// Elems is the number of consecutive vector slots of a register array
	// (0 or 1: a single register). Only read-only registers may be arrays:
	// a uniform matrix (one slot per row) or a uniform array, which the SM3
	// back end maps onto consecutive c# registers. Src.Elem selects a slot.
	Elems int
}

// Slots is the number of vector slots of r (1 unless r is an array).
func (r *Reg) Slots() int { return max(r.Elems, 1) }

// Bytes is the register's size in bytes (a 1-bit flag counts as one byte
// per component per channel).
func (r *Reg) Bytes() int {
	b := (r.BitSize + 7) / 8
	return b * r.Comps * r.Group.Width * r.Slots()
}

// FullMask is the write mask covering every component of r.
func (r *Reg) FullMask() uint8 { return uint8(1)<<r.Comps - 1 }

// Dst is an instruction's destination: a register and a component write
// mask (bit i = component i).
type Dst struct {
	Reg  *Reg
	Mask uint8
}

// Src is an instruction operand: a register read through a swizzle, or an
// immediate (raw bits of BitSize, one value for all components).
type Src struct {
	Reg     *Reg
	Swizzle []uint8 // component read for each used component; nil = identity
	Neg     bool    // source modifier: negate
	Elem    int     // slot of a register array (Reg.Elems > 1)
	Imm     uint64  // immediate bits when Reg is nil
	ImmBits int     // immediate bit size when Reg is nil
}

// IsImm reports an immediate operand.
func (s Src) IsImm() bool { return s.Reg == nil }

// Comp returns the register component read for operand component i.
func (s Src) Comp(i int) int {
	if s.Swizzle == nil {
		return i
	}
	if i < len(s.Swizzle) {
		return int(s.Swizzle[i])
	}
	return int(s.Swizzle[len(s.Swizzle)-1])
}

// BitSize is the operand's bit size.
func (s Src) BitSize() int {
	if s.Reg == nil {
		return s.ImmBits
	}
	return s.Reg.BitSize
}

// Instr is one SIR instruction executed on the channels in Exec.
type Instr struct {
	Op    Op
	Cond  Cond // comparison for OpCmp and OpBrc-style ops
	Exec  Group
	Dst   *Dst // nil for ops without a result
	Srcs  []Src
	Succs []*Block // branch targets (OpBr: 1, OpBrc: 2: taken, not taken)
	Loc   string   // source location ("line:col") for diagnostics; may be empty
}

// Block is a basic block: straight-line instructions ending in exactly one
// terminator.
type Block struct {
	Name   string
	Instrs []*Instr

	// Structure hints carried over from the passlens IR's merge annotations
	// for structured back ends (SM3); SIR itself does not need them and the
	// optimizations keep them unchanged.
	Merge    *Block // selection or loop merge block
	Continue *Block // loop continue target (set only on loop headers)
	Loop     bool   // the block is a loop header
	Rep      *Rep   // SM3 rep cap of the loop headed here (sm3.rep marker)
}

// Rep is the trip-count cap of an SM3 loop (sm3lower.RepIntrinsic): a
// constant Count, or Uniform, the integer uniform whose value is the count.
// Done is the flag that says the cap is reached: a read-only 1-bit input
// register with no writes, whose value the hardware supplies (an SM3 rep
// loop leaves by itself). Keeping it as an opaque flag, rather than
// folding it to false, keeps the header's "cap reached" exit edge in the
// CFG, so liveness and register allocation see that path.
type Rep struct {
	Count   int
	Uniform *Reg
	Done    *Reg
}

// Terminator is the block's last instruction if it is a terminator.
func (b *Block) Terminator() *Instr {
	if n := len(b.Instrs); n > 0 && b.Instrs[n-1].Op.IsTerminator() {
		return b.Instrs[n-1]
	}
	return nil
}

// Succs lists the block's successors.
func (b *Block) Succs() []*Block {
	if t := b.Terminator(); t != nil {
		return t.Succs
	}
	return nil
}

// Func is a SIR function (a shader): its dispatch width, registers and
// blocks; Blocks[0] is the entry.
type Func struct {
	Name   string
	Width  int // dispatch SIMD width
	Regs   []*Reg
	Blocks []*Block
	// Samplers are the sampler registers the texture reads use
	// (texture.go), in the order of their first read.
	Samplers []*Sampler
}

// NewFunc makes an empty function of the given dispatch width.
func NewFunc(name string, width int) *Func { return &Func{Name: name, Width: width} }

// NewReg adds a logical register. The name must be unique in f; an empty
// name becomes "r<ID>".
func (f *Func) NewReg(name string, bits, comps int, g Group, file File) *Reg {
	r := &Reg{ID: len(f.Regs), Name: name, BitSize: bits, Comps: comps, Group: g, File: file}
	if r.Name == "" {
		r.Name = fmt.Sprintf("r%d", r.ID)
	}
	f.Regs = append(f.Regs, r)
	return r
}

// NewBlock appends a block.
func (f *Func) NewBlock(name string) *Block {
	b := &Block{Name: name}
	f.Blocks = append(f.Blocks, b)
	return b
}

// All returns the full dispatch range of f.
func (f *Func) All() Group { return Group{0, f.Width} }

// R is a convenience source reading all components of r.
func R(r *Reg) Src { return Src{Reg: r} }

// RE is a source reading slot elem of the register array r through the
// swizzle comps.
func RE(r *Reg, elem int, comps ...uint8) Src { return Src{Reg: r, Elem: elem, Swizzle: comps} }

// RS is a source reading r through the swizzle comps.
func RS(r *Reg, comps ...uint8) Src { return Src{Reg: r, Swizzle: comps} }

// Imm32 is a 32-bit immediate.
func Imm32(bits uint32) Src { return Src{Imm: uint64(bits), ImmBits: 32} }

// D is a destination writing every component of r.
func D(r *Reg) *Dst { return &Dst{Reg: r, Mask: r.FullMask()} }

// Emit appends an instruction to b and returns it.
func (b *Block) Emit(op Op, exec Group, dst *Dst, srcs ...Src) *Instr {
	in := &Instr{Op: op, Exec: exec, Dst: dst, Srcs: srcs}
	b.Instrs = append(b.Instrs, in)
	return in
}
