package spirv

import (
	"fmt"
	"strings"

	"passlens/compiler/ir"
)

// This file maps textures and samplers (ir/texture.go) to SPIR-V: a
// texture global is a UniformConstant variable of an OpTypeImage (sampled
// type the texel's scalar, Dim from the kind, Arrayed for arrays, Depth 2
// "unknown" so it serves plain and comparison sampling, Sampled 1, format
// Unknown), a sampler one of OpTypeSampler; both get the global's
// DescriptorSet and Binding (t, s and u registers share binding numbers,
// as DXC's default mapping does). Each tex.* call loads the image (and
// the sampler, combined with OpSampledImage) and becomes:
//
//	tex.load                  OpImageFetch, Lod mip (+ offset)
//	tex.sample(_bias)         OpImageSampleImplicitLod (+ Bias) in pixel shaders;
//	                          elsewhere OpImageSampleExplicitLod Lod 0 (the
//	                          interpreter's level without derivatives)
//	tex.sample_level          OpImageSampleExplicitLod Lod
//	tex.sample_grad           OpImageSampleExplicitLod Grad
//	tex.sample_cmp            OpImageSampleDrefImplicitLod (pixel) / Dref Lod 0
//	tex.sample_cmp_level_zero OpImageSampleDrefExplicitLod Lod 0
//	tex.gather(_cmp)          OpImageGather / OpImageDrefGather
//	tex.dims                  OpImageQuerySizeLod + OpImageQueryLevels
//
// A constant offset is a ConstOffset operand (omitted when zero), any
// other an Offset operand (capability ImageGatherExtended). Results are
// four components; a narrower texel type takes the first ones.

// SPIR-V enumerants of images (SPIR-V 1.3 unified specification).
const (
	OpTypeImage                  = 25
	OpTypeSampler                = 26
	OpTypeSampledImage           = 27
	OpSampledImage               = 86
	OpImageSampleImplicitLod     = 87
	OpImageSampleExplicitLod     = 88
	OpImageSampleDrefImplicitLod = 89
	OpImageSampleDrefExplicitLod = 90
	OpImageFetch                 = 95
	OpImageGather                = 96
	OpImageDrefGather            = 97
	OpImageQuerySizeLod          = 103
	OpImageQueryLevels           = 106

	CapImageGatherExtended = 25
	CapSampled1D           = 43
	CapSampledCubeArray    = 45
	CapImageQuery          = 50

	DimOne  = 0
	DimTwo  = 1
	DimCube = 3

	ImageOpBias        = 0x1
	ImageOpLod         = 0x2
	ImageOpGrad        = 0x4
	ImageOpConstOffset = 0x8
	ImageOpOffset      = 0x10
)

// Operand kinds of image instructions (grammar.go, disasm.go).
const (
	kDim operandKind = iota + 64
	kImageFormat
	kImageOperands
)

var (
	dimNames         = map[uint32]string{0: "1D", 1: "2D", 2: "3D", 3: "Cube", 4: "Rect", 5: "Buffer", 6: "SubpassData"}
	imageFormatNames = map[uint32]string{0: "Unknown"}
	imageOpBits      = []string{"Bias", "Lod", "Grad", "ConstOffset", "Offset", "ConstOffsets", "Sample", "MinLod"}
)

