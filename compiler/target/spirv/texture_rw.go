package spirv

// (texture_rw.go sorts after texture.go, whose init registers the image
// operand kinds this file's grammar uses.)

import (
	"passlens/compiler/ir"
)

// Read-write textures (ir/rwtexture.go) are storage images: a
// UniformConstant variable of an OpTypeImage with Sampled 2, Depth 0 and
// the format DXC picks from the texel type (R32f, Rg32f, Rgba32f and
// their i/ui forms; three components have no format: Unknown, with the
// StorageImageRead/WriteWithoutFormat capabilities). Then
//
//	tex.read   OpImageRead (four components, narrowed to the texel type)
//	tex.write  OpImageWrite of the texel padded to four components
//	tex.texel  OpImageTexelPointer (Sample 0) in storage class Image,
//	           emitted at each atomic that uses it (the only use SPIR-V
//	           allows)
//	tex.dims   OpImageQuerySize; the level count is 1

// SPIR-V enumerants of storage images (SPIR-V 1.3 unified specification).
const (
	OpImageTexelPointer = 60
	OpImageRead         = 98
	OpImageWrite        = 99
	OpImageQuerySize    = 104

	CapImage1D                        = 44
	CapStorageImageExtendedFormats    = 49
	CapStorageImageReadWithoutFormat  = 55
	CapStorageImageWriteWithoutFormat = 56

	FormatRgba32f  = 1
	FormatR32f     = 3
	FormatRg32f    = 6
	FormatRgba32i  = 21
	FormatR32i     = 24
	FormatRg32i    = 25
	FormatRgba32ui = 30
	FormatR32ui    = 33
	FormatRg32ui   = 35
)

func init() {
	defOp(OpImageTexelPointer, "ImageTexelPointer", "T R i i i")
	defOp(OpImageRead, "ImageRead", "T R i i imo? i*")
	defOp(OpImageWrite, "ImageWrite", "i i i imo? i*")
	defOp(OpImageQuerySize, "ImageQuerySize", "T R i")
	capabilityNames[CapImage1D] = "Image1D"
	capabilityNames[CapStorageImageExtendedFormats] = "StorageImageExtendedFormats"
	capabilityNames[CapStorageImageReadWithoutFormat] = "StorageImageReadWithoutFormat"
	capabilityNames[CapStorageImageWriteWithoutFormat] = "StorageImageWriteWithoutFormat"
	for k, v := range map[uint32]string{FormatRgba32f: "Rgba32f", FormatR32f: "R32f", FormatRg32f: "Rg32f",
		FormatRgba32i: "Rgba32i", FormatR32i: "R32i", FormatRg32i: "Rg32i", FormatRgba32ui: "Rgba32ui",
		FormatR32ui: "R32ui", FormatRg32ui: "Rg32ui"} {
		imageFormatNames[k] = v
	}
}

// storageFormat is the image format of a read-write texture with texel
// type t (0, Unknown, for three components), as DXC chooses it.
func (e *enc) storageFormat(t *ir.Type) uint32 {
	n := 1
	if t.Kind == ir.KVector {
		n = t.Len
	}
	s := t.Scalar()
	table := map[ir.Kind][3]uint32{
		ir.KFloat: {FormatR32f, FormatRg32f, FormatRgba32f},
		ir.KInt:   {FormatR32i, FormatRg32i, FormatRgba32i},
		ir.KUint:  {FormatR32ui, FormatRg32ui, FormatRgba32ui},
	}[s.Kind]
	switch n {
	case 1:
		return table[0]
	case 2:
		e.capability(CapStorageImageExtendedFormats)
		return table[1]
	case 4:
		return table[2]
	}
	e.capability(CapStorageImageReadWithoutFormat)
	e.capability(CapStorageImageWriteWithoutFormat)
	return 0
}

