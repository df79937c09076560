package sm3

import (
	"fmt"
	"passlens/compiler/ir"
	"strings"

	"passlens/compiler/sir"
)

// usages are the D3D9 declaration usages SM3 semantics map onto.
var usages = map[string]bool{
	"position": true, "normal": true, "texcoord": true, "color": true, "tangent": true,
	"binormal": true, "blendweight": true, "blendindices": true, "psize": true, "fog": true,
}

// splitSemantic turns "TEXCOORD3" into ("texcoord", "3"), with SV_ prefixes
// of the D3D10 spellings mapped onto D3D9 usages (SV_Position -> position).
func splitSemantic(sem string) (usage, index string) {
	s := strings.ToLower(strings.TrimPrefix(strings.ToUpper(sem), "SV_"))
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	usage, index = s[:i], s[i:]
	if index == "0" {
		index = ""
	}
	return usage, index
}

// semanticOf returns the semantic of the global a SIR register came from.
func (e *emitter) semanticOf(r *sir.Reg) string {
	if g := e.m.Global(r.Name); g != nil {
		return g.Semantic
	}
	return ""
}

// declareInput assigns an input register and records its dcl line: vPos for
// a pixel shader's VPOS (and, plus half a pixel, SV_Position), v# with
// dcl_<usage> otherwise.
func (e *emitter) declareInput(r *sir.Reg, next *int) error {
	usage, index := splitSemantic(e.semanticOf(r))
	if !usages[usage] {
		return fmt.Errorf("sm3: %sinput %s has semantic %q, which has no SM3 declaration", e.globalLoc(r), r.Name, e.semanticOf(r))
	}
	if e.profile == "ps_3_0" && (usage == "position" || usage == "vpos") {
		// vPos has only x and y; src() rejects reads of z and w.
		e.vpos = r
		e.loc[r] = "vPos"
		e.dcls = append(e.dcls, "dcl vPos.xy")
		if usage == "vpos" {
			return nil
		}
		// D3D9 puts pixel centres at integer coordinates: vPos of the
		// top-left pixel is (0, 0), where SV_Position is (0.5, 0.5). The
		// shader reads a copy with the half pixel added.
		x, err := e.newFlag("the pixel position")
		if err != nil {
			return err
		}
		if _, err := e.newFlag("the pixel position"); err != nil {
			return err
		}
		reg, _, _ := strings.Cut(x, ".")
		e.loc[r] = reg
		e.vposCopy = reg // assign prints the add once immediates have their c#
		return nil
	}
	v := fmt.Sprintf("v%d", *next)
	*next++
	e.loc[r] = v
	e.dcls = append(e.dcls, fmt.Sprintf("dcl_%s%s %s", usage, index, v))
	return nil
}

// declareVSOutput assigns a vs_3_0 output register o# with its dcl line.
func (e *emitter) declareVSOutput(r *sir.Reg, next *int) (string, error) {
	usage, index := splitSemantic(e.semanticOf(r))
	if !usages[usage] {
		return "", fmt.Errorf("sm3: %soutput %s has semantic %q, which has no SM3 declaration", e.globalLoc(r), r.Name, e.semanticOf(r))
	}
	o := fmt.Sprintf("o%d", *next)
	*next++
	e.dcls = append(e.dcls, fmt.Sprintf("dcl_%s%s %s", usage, index, o))
	return o, nil
}

// globalLoc is "line:col: " of the declaration of the global a SIR
// register came from, or "".
func (e *emitter) globalLoc(r *sir.Reg) string {
	return e.globalLocOf(e.m.Global(r.Name))
}

// fieldLocOf is the "line:col: " prefix of a message about member f of
// uniform buffer g: where the member's placement is written, else g's.
func (e *emitter) fieldLocOf(g *ir.Global, f ir.Field) string {
	if f.Loc.Line > 0 {
		return fmt.Sprintf("%d:%d: ", f.Loc.Line, f.Loc.Col)
	}
	return e.globalLocOf(g)
}

// globalLocOf is g's source position as an error prefix ("" if unknown).
func (e *emitter) globalLocOf(g *ir.Global) string {
	if g != nil && g.Loc.Line > 0 {
		return fmt.Sprintf("%d:%d: ", g.Loc.Line, g.Loc.Col)
	}
	return ""
}
