package spirv

import "passlens/compiler/ir"

// Multisampled textures (Texture2DMS, Texture2DMSArray) are images with
// MS 1 (Sampled 1, format Unknown):
//
//	tex.load_ms  OpImageFetch with the Sample image operand (+ ConstOffset)
//	tex.dims     OpImageQuerySize + OpImageQuerySamples

// SPIR-V enumerants of multisampled images.
const (
	OpImageQuerySamples = 107
	ImageOpSample       = 0x40
)

func init() {
	defOp(OpImageQuerySamples, "ImageQuerySamples", "T R i")
}

// loadMS emits tex.load_ms: operands builds the offset operand, result
// narrows the four-component fetch to the IR's type.
func (fe *fn) loadMS(in *ir.Instr, img uint32, args []uint32, operands func(uint32, []uint32, ir.Value) ([]uint32, error),
	result func(uint16, *ir.Type, ...uint32) error, four *ir.Type) error {
	ops, err := operands(0, nil, in.Args[3])
	if err != nil {
		return err
	}
	// Image operands go in bit order: ConstOffset (0x8) before Sample (0x40).
	if len(ops) == 0 {
		ops = []uint32{ImageOpSample, args[2]}
	} else {
		ops[0] |= ImageOpSample
		ops = append(ops, args[2])
	}
	return result(OpImageFetch, four, append([]uint32{img, args[1]}, ops...)...)
}

// dimsMS emits tex.dims of a multisampled texture: its size and sample
// count.
func (fe *fn) dimsMS(in *ir.Instr, img uint32, sh ir.TexShape) error {
	u := ir.U32
	st, err := fe.typ(ir.Vec(u, sh.Dims))
	if err != nil {
		return err
	}
	ut, _ := fe.typ(u)
	size := fe.op(OpImageQuerySize, st, 0, img)
	samples := fe.op(OpImageQuerySamples, ut, 0, img)
	rid, err := fe.typ(in.Type())
	if err != nil {
		return err
	}
	var parts []uint32
	for i := 0; i < sh.Dims; i++ {
		parts = append(parts, fe.op(OpCompositeExtract, ut, 0, size, uint32(i)))
	}
	fe.op(OpCompositeConstruct, rid, fe.resultID(in), append(parts, samples)...)
	return nil
}
