package interp

import (
	"errors"
	"strings"
	"testing"

	"passlens/compiler/ir"
)

// FuzzParseInput feeds arbitrary JSON to the input parser and runs what it
// accepts on a small compute and pixel shader: no panic, parse errors name
// the file, runs end in a result or a typed error within the step cap.
func FuzzParseInput(f *testing.F) {
	for _, s := range []string{
		`{"dispatch":[2,1,1],"buffers":[{"name":"Out","type":"u32","data":[1,2,3]}]}`,
		`{"buffers":[{"binding":0,"set":0,"count":4}],"uniforms":{"scale":2}}`,
		`{"rect":{"x":1,"y":2,"width":3,"height":2},"inputs":{"TEXCOORD0":{"corners":[[0,0],[1,0],[0,1],[1,1]]}}}`,
		`{"pixels":[[0,0],[3,1]],"uniforms":{"Colors.tint":[1,0.5,"nan","0x3F800000"]}}`,
		`{"vertices":[{"POSITION":[0,0,0]}],"vertex_count":3}`,
		`{"dispatch":[1,1,1,1]}`,
		`{"buffers":[{"binding":0,"count":-1}]}`,
		`{"dispatch":[4294967296,1,1]}`,
		`{"rect":{"width":1024,"height":1024}}`,
		"{\n \"bogus\": 1}",
		`[[[[[[[[`,
	} {
		f.Add([]byte(s))
	}
	compute := func() *ir.Module {
		k := newKit(ir.U32, 4)
		k.store(k.tid)
		return k.finish()
	}()
	pixel := pixelModule()
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseInputFile("in.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "in.json") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, m := range []*ir.Module{compute, pixel} {
			_, err := Run(m, in, Options{WaveSize: 4, MaxSteps: 100_000})
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("untyped error: %v", err)
			}
		}
	})
}
