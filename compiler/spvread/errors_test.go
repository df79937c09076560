package spvread_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"passlens/compiler/analysis"
	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/ir"
	"passlens/compiler/spvread"
)

// header is a minimal compute module's preamble.
const header = `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 4 1 1
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%uint_1 = OpConstant %uint 1
`

// TestErrors: bad input is an error located at file:line:col with the
// line and a caret (text) or at a word offset (binary), never a panic.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"OpCapability Shader\n  %x = \n", `x.spvasm:2:3: error: expected '= Op…' after the result id %x`},
		{"OpCapability \"Shader\n", "x.spvasm:1:14: error: unterminated string"},
		{header + "%main = OpFunction %void None %fnty\n%l = OpLabel\n%v = OpIAdd %uint %nope %uint_1\nOpReturn\nOpFunctionEnd\n",
			"x.spvasm:12:19: error: %nope is not a value\n%v = OpIAdd %uint %nope %uint_1\n                  ^"},
		{header + "%main = OpFunction %void None %fnty\n%l = OpLabel\nOpBranch %nowhere\nOpFunctionEnd\n",
			"x.spvasm:12:10: error: %nowhere is not a label of this function"},
		{header + "%main = OpFunction %void None %fnty\n%l = OpLabel\nOpReturn\n", "x.spvasm:10:1: error: OpFunction %main has no OpFunctionEnd"},
		{header + "%main = OpFunction %void None %fnty\n%l = OpLabel\n%v = OpIAdd %uint %uint_1\nOpReturn\nOpFunctionEnd\n",
			"x.spvasm:12:1: error: OpIAdd needs 2 operands, has 1"},
		{header + "%main = OpFunction %void None %fnty\n%l = OpLabel\n%v = OpIAdd %uint_1 %uint_1 %uint_1\nOpReturn\nOpFunctionEnd\n",
			"x.spvasm:12:1: error: result type %uint_1 of OpIAdd is not a type"},
		{header + "%main = OpFunction %void None %fnty\n%l = OpLabel\n%l2 = OpLabel\nOpReturn\nOpFunctionEnd\n",
			"x.spvasm:12:1: error: block l has no terminator before label %l2"},
		{"%a = OpTypeArray %uint %uint_1\n", "x.spvasm:1:18: error: %uint is not a type"},
		{header + "%v = OpIAdd %uint %uint_1 %uint_1\n", "x.spvasm:10:1: error: OpIAdd outside a function\n%v = OpIAdd %uint %uint_1 %uint_1\n^"},
	} {
		_, err := spvread.Read("x.spvasm", []byte(c.src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
	words := func(ws ...uint32) []byte {
		b := make([]byte, 4*len(ws))
		for i, w := range ws {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		return b
	}
	for _, c := range []struct {
		bin  []byte
		want string
	}{
		{words(0x07230203, 0x10300, 0, 10, 0, 2<<16|17), "x.spv: word 5: error: instruction has word count 2, but the module has 1 words left"},
		{words(0x07230203, 0x10300, 0, 10, 0, 0), "x.spv: word 5: error: instruction has word count 0"},
		{words(0x07230203, 0x10300, 0, 10, 0, 1<<16|21), "x.spv: word 5: error: OpTypeInt has too few operands (0 words)"},
		{words(0x07230203, 0x10300, 0, 10, 0, 3<<16|5, 1, 0x41414141), "x.spv: word 7: error: string operand without a terminating nul"},
		{append(words(0x07230203, 0x10300, 0, 10), 1, 2), "x.spv: word 4: error: 18 bytes is not a whole number of 32-bit words"},
	} {
		_, err := spvread.Read("x.spv", c.bin)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("binary %x:\n got %v\nwant %s", c.bin, err, c.want)
		}
	}
}

// TestOpaque: an instruction the reader does not know keeps its result,
// its operands and the CFG, so the analyses work; uniformity treats it as
// any other operation (divergent because its operand is).
func TestOpaque(t *testing.T) {
	src := header + `OpDecorate %gid BuiltIn GlobalInvocationId
%v3 = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%main = OpFunction %void None %fnty
%entry = OpLabel
%g = OpLoad %v3 %gid
%x = OpCompositeExtract %uint %g 0
%y = OpFancyNewThing %uint %x %uint_1
%c = OpIEqual %bool %y %uint_1
OpSelectionMerge %end None
OpBranchConditional %c %then %end
%then = OpLabel
OpSomethingWithoutResult %y
OpBranch %end
%end = OpLabel
OpReturn
OpFunctionEnd
`
	m, err := spvread.Read("x.spvasm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	f := m.Func("main")
	var op *ir.Instr
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if spvread.IsOpaque(in) && in.Name() == "y" {
				op = in
			}
		}
	}
	if op == nil || len(op.Args) != 2 || op.Args[0].Name() != "x" {
		t.Fatalf("opaque %%y: %v\n%s", op, m)
	}
	// Text input: each instruction has its line and column, for the
	// source pane.
	if op.Loc != (ir.Loc{Line: 18, Col: 1}) {
		t.Errorf("%%y at %v, want line 18 column 1", op.Loc)
	}
	g := analysis.NewFuncGraph(f)
	if len(g.Graph.Names) != 3 || analysis.Dominators(g.Graph).IDom(2) != 0 {
		t.Fatalf("CFG %v", g.Graph)
	}
	u := uniformity.Uniformity(f)
	if !u.IsDivergent(op) || !u.IsDivergentTerminator(f.Blocks[0]) {
		t.Errorf("%%y (of divergent %%x) or the branch on it is uniform")
	}
}
