package dxil

import (
	"fmt"
	"sort"
	"testing"

	"passlens/compiler/ir"
)

func TestScratchList(t *testing.T) {
	m := loadHLSL(t, "testdata/all-intrinsics.hlsl")
	runSpec(t, m, "inline,sroa,simplify,scalarize,simplify")
	seen := map[string]bool{}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpIntrinsic {
					seen[in.Intr.Name+" "+in.Type().String()] = true
				}
			}
		}
	}
	var l []string
	for k := range seen {
		l = append(l, k)
	}
	sort.Strings(l)
	fmt.Println(l)
}
