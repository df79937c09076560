package sm3

import (
	"strings"
	"testing"
)

// merge joins per-component instructions into write masks where that
// keeps the meaning, and leaves them alone where it would not.
func TestMergeComponents(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, in, want string }{
		{"aligned and replicated operands",
			"add r0.x, r0.x, r1.x\nadd r0.y, r0.y, r1.x\nadd r0.z, r0.z, r1.x\nadd r0.w, r0.w, r1.x",
			"add r0, r0, r1.x"},
		{"constants read per component",
			"mov r2.x, c1.x\nmov r2.y, c1.y",
			"mov r2.xy, c1"},
		{"the later reads what the earlier wrote",
			"add r0.x, r1.x, c0.x\nadd r0.y, r0.x, c0.x",
			"add r0.x, r1.x, c0.x\nadd r0.y, r0.x, c0.x"},
		{"components out of order",
			"mov r0.y, c0.x\nmov r0.x, c0.x",
			"mov r0.y, c0.x\nmov r0.x, c0.x"},
		{"per-component swizzle that does not line up",
			"mov r0.x, r1.y\nmov r0.y, r1.x",
			"mov r0.x, r1.y\nmov r0.y, r1.x"},
		{"scalar ops do not merge",
			"rcp r0.x, c0.x\nrcp r0.y, c0.y",
			"rcp r0.x, c0.x\nrcp r0.y, c0.y"},
		{"hoisted over an independent instruction",
			"mul r0.x, v0.x, c0.x\nadd r1.x, c1.x, c1.y\nmul r0.y, v0.y, c0.y",
			"mul r0.xy, v0, c0\nadd r1.x, c1.x, c1.y"},
		{"not hoisted over an instruction it depends on",
			"mul r0.x, v0.x, c0.x\nadd r1.x, c1.x, c1.y\nmul r0.y, r1.x, c0.y",
			"mul r0.x, v0.x, c0.x\nadd r1.x, c1.x, c1.y\nmul r0.y, r1.x, c0.y"},
		{"not hoisted over control flow",
			"mov r0.x, c0.x\nif_lt r1.x, c0.x\nmov r0.y, c0.x\nendif",
			"mov r0.x, c0.x\nif_lt r1.x, c0.x\nmov r0.y, c0.x\nendif"},
		{"negation must agree",
			"mov r0.x, -r1.x\nmov r0.y, r1.y",
			"mov r0.x, -r1.x\nmov r0.y, r1.y"},
	} {
		got := strings.Join(merge(strings.Split(c.in, "\n")), "\n")
		if got != c.want {
			t.Errorf("%s:\n%s\ngot\n%s\nwant\n%s", c.name, c.in, got, c.want)
		}
	}
}

// Dot-product chains become dp4/dp3 only in an order that rounds as dp
// does, over one pair of registers, without reading the destination.
func TestDotProducts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, in, want string }{
		{"dp4, y before x",
			"mul r0.x, v0.y, c0.y\nmad r0.x, v0.x, c0.x, r0.x\nmad r0.x, v0.z, c0.z, r0.x\nmad r0.x, v0.w, c0.w, r0.x",
			"dp4 r0.x, v0, c0"},
		{"dp3, then a term of other registers",
			"mul r1.z, v0.x, c4.x\nmad r1.z, v0.y, c4.y, r1.z\nmad r1.z, v0.z, c4.z, r1.z\nadd r1.z, r1.z, c7.x",
			"dp3 r1.z, v0, c4\nadd r1.z, r1.z, c7.x"},
		{"z first rounds differently",
			"mul r0.x, v0.z, c0.z\nmad r0.x, v0.x, c0.x, r0.x\nmad r0.x, v0.y, c0.y, r0.x",
			"mul r0.x, v0.z, c0.z\nmad r0.x, v0.x, c0.x, r0.x\nmad r0.x, v0.y, c0.y, r0.x"},
		{"mismatched components",
			"mul r0.x, v0.x, c0.y\nmad r0.x, v0.y, c0.x, r0.x\nmad r0.x, v0.z, c0.z, r0.x",
			"mul r0.x, v0.x, c0.y\nmad r0.x, v0.y, c0.x, r0.x\nmad r0.x, v0.z, c0.z, r0.x"},
		{"the destination is an operand",
			"mul r0.x, r0.x, c0.x\nmad r0.x, r0.y, c0.y, r0.x\nmad r0.x, r0.z, c0.z, r0.x",
			"mul r0.x, r0.x, c0.x\nmad r0.x, r0.y, c0.y, r0.x\nmad r0.x, r0.z, c0.z, r0.x"},
	} {
		got := strings.Join(dotProducts(strings.Split(c.in, "\n")), "\n")
		if got != c.want {
			t.Errorf("%s:\n%s\ngot\n%s\nwant\n%s", c.name, c.in, got, c.want)
		}
	}
}
