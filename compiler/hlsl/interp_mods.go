package hlsl

import "fmt"

// Interpolation modifiers (docs/hlsl-rules.md, decl.interp), as DXC's
// Sema checks them (SemaHLSL.cpp, Sema::DiagnoseHLSLDecl:
// err_hlsl_varmodifierna, err_hlsl_varmodifiersna,
// warn_hlsl_specifier_overridden): they apply to parameters, struct
// members and function results only; 'nointerpolation' excludes every
// other interpolation modifier; 'sample' overrides 'centroid'.

// linearMods are the modifiers DXC counts as linear interpolation
// (AT_HLSLLinear, AT_HLSLNoPerspective, AT_HLSLSample, AT_HLSLCentroid).
var linearMods = []struct {
	m    Modifiers
	name string
}{{ModLinear, "linear"}, {ModCentroid, "centroid"}, {ModNoPerspective, "noperspective"}, {ModSample, "sample"}}

// checkInterpMods reports the interpolation modifiers of a declaration
// named name at pos (what is "parameter", "field", "global variable" or
// "local variable").
func (c *checker) checkInterpMods(m Modifiers, pos Pos, name, what string) {
	at := func(format string, args ...any) {
		c.rep.errorf(pos, pos.advance(len(name)), format, args...)
	}
	if what == "global variable" || what == "local variable" {
		if m&ModNoInterpolation != 0 {
			at("'nointerpolation' is not a valid modifier for a %s", what)
		}
		for _, l := range linearMods {
			if m&l.m != 0 {
				at("'%s' is not a valid modifier for a %s", l.name, what)
			}
		}
		return
	}
	if m&ModNoInterpolation != 0 {
		for _, l := range linearMods {
			if m&l.m != 0 {
				at("'nointerpolation' and '%s' cannot be used together for a %s", l.name, what)
				return
			}
		}
	}
	if m&ModSample != 0 && m&ModCentroid != 0 {
		c.rep.warnf(pos, pos.advance(len(name)), "%s", fmt.Sprintf("'centroid' will be overridden by 'sample' for %s '%s'", what, name))
	}
}