func init() {
	kindNames["dim"], kindNames["fmt"], kindNames["imo"] = kDim, kImageFormat, kImageOperands
	defOp(OpTypeImage, "TypeImage", "R i dim n n n n fmt")
	defOp(OpTypeSampler, "TypeSampler", "R")
	defOp(OpTypeSampledImage, "TypeSampledImage", "R i")
	defOp(OpSampledImage, "SampledImage", "T R i i")
	defOp(OpImageSampleImplicitLod, "ImageSampleImplicitLod", "T R i i imo? i*")
	defOp(OpImageSampleExplicitLod, "ImageSampleExplicitLod", "T R i i imo? i*")
	defOp(OpImageSampleDrefImplicitLod, "ImageSampleDrefImplicitLod", "T R i i i imo? i*")
	defOp(OpImageSampleDrefExplicitLod, "ImageSampleDrefExplicitLod", "T R i i i imo? i*")
	defOp(OpImageFetch, "ImageFetch", "T R i i imo? i*")
	defOp(OpImageGather, "ImageGather", "T R i i i imo? i*")
	defOp(OpImageDrefGather, "ImageDrefGather", "T R i i i imo? i*")
	defOp(OpImageQuerySizeLod, "ImageQuerySizeLod", "T R i i")
	defOp(OpImageQueryLevels, "ImageQueryLevels", "T R i")
	capabilityNames[CapImageGatherExtended] = "ImageGatherExtended"
	capabilityNames[CapSampled1D] = "Sampled1D"
	capabilityNames[CapSampledCubeArray] = "SampledCubeArray"
	capabilityNames[CapImageQuery] = "ImageQuery"
}

// imageTypes caches the image, sampler and sampled-image types.
type imageKey struct {
	elem    *ir.Type
	kind    string
	sampled bool // the OpTypeSampledImage of the image
}

// imageType returns the OpTypeImage of a texture global (or, with
// sampled, its OpTypeSampledImage).
func (e *enc) imageType(g *ir.Global, sampled bool) (uint32, error) {
	sh, _ := ir.TextureShape(g.Kind)
	elem := g.ValType.Scalar()
	k := imageKey{elem, g.Kind, sampled}
	if id, ok := e.images[k]; ok {
		return id, nil
	}
	if elem == nil || elem.Kind == ir.KBool || elem.Bits != 32 && elem.Bits != 16 {
		return 0, fmt.Errorf("texel type %s: images hold 32-bit (or, converted, 16-bit) scalars or vectors", g.ValType)
	}
	// A Texture2D<half4> is an image of 32-bit floats whose reads are
	// converted (texelScalar), as DXC declares it: Vulkan images have
	// 32-bit sampled types.
	st, err := e.typeID(texelScalar(elem), rulePlain)
	if err != nil {
		return 0, err
	}
	var id uint32
	if sampled {
		img, err := e.imageType(g, false)
		if err != nil {
			return 0, err
		}
		id = e.id()
		e.globals.inst(OpTypeSampledImage, id, img)
		e.name(id, "type.sampled.image")
	} else {
		dim := uint32(sh.Coords)
		if sh.Array {
			dim--
		}
		dim-- // 1 → 1D (0), 2 → 2D (1), 3 → 3D (2)
		if sh.Cube {
			dim = DimCube
			if sh.Array {
				e.capability(CapSampledCubeArray)
			}
		}
		depth, usage, format := uint32(2), uint32(1), uint32(0)
		if sh.RW {
			// A storage image (rwtexture.go).
			depth, usage, format = 0, 2, e.storageFormat(g.ValType)
		}
		if dim == DimOne {
			if sh.RW {
				e.capability(CapImage1D)
			} else {
				e.capability(CapSampled1D)
			}
		}
		arrayed, ms := uint32(0), uint32(0)
		if sh.Array {
			arrayed = 1
		}
		if sh.MS {
			ms = 1 // texture_ms.go
		}
		id = e.id()
		e.globals.inst(OpTypeImage, id, st, dim, depth, arrayed, ms, usage, format)
		e.name(id, "type."+strings.ToLower(dimNames[dim])+".image")
	}
	e.images[k] = id
	return id, nil
}

// texelScalar is the 32-bit scalar an image of elem holds.
func texelScalar(elem *ir.Type) *ir.Type {
	switch {
	case elem.Bits == 32:
		return elem
	case elem.Kind == ir.KFloat:
		return ir.F32
	case elem.Kind == ir.KInt:
		return ir.I32
	}
	return ir.U32
}

// samplerType returns OpTypeSampler.
func (e *enc) samplerType() uint32 {
	k := imageKey{kind: "sampler"}
	if id, ok := e.images[k]; ok {
		return id
	}
	id := e.id()
	e.globals.inst(OpTypeSampler, id)
	e.name(id, "type.sampler")
	e.images[k] = id
	return id
}

