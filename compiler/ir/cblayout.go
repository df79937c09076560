package ir

// PlaceMembers is the one rule for where the members of a constant buffer
// ($Globals or a cbuffer) go when some have explicit offsets (HLSL
// packoffset, or register(cN) on a global uniform) and the others do not.
// Every layout that places such members uses it: the HLSL frontend's D3D
// packing (the offsets tests and tools use to fill the interpreter's
// uniforms) and the SPIR-V back end's std140; only the rule for where one
// member may start (alignment, register boundaries) and how many bytes it
// covers differ between them.
//
// The rule is DXC's (AllocateDxilConstantBuffer) and vkd3d's: explicitly
// placed members keep their offsets; the others follow in declaration
// order after the end of the last byte any placed member covers, each at
// the first offset the layout allows. So an unplaced member never
// overlaps a placed one, whether it is declared before or after it.
//
// n is the member count; placed(i) reports member i's explicit offset;
// extent(i) is the number of bytes member i covers (including padding
// after it that nothing may use); next(i, off) is the first offset at or
// after off at which member i may start.
func PlaceMembers(n int, placed func(i int) (int, bool), extent func(i int) int, next func(i, off int) int) []int {
	offs := make([]int, n)
	free := 0
	isPlaced := make([]bool, n)
	for i := range n {
		if off, ok := placed(i); ok {
			offs[i], isPlaced[i] = off, true
			free = max(free, off+extent(i))
		}
	}
	for i := range n {
		if isPlaced[i] {
			continue
		}
		offs[i] = next(i, free)
		free = offs[i] + extent(i)
	}
	return offs
}