// texelPointer emits tex.texel call tp as OpImageTexelPointer and
// records it as a pointer in storage class Image for the atomics using it.
func (fe *fn) texelPointer(tp *ir.Instr, g *ir.Global, gptr uint32, nu bool) error {
	if g.ValType.Kind == ir.KVector {
		return fe.fail("an atomic on a texel of %s: atomics need a scalar texel type", g.ValType)
	}
	if _, err := fe.typ(tp.Args[1].Type()); err != nil {
		return err
	}
	coord, err := fe.value(tp.Args[1])
	if err != nil {
		return err
	}
	st, err := fe.typ(g.ValType)
	if err != nil {
		return err
	}
	pt := fe.e.pointerType(SCImage, st)
	fe.nonUniform(fe.op(OpImageTexelPointer, pt, fe.resultID(tp), gptr, coord, fe.e.uintConst(0)), nu)
	fe.ptrs[tp] = &ptrInfo{sc: SCImage, ptype: pt}
	return nil
}

// rwTexture emits tex.read, tex.write, tex.texel and tex.dims on a
// read-write texture g.
func (fe *fn) rwTexture(in *ir.Instr, g *ir.Global, gptr uint32, nu bool) error {
	e := fe.e
	name := in.Intr.Name
	if name == "tex.texel" {
		// Only atomics may use an image texel pointer.
		for _, b := range fe.f.Blocks {
			for _, u := range b.Instrs {
				for i, a := range u.Args {
					if a == ir.Value(in) && (u.Op != ir.OpAtomic || i != 0) {
						return fe.fail("the texel pointer %s is used by %s: SPIR-V allows image texel pointers in atomics only", in.Ref(), u.Op)
					}
				}
			}
		}
		return fe.texelPointer(in, g, gptr, nu)
	}
	img, err := fe.loadImage(g, gptr, nu) // texture.go
	if err != nil {
		return err
	}
	coord := func() (uint32, error) {
		if _, err := fe.typ(in.Args[1].Type()); err != nil {
			return 0, err
		}
		return fe.value(in.Args[1])
	}
	scalar := g.ValType.Scalar()
	four := ir.Vec(scalar, 4)
	fourID, err := fe.typ(four)
	if err != nil {
		return err
	}
	switch name {
	case "tex.read":
		c, err := coord()
		if err != nil {
			return err
		}
		rt := in.Type()
		res := fe.resultID(in)
		if rt == four {
			fe.op(OpImageRead, fourID, res, img, c)
			return nil
		}
		v := fe.op(OpImageRead, fourID, 0, img, c)
		rid, err := fe.typ(rt)
		if err != nil {
			return err
		}
		fe.firstComponents(rid, res, v, rt) // texture.go
		return nil
	case "tex.write":
		c, err := coord()
		if err != nil {
			return err
		}
		t := in.Args[2].Type()
		if _, err := fe.typ(t); err != nil {
			return err
		}
		v, err := fe.value(in.Args[2])
		if err != nil {
			return err
		}
		if t != four {
			// Pad to four components (Vulkan: at least the format's).
			comps := []uint32{v}
			n := 1
			if t.Kind == ir.KVector {
				n = t.Len
				comps = nil
				for i := 0; i < n; i++ {
					comps = append(comps, fe.op(OpCompositeExtract, e.mustType(scalar, rulePlain), 0, v, uint32(i)))
				}
			}
			zero := e.constOf(ir.ConstInt(scalar, 0))
			if scalar.Kind == ir.KFloat {
				zero = e.constOf(ir.ConstFloat(scalar, 0))
			}
			for ; n < 4; n++ {
				comps = append(comps, zero)
			}
			v = fe.op(OpCompositeConstruct, fourID, 0, comps...)
		}
		fe.body.inst(OpImageWrite, img, c, v)
		return nil
	case "tex.dims":
		e.capability(CapImageQuery)
		sh, _ := ir.TextureShape(g.Kind)
		u := ir.U32
		st, err := fe.typ(ir.Vec(u, sh.Dims))
		if err != nil {
			return err
		}
		ut, _ := fe.typ(u)
		size := fe.op(OpImageQuerySize, st, 0, img)
		rid, err := fe.typ(in.Type())
		if err != nil {
			return err
		}
		var parts []uint32
		if sh.Dims == 1 {
			parts = []uint32{size}
		} else {
			for i := 0; i < sh.Dims; i++ {
				parts = append(parts, fe.op(OpCompositeExtract, ut, 0, size, uint32(i)))
			}
		}
		fe.op(OpCompositeConstruct, rid, fe.resultID(in), append(parts, e.uintConst(1))...)
		return nil
	}
	return fe.fail("intrinsic %s on the read-write texture @%s is not supported by the SPIR-V back end", name, g.Name())
}