// imageVar declares a texture or sampler global.
func (e *enc) imageVar(g *ir.Global, b Binding) error {
	var tid uint32
	if ir.IsSamplerKind(g.Kind) {
		tid = e.samplerType()
	} else {
		var err error
		if tid, err = e.imageType(g, false); err != nil {
			return err
		}
	}
	if isArrayElement(g) {
		e.arrayElementVar(&gvar{g: g, sc: SCUniformConstant}, tid, SCUniformConstant, b)
		return nil
	}
	gv := &gvar{g: g, sc: SCUniformConstant, id: e.id()}
	e.globals.inst(OpVariable, e.pointerType(SCUniformConstant, tid), gv.id, SCUniformConstant)
	e.name(gv.id, g.Name())
	e.annots.inst(OpDecorate, gv.id, DecDescriptorSet, uint32(b.Set))
	e.annots.inst(OpDecorate, gv.id, DecBinding, uint32(b.Binding))
	e.gvars[g] = gv
	return nil
}

// imageGlobal returns the texture or sampler global an operand names.
func (fe *fn) imageGlobal(v ir.Value, sampler bool) (*ir.Global, error) {
	g, ok := v.(*ir.Global)
	if !ok || !ir.IsImageGlobal(g) || ir.IsSamplerKind(g.Kind) != sampler {
		what := "texture"
		if sampler {
			what = "sampler"
		}
		return nil, fe.fail("the %s operand %s must be a %s global (inline calls that pass textures)", what, v.Ref(), what)
	}
	return g, nil
}

