package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Read-write textures. tex[coord] is a place without a pointer (place.tex,
// place.coord): reading it is tex.read, writing it tex.write; a write to
// some components reads the texel, inserts them and writes the whole
// texel back (as DXC does: a typed UAV store writes whole texels), and an
// atomic operates through tex.texel, the texel's pointer (SPIR-V's
// OpImageTexelPointer). tex.read and tex.write are not pure, so no pass
// moves a read across a write (docs/ir.md, "Read-write textures").
//
// A texture chosen from an array at run time is a select between the
// element globals (lower_resarray.go). Reading through it is fine (the
// back ends read each candidate and select); a write or an atomic
// branches on the select's conditions instead, one write per element,
// since SPIR-V cannot select an image to write to.

// texelPlace is the place of tex[coord] on a read-write texture.
func (fl *fnLowerer) texelPlace(x *hlsl.Index) *place {
	tex := fl.resourcePtr(x.X)
	coord := fl.rv(x.Index)
	fl.atNode(x)
	sh := x.X.Type().Resource.Shape()
	it := hlsl.TypeInt
	if sh.Coords > 1 {
		it = hlsl.VectorOf(hlsl.TypeInt, sh.Coords)
	}
	coord = fl.convert(coord, x.Index.Type(), it)
	name := exprName(x.X) + "." + indexName(x.Index)
	return &place{t: x.T, name: name, tex: tex, coord: coord}
}

// readTexel is tex.read of the place's texel.
func (fl *fnLowerer) readTexel(pl *place) ir.Value {
	return fl.b.Intrinsic("tex.read", fl.irType(pl.t), []ir.Value{pl.tex, pl.coord}, pl.name)
}

// loadTexel reads a texel place (and applies its projections).
func (fl *fnLowerer) loadTexel(pl *place) ir.Value {
	v := fl.readTexel(pl)
	for _, p := range pl.proj {
		v = fl.project(v, p)
	}
	return v
}

// storeTexel writes v to a texel place: the whole texel, or the texel
// read back with v's components inserted.
func (fl *fnLowerer) storeTexel(pl *place, v ir.Value) {
	if len(pl.proj) > 0 {
		olds := make([]ir.Value, len(pl.proj))
		cur := fl.readTexel(pl)
		for i, p := range pl.proj {
			olds[i] = cur
			if i+1 < len(pl.proj) {
				cur = fl.project(cur, p)
			}
		}
		for i := len(pl.proj) - 1; i >= 0; i-- {
			v = fl.inject(olds[i], pl.proj[i], v)
		}
	}
	fl.perTexture(pl.tex, nil, func(tex ir.Value) ir.Value {
		fl.b.Intrinsic("tex.write", ir.Void, []ir.Value{tex, pl.coord, v}, "")
		return nil
	})
}

// perTexture calls emit with the texture tex designates: with tex itself,
// or, for a select between read-write textures, in a branch per element
// (if/else on the select's conditions, a phi of type ret of the results
// when ret is not nil).
func (fl *fnLowerer) perTexture(tex ir.Value, ret *ir.Type, emit func(tex ir.Value) ir.Value) ir.Value {
	sel, ok := tex.(*ir.Instr)
	if !ok || sel.Op != ir.OpSelect {
		return emit(tex)
	}
	then, els, end := fl.newBlock("tex.then"), fl.newBlock("tex.else"), fl.newBlock("tex.end")
	fl.b.CondBr(sel.Args[0], then, els).SetSelectionMerge(end)
	fl.setBlock(then)
	a := fl.perTexture(sel.Args[1], ret, emit)
	tEnd := fl.b.B
	fl.b.Br(end)
	fl.setBlock(els)
	b := fl.perTexture(sel.Args[2], ret, emit)
	fEnd := fl.b.B
	fl.b.Br(end)
	fl.setBlock(end)
	if ret == nil {
		return nil
	}
	phi := fl.b.Phi(ret, "old")
	phi.AddIncoming(a, tEnd)
	phi.AddIncoming(b, fEnd)
	return phi
}

// texelAtomic emits an atomic on a texel place: through tex.texel, per
// element for a texture chosen at run time.
func (fl *fnLowerer) texelAtomic(pl *place, kind ir.AtomicKind, v, cmp ir.Value) ir.Value {
	t := fl.irType(pl.t)
	return fl.perTexture(pl.tex, t, func(tex ir.Value) ir.Value {
		p := fl.b.Intrinsic("tex.texel", ir.Ptr(ir.SpaceStorage, t), []ir.Value{tex, pl.coord}, pl.name+".p")
		return fl.b.Atomic(kind, p, v, cmp, "old")
	})
}

// rwTextureLoad lowers Load(coord) on a read-write texture.
func (fl *fnLowerer) rwTextureLoad(x *hlsl.MethodCall, tex, coord ir.Value) ir.Value {
	return fl.b.Intrinsic("tex.read", fl.irType(x.Method.Ret), []ir.Value{tex, coord}, exprName(x.Recv)+".load")
}
