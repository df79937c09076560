package spvread_test

import (
	"strings"
	"testing"

	"passlens/compiler/analysis"
	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/load"
	"passlens/compiler/spvread"
	"passlens/compiler/target/spirv"
)

// FuzzRead: any input, text or binary, reads or fails with an error; the
// reader never panics (guard.Recover would turn a panic into an
// "internal error", which fails here), and the trees, the uniformity
// analysis and the printer work on whatever it reads.
func FuzzRead(f *testing.F) {
	f.Add([]byte(header + "%main = OpFunction %void None %fnty\n%l = OpLabel\n%v = OpIAdd %uint %uint_1 %uint_1\nOpSwitch %v %l 1 %l\nOpFunctionEnd\n"))
	f.Add([]byte("\x03\x02\x23\x07\x00\x03\x01\x00\x00\x00\x00\x00\x0a\x00\x00\x00\x00\x00\x00\x00\x02\x00\x11\x00\x01\x00\x00\x00"))
	f.Add([]byte("%a = OpTypeStruct %a\n%p = OpTypePointer Function %a\n"))
	// Binary modules from the SPIR-V back end.
	for _, name := range []string{"wave-switch-42", "nested-loops", "structs-arrays"} {
		m, _, err := load.File("samples/"+name, load.Options{})
		if err != nil || spirvPipeline(m) != nil {
			f.Fatalf("%s: %v", name, err)
		}
		words, err := spirv.Assemble(m, spirv.Options{})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(spirv.Bytes(words))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := spvread.Read("f.spvasm", data)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			return
		}
		// What reads, the explorer analyses: that must not panic either.
		for _, f := range m.Funcs {
			if !f.IsDeclaration() {
				g := analysis.NewFuncGraph(f).Graph
				analysis.Dominators(g)
				analysis.PostDominators(g)
				analysis.Cycles(g)
				uniformity.Uniformity(f)
			}
		}
		_ = m.String()
	})
}
