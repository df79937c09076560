package dxil

import (
	"context"
	"fmt"
	"testing"

	"passlens/compiler/llvm"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/samples"
)

func TestScratch(t *testing.T) {
	for _, s := range samples.All() {
		m, _, err := load.File(s.File, load.Options{})
		if err != nil {
			fmt.Println("LOADERR", s.File, err)
			continue
		}
		spec, _ := pipeline.Default("dxil")
		res := pipeline.Run(context.Background(), m, spec, pipeline.Options{})
		if res.Err != nil {
			fmt.Println("PIPEERR", s.File, res.Err)
			continue
		}
		txt, err := llvm.Export(m)
		fmt.Println("=====", s.File, err)
		fmt.Println(m.String())
		fmt.Println(txt)
	}
}
