package sir

// Texture reads in SIR. SIR is scalar, a texture read is not: OpTex writes
// one component of a read, so a read whose four components are used is
// four OpTex instructions with the same operands (the SM3 emitter prints
// them as one texld and four movs). OpTex is pure: copy propagation, CSE,
// DCE and hoisting treat it like arithmetic (an unused component dies).
//
// Operands (TexSrcs of them): Srcs[0] is an immediate TexDesc (the kind of
// read, the component, the index of its pair in Func.Samplers); Srcs[1..4]
// the coordinate x, y, z, w (w: the level of detail of TexLDL, the bias of
// TexLDB, unused components 0); Srcs[5..7] and Srcs[8..10] the x/y/z gradients of TexLDD
// (0 for other kinds).
//
// Shader models 1-3 bind a texture and its sampler state together to one
// sampler register s#; Func.Samplers lists the (texture, sampler) pairs a
// function reads in the order of their first read (lower_texture.go); the
// SM3 emitter gives each its s#.

import "fmt"

// TexSrcs is the operand count of OpTex.
const TexSrcs = 11

// TexKind is the kind of texture read, named after the SM3 instruction.
type TexKind uint8

const (
	TexLD  TexKind = iota // texld: level of detail from derivatives (ps only)
	TexLDB                // texldb: as texld, biased by coordinate w (ps only)
	TexLDL                // texldl: level of detail in coordinate w
	TexLDD                // texldd: level of detail from the given gradients (ps only)
	numTexKinds
)

var texKindNames = [numTexKinds]string{"texld", "texldb", "texldl", "texldd"}

func (k TexKind) String() string {
	if k < numTexKinds {
		return texKindNames[k]
	}
	return "tex?"
}

// TexDesc describes an OpTex: bits 0-2 the kind, 3-4 the component of
// the result written, 5-9 the index of its (texture, sampler) pair in
// Func.Samplers.
type TexDesc uint32

// MakeTexDesc packs a descriptor.
func MakeTexDesc(kind TexKind, comp, pair int) TexDesc {
	return TexDesc(uint32(kind)&7 | uint32(comp&3)<<3 | uint32(pair&31)<<5)
}

// Kind is the kind of read.
func (d TexDesc) Kind() TexKind { return TexKind(d & 7) }

// Comp is the component of the read's result the instruction writes.
func (d TexDesc) Comp() int { return int(d>>3) & 3 }

// Pair is the index of the read's (texture, sampler) pair in
// Func.Samplers.
func (d TexDesc) Pair() int { return int(d>>5) & 31 }

func (d TexDesc) String() string {
	return fmt.Sprintf("%s pair %d .%c", d.Kind(), d.Pair(), "xyzw"[d.Comp()])
}

// TexDescOf returns the descriptor of an OpTex.
func TexDescOf(in *Instr) TexDesc { return TexDesc(in.Srcs[0].Imm) }

// Sampler is one (texture, sampler state) pair the function reads, by the
// names of their globals, the texture type it is declared as, and the
// sampler register a back end binds it to: Binding is the sampler
// global's register (-1: none given), Reg the s# chosen (the SM3 emitter
// sets it).
type Sampler struct {
	Reg, Binding     int
	Texture, State   string
	Dim              SamplerDim
	TextureKind, Loc string // the IR texture kind (Texture2D, ...) and where the pair is first read
}

// SamplerDim is the texture type of a sampler declaration.
type SamplerDim uint8

const (
	Sampler2D     SamplerDim = iota // dcl_2d (1D textures are 2D textures of height 1)
	SamplerCube                     // dcl_cube
	SamplerVolume                   // dcl_volume
)

func (d SamplerDim) String() string {
	switch d {
	case SamplerCube:
		return "cube"
	case SamplerVolume:
		return "volume"
	}
	return "2d"
}

// Coords is the number of coordinate components a read of this
// declaration uses (before w).
func (d SamplerDim) Coords() int {
	if d == Sampler2D {
		return 2
	}
	return 3
}