// texture emits a tex.* intrinsic.
func (fe *fn) texture(in *ir.Instr) error {
	e := fe.e
	name := in.Intr.Name
	for i := 0; i < 2 && i < len(in.Args); i++ {
		if _, arr := fe.arraySels[in.Args[i]]; !arr && isImageSelect(in.Args[i]) {
			return fe.textureSelect(in, i) // texture_select.go
		}
	}
	g, gptr, nu, err := fe.imageRef(in.Args[0], false)
	if err != nil {
		return err
	}
	if ir.IsRWTextureGlobal(g) {
		return fe.rwTexture(in, g, gptr, nu)
	}
	img, err := fe.loadImage(g, gptr, nu)
	if err != nil {
		return err
	}
	val := func(v ir.Value) (uint32, error) {
		if _, err := fe.typ(v.Type()); err != nil {
			return 0, err
		}
		return fe.value(v)
	}
	sampled := func() (uint32, error) {
		_, sptr, snu, err := fe.imageRef(in.Args[1], true)
		if err != nil {
			return 0, err
		}
		smp := fe.nonUniform(fe.op(OpLoad, e.samplerType(), 0, sptr), snu)
		siT, err := e.imageType(g, true)
		if err != nil {
			return 0, fe.fail("%v", err)
		}
		return fe.nonUniform(fe.op(OpSampledImage, siT, 0, img, smp), nu || snu), nil
	}
	// operands is the image operands: mask (Bias, Lod or Grad) with its
	// ids, then the offset (ConstOffset if constant, omitted if zero, else
	// Offset), in bit order as SPIR-V requires.
	operands := func(mask uint32, ids []uint32, off ir.Value) ([]uint32, error) {
		if off != nil {
			if _, ok := off.(*ir.Const); !ok && name != "tex.gather" && name != "tex.gather_cmp" {
				return nil, fe.fail("%s with a non-constant offset: Vulkan allows those on gathers only (HLSL requires immediate offsets)", name)
			}
			if c, ok := off.(*ir.Const); !ok || !c.IsZeroValue() {
				id, err := val(off)
				if err != nil {
					return nil, err
				}
				if ok {
					mask |= ImageOpConstOffset
				} else {
					mask |= ImageOpOffset
					e.capability(CapImageGatherExtended)
				}
				ids = append(ids, id)
			}
		}
		if mask == 0 {
			return nil, nil
		}
		return append([]uint32{mask}, ids...), nil
	}
	args := make([]uint32, len(in.Args))
	for i, a := range in.Args {
		if i == 0 || i == 1 && name != "tex.load" && name != "tex.dims" && name != "tex.load_ms" {
			continue
		}
		if args[i], err = val(a); err != nil {
			return err
		}
	}
	rt := in.Type()
	res := fe.resultID(in)
	// result narrows a four-component result to the IR's type.
	result := func(op uint16, four *ir.Type, ops ...uint32) error {
		ft, err := fe.typ(four)
		if err != nil {
			return err
		}
		rid, err := fe.typ(rt)
		if err != nil {
			return err
		}
		if four == rt {
			fe.op(op, ft, res, ops...)
			return nil
		}
		v := fe.op(op, ft, 0, ops...)
		if s := rt.Scalar(); s != four.Scalar() {
			// A 16-bit texel type: the read's 32-bit values converted.
			conv := map[ir.Kind]uint16{ir.KFloat: OpFConvert, ir.KInt: OpSConvert, ir.KUint: OpUConvert}[s.Kind]
			four = ir.Vec(s, 4)
			ct, err := fe.typ(four)
			if err != nil {
				return err
			}
			if four == rt {
				fe.op(conv, ct, res, v)
				return nil
			}
			v = fe.op(conv, ct, 0, v)
		}
		fe.firstComponents(rid, res, v, rt)
		return nil
	}
	scalar := rt.Scalar()
	if scalar == nil {
		return fe.fail("%s returns %s", name, rt)
	}
	four := ir.Vec(texelScalar(scalar), 4)
	implicit := fe.onlyPixel()
	zero := e.constOf(ir.ConstFloat(ir.F32, 0))
	lodOps := func(mask uint32, ids []uint32, off ir.Value) ([]uint32, error) {
		if !implicit && mask == 0 {
			mask, ids = ImageOpLod, []uint32{zero}
		}
		return operands(mask, ids, off)
	}
	sampleOp := func(implicitOp, explicitOp uint16) uint16 {
		if implicit {
			return implicitOp
		}
		return explicitOp
	}
	switch name {
	case "tex.load":
		coord, off := args[1], in.Args[3]
		if _, isConst := off.(*ir.Const); !isConst {
			// Vulkan allows Offset on gathers only: add it to the texel
			// coordinate, which is what a load's offset means.
			if in.Args[1].Type() != off.Type() {
				return fe.fail("tex.load of an array texture with a non-constant offset is not supported by the SPIR-V back end")
			}
			ct, err := fe.typ(off.Type())
			if err != nil {
				return err
			}
			coord, off = fe.op(OpIAdd, ct, 0, coord, args[3]), nil
		}
		ops, err := operands(ImageOpLod, []uint32{args[2]}, off)
		if err != nil {
			return err
		}
		return result(OpImageFetch, four, append([]uint32{img, coord}, ops...)...)
	case "tex.sample", "tex.sample_bias":
		si, err := sampled()
		if err != nil {
			return err
		}
		mask, ids, off := uint32(0), []uint32(nil), in.Args[3]
		if name == "tex.sample_bias" {
			off = in.Args[4]
			if implicit {
				mask, ids = ImageOpBias, []uint32{args[3]}
			}
		}
		ops, err := lodOps(mask, ids, off)
		if err != nil {
			return err
		}
		return result(sampleOp(OpImageSampleImplicitLod, OpImageSampleExplicitLod), four, append([]uint32{si, args[2]}, ops...)...)
	case "tex.sample_level", "tex.sample_grad":
		si, err := sampled()
		if err != nil {
			return err
		}
		mask, ids, off := uint32(ImageOpLod), []uint32{args[3]}, in.Args[4]
		if name == "tex.sample_grad" {
			mask, ids, off = ImageOpGrad, []uint32{args[3], args[4]}, in.Args[5]
		}
		ops, err := operands(mask, ids, off)
		if err != nil {
			return err
		}
		return result(OpImageSampleExplicitLod, four, append([]uint32{si, args[2]}, ops...)...)
	case "tex.sample_cmp", "tex.sample_cmp_level_zero":
		si, err := sampled()
		if err != nil {
			return err
		}
		var ops []uint32
		op := uint16(OpImageSampleDrefExplicitLod)
		if name == "tex.sample_cmp" {
			op = sampleOp(OpImageSampleDrefImplicitLod, OpImageSampleDrefExplicitLod)
			ops, err = lodOps(0, nil, in.Args[4])
		} else {
			ops, err = operands(ImageOpLod, []uint32{zero}, in.Args[4])
		}
		if err != nil {
			return err
		}
		return result(op, ir.F32, append([]uint32{si, args[2], args[3]}, ops...)...)
	case "tex.gather", "tex.gather_cmp":
		si, err := sampled()
		if err != nil {
			return err
		}
		if name == "tex.gather" {
			c, ok := in.Args[3].(*ir.Const)
			if !ok {
				return fe.fail("tex.gather: the channel must be a constant")
			}
			ops, err := operands(0, nil, in.Args[4])
			if err != nil {
				return err
			}
			return result(OpImageGather, four, append([]uint32{si, args[2], e.uintConst(uint32(c.Bits))}, ops...)...)
		}
		if c, ok := in.Args[3].(*ir.Const); !ok || c.Bits != 0 {
			return fe.fail("tex.gather_cmp of a channel other than red: SPIR-V's OpImageDrefGather compares the red channel only")
		}
		ops, err := operands(0, nil, in.Args[5])
		if err != nil {
			return err
		}
		return result(OpImageDrefGather, four, append([]uint32{si, args[2], args[4]}, ops...)...)
	case "tex.load_ms":
		return fe.loadMS(in, img, args, operands, result, four)
	case "tex.dims":
		e.capability(CapImageQuery)
		sh, _ := ir.TextureShape(g.Kind)
		if sh.MS {
			return fe.dimsMS(in, img, sh)
		}
		u := ir.U32
		st, err := fe.typ(ir.Vec(u, sh.Dims))
		if err != nil {
			return err
		}
		ut, _ := fe.typ(u)
		size := fe.op(OpImageQuerySizeLod, st, 0, img, args[1])
		levels := fe.op(OpImageQueryLevels, ut, 0, img)
		rid, err := fe.typ(rt)
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
		fe.op(OpCompositeConstruct, rid, res, append(parts, levels)...)
		return nil
	}
	return fe.fail("intrinsic %s is not supported by the SPIR-V back end", name)
}

