package vkd3d

import (
	"fmt"

	"passlens/compiler/interp"
)

// textureFormats maps the runner's texture formats to the interpreter's
// (docs/run.md).
var textureFormats = map[string]string{
	"r32g32b32a32-float": "RGBA32F", "r32g32-float": "RG32F", "r32-float": "R32F",
	"r32g32b32a32-uint": "RGBA32UI", "r32g32-uint": "RG32UI", "r32-uint": "R32UI", "r32-typeless": "R32UI",
	"r32g32b32a32-sint": "RGBA32I", "r32g32-sint": "RG32I", "r32-sint": "R32I",
}

// TextureFormat is the interpreter's name of the runner's texture format
// (false when the interpreter lacks it).
func TextureFormat(runner string) (string, bool) {
	f, ok := textureFormats[runner]
	return f, ok
}

// TextureInput converts an [srv N] 2d, 3d or cube texture to the
// interpreter's run input under the given name; skip says why it cannot
// (a buffer, a format the interpreter lacks).
func (r *Resource) TextureInput(name string) (in interp.TextureInput, skip string) {
	switch {
	case r.Bad != "":
		return in, r.Bad
	case r.UAV || r.Dim != "2d" && r.Dim != "3d" && r.Dim != "cube":
		return in, "texture kind " + r.Dim
	}
	f, ok := textureFormats[r.Format]
	if !ok {
		return in, "texture format " + r.Format
	}
	in = interp.TextureInput{Name: name, Format: f, Width: r.Width, Height: r.Height}
	switch r.Dim {
	case "3d":
		in.Depth = r.Depth
	case "cube": // faces +X, -X, +Y, -Y, +Z, -Z, as the interpreter reads them
		in.Layers = 6
	}
	at := 0
	for k := 0; k < r.Levels; k++ {
		n := max(r.Width>>k, 1) * max(r.Height>>k, 1) * r.Depth * r.Comps
		level := make([]any, n)
		for i := range level {
			level[i] = fmt.Sprintf("0x%08X", r.Words[at+i])
		}
		at += n
		in.Levels = append(in.Levels, level)
	}
	return in, ""
}

// SamplerInput converts a [sampler N] section to the interpreter's run
// input under the given name.
func (s *Sampler) SamplerInput(name string) interp.SamplerInput {
	return interp.SamplerInput{Name: name, MinFilter: s.Filter[0], MagFilter: s.Filter[1], MipFilter: s.Filter[2],
		AddressU: s.Address[0], AddressV: s.Address[1], AddressW: s.Address[2], Comparison: s.Comparison}
}
