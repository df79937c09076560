package ir

// Read-write textures. An RWTexture1D … RWTexture3D global is a storage
// global (not readonly) whose value type is its texel type and whose Kind
// names the HLSL type; TextureShape reports it with RW set. It has one
// level and no sampler. Reads and writes are intrinsics that are not pure
// (they are ordered with memory like loads and stores); an atomic works
// through the texel's pointer, which only atomics may use (as SPIR-V's
// OpImageTexelPointer). tex.dims works on it with mip 0 (level count 1).

// IsRWTextureGlobal reports whether g is a read-write texture.
func IsRWTextureGlobal(g *Global) bool {
	s, ok := texShapes[g.Kind]
	return ok && s.RW
}

func init() {
	def("tex.read", 0, 2, 2, "tex.read(rw texture, <n x i32> coord): the texel at coord of a read-write texture (0 outside it)")
	def("tex.write", 0, 3, 3, "tex.write(rw texture, <n x i32> coord, texel): writes the whole texel at coord (nothing outside the texture)")
	def("tex.texel", AttrPure, 2, 2, "tex.texel(rw texture, <n x i32> coord): pointer to the scalar texel at coord, for atomics only (invalid outside the texture)")
}
