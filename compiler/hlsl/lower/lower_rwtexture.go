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
	fl.b.Intrinsic("tex.write", ir.Void, []ir.Value{pl.tex, pl.coord, v}, "")
}

// texelPointer is the pointer an atomic on a texel place operates
// through: only whole scalar texels have one (nil otherwise).
func (fl *fnLowerer) texelPointer(pl *place) ir.Value {
	if len(pl.proj) > 0 || !pl.t.IsScalar() {
		return nil
	}
	return fl.b.Intrinsic("tex.texel", ir.Ptr(ir.SpaceStorage, fl.irType(pl.t)), []ir.Value{pl.tex, pl.coord}, pl.name+".p")
}

// rwTextureLoad lowers Load(coord) on a read-write texture.
func (fl *fnLowerer) rwTextureLoad(x *hlsl.MethodCall, tex, coord ir.Value) ir.Value {
	return fl.b.Intrinsic("tex.read", fl.irType(x.Method.Ret), []ir.Value{tex, coord}, exprName(x.Recv)+".load")
}