// onlyPixel reports whether the function runs only in pixel shaders
// (implicit-LOD sampling needs derivatives).
func (fe *fn) onlyPixel() bool {
	st := fe.e.stagesOf(fe.f)
	return len(st) == 1 && st[ir.StagePixel]
}

// loadImage loads the image of texture global g through gptr (its
// variable, or an element of an arrayed one: imageRef), decorated
// NonUniform when nu.
func (fe *fn) loadImage(g *ir.Global, gptr uint32, nu bool) (uint32, error) {
	imgT, err := fe.e.imageType(g, false)
	if err != nil {
		return 0, fe.fail("%v", err)
	}
	return fe.nonUniform(fe.op(OpLoad, imgT, 0, gptr), nu), nil
}

// firstComponents defines res (type rt, id rid) as the first components
// of the 4-vector v that an image operation returned: a shuffle for a
// vector result, an extract for a scalar.
func (fe *fn) firstComponents(rid, res, v uint32, rt *ir.Type) {
	if rt.Kind != ir.KVector {
		fe.op(OpCompositeExtract, rid, res, v, 0)
		return
	}
	idx := make([]uint32, rt.Len)
	for i := range idx {
		idx[i] = uint32(i)
	}
	fe.op(OpVectorShuffle, rid, res, append([]uint32{v, v}, idx...)...)
}
