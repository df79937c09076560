package sm3

import (
	"fmt"
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
// a pixel shader's SV_Position, v# with dcl_<usage> otherwise.
func (e *emitter) declareInput(r *sir.Reg, next *int) error {
	usage, index := splitSemantic(e.semanticOf(r))
	if !usages[usage] {
		return fmt.Errorf("sm3: input %s has semantic %q, which has no SM3 declaration", r.Name, e.semanticOf(r))
	}
	if e.profile == "ps_3_0" && usage == "position" {
		// vPos has only x and y; src() rejects reads of z and w.
		e.loc[r] = "vPos"
		e.dcls = append(e.dcls, "dcl vPos.xy")
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
		return "", fmt.Errorf("sm3: output %s has semantic %q, which has no SM3 declaration", r.Name, e.semanticOf(r))
	}
	o := fmt.Sprintf("o%d", *next)
	*next++
	e.dcls = append(e.dcls, fmt.Sprintf("dcl_%s%s %s", usage, index, o))
	return o, nil
}
