package spvread_test

import (
	"strings"
	"testing"

	"passlens/compiler/spvread"
)

// FuzzRead: any input, text or binary, reads or fails with an error; the
// reader never panics (guard.Recover would turn a panic into an
// "internal error", which fails here).
func FuzzRead(f *testing.F) {
	f.Add([]byte(header + "%main = OpFunction %void None %fnty\n%l = OpLabel\n%v = OpIAdd %uint %uint_1 %uint_1\nOpSwitch %v %l 1 %l\nOpFunctionEnd\n"))
	f.Add([]byte("\x03\x02\x23\x07\x00\x03\x01\x00\x00\x00\x00\x00\x0a\x00\x00\x00\x00\x00\x00\x00\x02\x00\x11\x00\x01\x00\x00\x00"))
	f.Add([]byte("%a = OpTypeStruct %a\n%p = OpTypePointer Function %a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := spvread.Read("f.spvasm", data)
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatal(err)
		}
	})
}
