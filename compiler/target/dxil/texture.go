package dxil

import (
	"fmt"
	"strings"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// Textures and samplers. Each tex.* call (ir/texture.go) becomes the DXIL
// operation DXC emits, on resource handles made right before it with
// dx.op.createHandle (class SRV for textures, Sampler for samplers; the
// range id is the resource's position among the module's resources of its
// class, the index its register):
//
//	tex.load                  dx.op.textureLoad        (66)
//	tex.load_ms               dx.op.textureLoad        (66), the sample index as the mip
//	tex.sample                dx.op.sample             (60)
//	tex.sample_bias           dx.op.sampleBias         (61)
//	tex.sample_level          dx.op.sampleLevel        (62)
//	tex.sample_grad           dx.op.sampleGrad         (63)
//	tex.sample_cmp            dx.op.sampleCmp          (64)
//	tex.sample_cmp_level_zero dx.op.sampleCmpLevelZero (65)
//	tex.dims                  dx.op.getDimensions      (72)
//	tex.gather                dx.op.textureGather      (73)
//	tex.gather_cmp            dx.op.textureGatherCmp   (74)
//
// Coordinates, offsets and gradients are passed as scalars padded with
// undef to DXIL's operand counts; the result is %dx.types.ResRet.<T> (or
// %dx.types.Dimensions), whose first components the scalarized users
// extract. The sampling clamp operand is undef (no clamp).
const (
	opCreateHandle       = 57
	opSample             = 60
	opSampleBias         = 61
	opSampleLevel        = 62
	opSampleGrad         = 63
	opSampleCmp          = 64
	opSampleCmpLevelZero = 65
	opTextureLoad        = 66
	opGetDimensions      = 72
	opTextureGather      = 73
	opTextureGatherCmp   = 74

	classSRV     = 0
	classSampler = 3
)

// handleType is %dx.types.Handle = { ptr }.
func (lw *lowerer) handleType() *ir.Type {
	t := ir.Struct("dx.types.Handle", []ir.Field{{Name: "p", Type: ir.Ptr(ir.SpaceFunction, ir.I8)}})
	if lw.f.Module != nil {
		lw.f.Module.AddStruct(t)
	}
	return t
}

// handle emits dx.op.createHandle for a texture or sampler global.
//
// A texture or sampler chosen at run time (a dynamic index into a
// resource array: a chain of selects between the element globals) is one
// createHandle with the index (arrayHandle, resarray.go); another select
// between textures is the same select between their handles.
func (lw *lowerer) handle(v ir.Value) (ir.Value, error) {
	if sel, ok := v.(*ir.Instr); ok && sel.Op == ir.OpSelect {
		if ri, ok := ir.MatchResourceArrayIndex(sel); ok && ir.IsImageGlobal(ri.Last) {
			return lw.arrayHandle(sel, ri, handleClass(ri.Last), lw.textureRange), nil
		}
		a, err := lw.handle(sel.Args[1])
		if err != nil {
			return nil, err
		}
		b, err := lw.handle(sel.Args[2])
		if err != nil {
			return nil, err
		}
		return lw.bd.Select(sel.Args[0], a, b, sel.Name()+".handle"), nil
	}
	g, ok := v.(*ir.Global)
	if !ok || !ir.IsImageGlobal(g) {
		return nil, fmt.Errorf("the resource operand %s is not a texture or sampler global (inline calls that pass resources)", v.Ref())
	}
	if ir.IsRWTextureGlobal(g) {
		return lw.uavHandle(g), nil
	}
	class := handleClass(g)
	rangeID := lw.textureRange(g)
	args := []ir.Value{ir.ConstInt(ir.I32, opCreateHandle), i8(class), ir.ConstInt(ir.I32, int64(rangeID)),
		ir.ConstInt(ir.I32, int64(max(g.Binding, 0))), ir.ConstBool(ir.Bool, false)}
	llvm.RegisterExternalIntrinsic("dx.op.createHandle", ir.AttrPure, len(args))
	return lw.bd.Intrinsic("dx.op.createHandle", lw.handleType(), args, g.Name()+".handle"), nil
}

// scalars returns the n components of a scalar or vector operand (from
// its constant or its construct; the scalarize pass leaves vector operands
// of intrinsics as constructs), padded with undef of pad to total.
func scalars(v ir.Value, total int, pad *ir.Type) ([]ir.Value, error) {
	var out []ir.Value
	switch x := v.(type) {
	case nil:
	case *ir.Const:
		if x.Type().Kind == ir.KVector {
			for i := 0; i < x.Type().Len; i++ {
				out = append(out, x.Elem(i))
			}
		} else {
			out = []ir.Value{x}
		}
	case *ir.Instr:
		switch {
		case x.Type().Kind != ir.KVector:
			out = []ir.Value{x}
		case x.Op == ir.OpConstruct:
			out = append(out, x.Args...)
		default:
			return nil, fmt.Errorf("vector operand %s is not a construct (run the dxil pipeline)", x.Ref())
		}
	default:
		if v.Type().Kind == ir.KVector {
			return nil, fmt.Errorf("vector operand %s (run the dxil pipeline)", v.Ref())
		}
		out = []ir.Value{v}
	}
	for len(out) < total {
		out = append(out, ir.ConstUndef(pad))
	}
	return out, nil
}

// texture lowers one tex.* call.
func (lw *lowerer) texture(in *ir.Instr) error {
	name := in.Intr.Name
	a := in.Args
	if name == "tex.write" || name == "tex.texel" {
		return lw.rwTexture(in) // texture_rw.go
	}
	lw.bd.SetBefore(in)
	tex, err := lw.handle(a[0])
	if err != nil {
		return err
	}
	f32, i32 := ir.F32, ir.I32
	var args []ir.Value
	add := func(v ir.Value, n int, pad *ir.Type) error {
		s, err := scalars(v, n, pad)
		if err == nil {
			args = append(args, s...)
		}
		return err
	}
	rt := in.Type()
	scalar := rt.Scalar()
	sampled := func() error {
		s, err := lw.handle(a[1])
		if err != nil {
			return err
		}
		args = append(args, tex, s)
		return add(a[2], 4, f32)
	}
	var code int
	var class string
	switch name {
	case "tex.read":
		// A UAV's textureLoad: mip and offsets undef.
		code, class = opTextureLoad, "textureLoad"
		args = append(args, tex, ir.ConstUndef(i32))
		err = add(a[1], 3, i32)
		if err == nil {
			err = add(nil, 3, i32)
		}
	case "tex.load", "tex.load_ms":
		// A multisampled texture's sample index takes the mip's place.
		code, class = opTextureLoad, "textureLoad"
		args = append(args, tex, a[2])
		err = add(a[1], 3, i32)
		if err == nil {
			err = add(a[3], 3, i32)
		}
	case "tex.sample", "tex.sample_bias", "tex.sample_level", "tex.sample_grad", "tex.sample_cmp", "tex.sample_cmp_level_zero":
		code = map[string]int{"tex.sample": opSample, "tex.sample_bias": opSampleBias, "tex.sample_level": opSampleLevel,
			"tex.sample_grad": opSampleGrad, "tex.sample_cmp": opSampleCmp, "tex.sample_cmp_level_zero": opSampleCmpLevelZero}[name]
		class = map[string]string{"tex.sample": "sample", "tex.sample_bias": "sampleBias", "tex.sample_level": "sampleLevel",
			"tex.sample_grad": "sampleGrad", "tex.sample_cmp": "sampleCmp", "tex.sample_cmp_level_zero": "sampleCmpLevelZero"}[name]
		if err = sampled(); err != nil {
			break
		}
		off := a[len(a)-1]
		if err = add(off, 3, i32); err != nil {
			break
		}
		switch name {
		case "tex.sample_bias", "tex.sample_level", "tex.sample_cmp", "tex.sample_cmp_level_zero":
			args = append(args, a[3])
		case "tex.sample_grad":
			if err = add(a[3], 3, f32); err == nil {
				err = add(a[4], 3, f32)
			}
		}
		if name != "tex.sample_level" && name != "tex.sample_cmp_level_zero" {
			args = append(args, ir.ConstUndef(f32)) // clamp
		}
	case "tex.gather", "tex.gather_cmp":
		code, class = opTextureGather, "textureGather"
		if name == "tex.gather_cmp" {
			code, class = opTextureGatherCmp, "textureGatherCmp"
		}
		if err = sampled(); err != nil {
			break
		}
		if err = add(a[len(a)-1], 2, i32); err != nil {
			break
		}
		args = append(args, a[3])
		if name == "tex.gather_cmp" {
			args = append(args, a[4])
		}
	case "tex.dims":
		code, class = opGetDimensions, "getDimensions"
		args = append(args, tex, a[1])
	default:
		return fmt.Errorf("no DXIL operation for intrinsic %s", name)
	}
	if err != nil {
		return err
	}
	// The result: %dx.types.ResRet.<T> { T, T, T, T, i32 } or
	// %dx.types.Dimensions { i32 x 4 }.
	var st *ir.Type
	ovl := ""
	if name == "tex.dims" {
		st = ir.Struct("dx.types.Dimensions", []ir.Field{{Name: "w", Type: i32}, {Name: "h", Type: i32}, {Name: "d", Type: i32}, {Name: "l", Type: i32}})
	} else {
		elem := scalar
		if name == "tex.sample_cmp" || name == "tex.sample_cmp_level_zero" || name == "tex.gather_cmp" {
			elem = f32
		}
		if elem == nil {
			return fmt.Errorf("%s returns %s", name, rt)
		}
		o, err := overload(elem)
		if err != nil {
			return err
		}
		ovl = "." + o
		if elem.Kind == ir.KUint {
			// LLVM integers have no sign: one %dx.types.ResRet.i32 for
			// int and uint texels (two would be a type redefinition).
			elem = map[int]*ir.Type{16: ir.I16, 32: ir.I32, 64: ir.I64}[elem.Bits]
		}
		st = ir.Struct("dx.types.ResRet"+ovl, []ir.Field{{Name: "x", Type: elem}, {Name: "y", Type: elem}, {Name: "z", Type: elem},
			{Name: "w", Type: elem}, {Name: "status", Type: i32}})
	}
	if lw.f.Module != nil {
		lw.f.Module.AddStruct(st)
	}
	all := append([]ir.Value{ir.ConstInt(i32, int64(code))}, args...)
	dx := "dx.op." + class + ovl
	llvm.RegisterExternalIntrinsic(dx, ir.AttrPure, len(all))
	if rt.Kind == ir.KVector || name == "tex.dims" {
		// The call returns the struct; the scalarized users extract
		// component i at index i, the same path on the struct.
		if name == "tex.dims" && rt.Kind == ir.KVector && rt.Len < 4 {
			// Except the level (or sample) count, the vector's last
			// component: DXIL's Dimensions has it in field 3 whatever
			// the texture's shape ({w, h, undef, levels} for a 2D one).
			if err := moveLevelCount(lw.f, in, rt.Len-1); err != nil {
				return err
			}
		}
		in.SetType(st)
		in.Intr, in.Args = ir.LookupIntrinsic(dx), all
		return nil
	}
	call := lw.bd.Intrinsic(dx, st, all, in.Name()+".ret")
	in.Op, in.Intr, in.Args, in.Idx = ir.OpExtractValue, nil, []ir.Value{call}, []int{0}
	return nil
}

// moveLevelCount points the extractions of component last of a tex.dims
// result at %dx.types.Dimensions's field 3, where DXIL keeps the level
// (sample) count.
func moveLevelCount(f *ir.Function, dims *ir.Instr, last int) error {
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				if a != ir.Value(dims) {
					continue
				}
				if in.Op != ir.OpExtractValue || len(in.Idx) != 1 {
					return fmt.Errorf("tex.dims result used by %s, not a component extraction (run the scalarizer first)", in.Op)
				}
				if in.Idx[0] == last {
					in.Idx = []int{3}
				}
			}
		}
	}
	return nil
}

// removeDeadVectors deletes vector constructs left without users once the
// texture operations took their components (DXIL has no vector values),
// and the select chains (with their compares) of texture arrays that the
// handles replaced.
func removeDeadVectors(f *ir.Function) {
	for changed := true; changed; {
		changed = false
		used := map[ir.Value]bool{}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				for _, a := range in.Args {
					used[a] = true
				}
			}
		}
		for _, b := range f.Blocks {
			for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
				// Also the select chains of texture arrays (and their
				// compares) the handles replaced: pure, now unused.
				dead := in.Op == ir.OpConstruct && in.Type().Kind == ir.KVector ||
					in.Op == ir.OpSelect && in.Type().Kind == ir.KPointer || in.Op == ir.OpICmp
				if dead && !used[in] {
					in.Remove()
					changed = true
				}
			}
		}
	}
}

// isTexture reports whether an intrinsic is a tex.* operation.
func isTexture(name string) bool { return strings.HasPrefix(name, "tex.") }
