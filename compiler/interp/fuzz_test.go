package interp

import (
	"errors"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
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
		`{"workgroup_size":[8,2,1],"dispatch":[2,1,1],"buffers":[{"arg":0,"data":[1,2,3]},{"arg":2,"count":16}],"args":{"n":3}}`,
		`{"buffers":[{"name":"out","type":"i32","count":4}],"args":{"1":"0xFFFFFFFF"},"workgroup_size":[1024,1,1]}`,
		`{"workgroup_size":[0,0,2000],"args":{"zz":1},"buffers":[{"arg":-1}]}`,
	} {
		f.Add([]byte(s))
	}
	compute := func() *ir.Module {
		k := newKit(ir.U32, 4)
		k.store(k.tid)
		return k.finish()
	}()
	pixel := pixelModule()
	// An LLVM kernel: a global buffer, a scalar and local memory as
	// arguments, the work-group size from the dispatch packet.
	kernel, err := llvm.Import("k.ll", []byte(`define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n, ptr addrspace(3) %tmp) {
entry:
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %d = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %g = getelementptr i8, ptr addrspace(4) %d, i64 4
  %s = load i16, ptr addrspace(4) %g
  %s32 = zext i16 %s to i32
  %lp = getelementptr i32, ptr addrspace(3) %tmp, i32 %x
  store i32 %n, ptr addrspace(3) %lp
  call void @llvm.amdgcn.s.barrier()
  %v = load i32, ptr addrspace(3) %lp
  %y = add i32 %v, %s32
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 %y, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
declare void @llvm.amdgcn.s.barrier()
`))
	if err != nil {
		f.Fatal(err)
	}
	noteCoverage(kernel) // the seeds run it under go test
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseInputFile("in.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "in.json") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, m := range []*ir.Module{compute, pixel, kernel} {
			_, err := Run(m, in, Options{WaveSize: 4, MaxSteps: 100_000})
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("untyped error: %v", err)
			}
		}
	})
}
