package ir

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// problems runs Verify and returns its problems as strings.
func problems(t *testing.T, m *Module) []string {
	t.Helper()
	err := Verify(m)
	if err == nil {
		return nil
	}
	var ve *VerifyError
	if !errors.As(err, &ve) {
		t.Fatalf("Verify returned %T, not *VerifyError", err)
	}
	var out []string
	for _, p := range ve.Problems {
		out = append(out, p.String())
	}
	return out
}

// expectProblem checks that verifying m reports want (a full problem line
// "function @f, block %b, %x = add: message", or a substring of one).
func expectProblem(t *testing.T, m *Module, want string) {
	t.Helper()
	ps := problems(t, m)
	for _, p := range ps {
		if strings.Contains(p, want) {
			return
		}
	}
	t.Errorf("no problem %q; got:\n  %s\nmodule:\n%s", want, strings.Join(ps, "\n  "), m)
}

func expectValid(t *testing.T, m *Module) {
	t.Helper()
	if ps := problems(t, m); len(ps) > 0 {
		t.Errorf("unexpected problems:\n  %s\nmodule:\n%s", strings.Join(ps, "\n  "), m)
	}
}

// TestVerifyTextRules: one broken module per rule, written as text (the
// parser accepts what the verifier rejects), with the exact message.
func TestVerifyTextRules(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"use not dominated", `define void @f(bool %c) {
entry:
  condbr bool %c, %a, %b
a:
  %x = add i32 1, 2
  br %b
b:
  %y = add i32 %x, 1
  ret
}`, "function @f, block %b, %y = add: operand %x (defined in block %a) does not dominate this use"},
		{"use before def in block", `define void @f() {
entry:
  %y = add i32 %x, 1
  %x = add i32 1, 2
  ret
}`, "function @f, block %entry, %y = add: operand %x is used before its definition in the same block"},
		{"self use", `define void @f() {
entry:
  %x = add i32 %x, 1
  ret
}`, "%x = add: operand %x is used before its definition in the same block"},
		{"def in unreachable block", `define void @f() {
entry:
  br %b
dead:
  %x = add i32 1, 2
  br %b
b:
  %y = add i32 %x, 1
  ret
}`, "block %b, %y = add: operand %x is defined in unreachable block %dead and does not dominate this use"},
		{"phi incoming not dominated", `define void @f(bool %c) {
entry:
  condbr bool %c, %a, %b
a:
  %x = add i32 1, 2
  br %m
b:
  br %m
m:
  %p = phi i32 [%x, %a], [%x, %b]
  ret
}`, "block %m, %p = phi: incoming value %x from %b is not dominated by its definition (in block %a)"},
		{"phi after non-phi", `define void @f(bool %c) {
entry:
  br %m
m:
  %x = add i32 1, 2
  %p = phi i32 [1, %entry]
  ret
}`, "block %m, %p = phi: phi must be at the start of its block"},
		{"phi missing predecessor", `define void @f(bool %c) {
entry:
  condbr bool %c, %a, %m
a:
  br %m
m:
  %p = phi i32 [1, %entry]
  ret
}`, "block %m, %p = phi: no incoming value for predecessor %a"},
		{"phi from non-predecessor", `define void @f(bool %c) {
entry:
  br %a
a:
  br %m
m:
  %p = phi i32 [1, %a], [2, %entry]
  ret
}`, "%p = phi: incoming block %entry is not a predecessor of %m"},
		{"phi type", `define void @f() {
entry:
  br %m
m:
  %p = phi i32 [%q, %entry]
  %q = fadd f32 1.0, 2.0
  ret
}`, "%p = phi: incoming value 0 has type f32, want i32"},
		{"phi duplicate edges differ", `define void @f(i32 %s) {
entry:
  switch i32 %s [case 1: %m] [default: %m]
m:
  %p = phi i32 [1, %entry], [2, %entry]
  ret
}`, "%p = phi: incoming values from %entry differ: i32 1 and i32 2"},
		{"phi too many entries", `define void @f(i32 %s) {
entry:
  switch i32 %s [case 1: %m] [default: %m]
m:
  %p = phi i32 [1, %entry], [1, %entry], [1, %entry]
  ret
}`, "%p = phi: 3 incoming entries for predecessor %entry, which has 2 edges to %m (want 1 or 2)"},
		{"phi in entry", `define void @f() {
entry:
  %p = phi i32
  ret
}`, "block %entry, %p = phi: the entry block cannot have phis"},
		{"entry is a branch target", `define void @f() {
entry:
  br %entry
}`, "function @f, block %entry: the entry block must not be a branch target"},
		{"binary types differ", `define void @f(f32 %a) {
entry:
  %x = add i32 1, %a
  ret
}`, "%x = add: operand types differ: i32 and f32"},
		{"binary float op on ints", `define void @f() {
entry:
  %x = fadd i32 1, 2
  ret
}`, "%x = fadd: fadd needs f32 scalar or vector operands, not i32"},
		{"binary int op on bools", `define void @f() {
entry:
  %x = add bool true, false
  ret
}`, "%x = add: add needs integer scalar or vector operands, not bool"},
		{"bitwise op on floats", `define void @f() {
entry:
  %x = xor f32 1.0, 2.0
  ret
}`, "xor needs integer or bool scalar or vector operands, not f32"},
		{"binary on matrices", `define void @f() {
entry:
  %x = fmul <2 x 2 x f32> zero, zero
  ret
}`, "fmul needs f32 scalar or vector operands, not <2 x 2 x f32>"},
		{"fneg on int", `define void @f() {
entry:
  %x = fneg i32 1
  ret
}`, "%x = fneg: fneg needs an f32 operand, not i32"},
		{"icmp on floats", `define void @f() {
entry:
  %x = icmp slt f32 1.0, 2.0
  ret
}`, "%x = icmp: icmp slt needs integer operands (bool only for eq/ne), not f32"},
		{"fcmp on ints", `define void @f() {
entry:
  %x = fcmp olt i32 1, 2
  ret
}`, "%x = fcmp: fcmp needs f32 operands, not i32"},
		{"select condition", `define void @f() {
entry:
  %x = select i32 1, f32 1.0, 2.0
  ret
}`, "%x = select: select condition has type i32, want bool (or a bool vector of the operands' length)"},
		{"select vector condition length", `define void @f() {
entry:
  %x = select <3 x bool> zero, <2 x f32> zero, zero
  ret
}`, "select condition has type <3 x bool>"},
		{"sitofp from float", `define void @f() {
entry:
  %x = sitofp f32 1.0 to f32
  ret
}`, "%x = sitofp: sitofp converts integers to floats, not f32 to f32"},
		{"cast changes lanes", `define void @f() {
entry:
  %x = fptosi <2 x f32> zero to <3 x i32>
  ret
}`, "fptosi changes the vector length: <2 x f32> to <3 x i32>"},
		{"trunc widens", `define void @f() {
entry:
  %x = trunc i32 1 to i64
  ret
}`, "%x = trunc: trunc needs a narrower integer result, not i32 to i64"},
		{"fpext narrows", `define void @f() {
entry:
  %x = fpext f32 1.0 to f16
  ret
}`, "fpext needs a wider float result, not f32 to f16"},
		{"bitcast size", `define void @f() {
entry:
  %x = bitcast i32 1 to <2 x i32>
  ret
}`, "%x = bitcast: bitcast needs non-bool types of equal size, not i32 to <2 x i32>"},
		{"construct count", `define void @f() {
entry:
  %x = construct <3 x f32> (f32 1.0, f32 2.0)
  ret
}`, "%x = construct: construct <3 x f32> needs 3 components, has 2"},
		{"construct component type", `define void @f() {
entry:
  %x = construct <2 x 2 x f32> (<2 x f32> zero, f32 1.0)
  ret
}`, "%x = construct: component 1 has type f32, want <2 x f32>"},
		{"construct struct fields", `type %S = { f32 a, i32 b }
define void @f() {
entry:
  %x = construct %S (f32 1.0, u32 2)
  ret
}`, "component 1 has type u32, want i32"},
		{"construct scalar", `define void @f() {
entry:
  %x = construct f32 (f32 1.0)
  ret
}`, "construct needs an aggregate result type, not f32"},
		{"extractelement index type", `define void @f() {
entry:
  %x = extractelement <2 x f32> zero, f32 1.0
  ret
}`, "%x = extractelement: index has type f32, want i32 or u32"},
		{"insertelement element type", `define void @f() {
entry:
  %x = insertelement <2 x f32> zero, i32 1, i32 0
  ret
}`, "%x = insertelement: inserted element has type i32, want f32"},
		{"insertvalue type", `type %S = { f32 a, i32 b }
define void @f() {
entry:
  %x = insertvalue %S zero, f32 1.0, 1
  ret
}`, "%x = insertvalue: inserted value has type f32, want i32"},
		{"insertvalue path", `define void @f() {
entry:
  %x = insertvalue [2 x f32] zero, f32 1.0, 2
  ret
}`, "index path [2] is out of range for [2 x f32]"},
		{"extractvalue empty path", `define void @f() {
entry:
  %x = extractvalue [2 x f32] zero, 
  ret
}`, "%x = extractvalue: extractvalue needs at least one index"},
		{"shuffle mask range", `define void @f() {
entry:
  %x = shuffle <2 x f32> zero, <2 x f32> zero, [0, 4]
  ret
}`, "%x = shuffle: shuffle mask index 4 is out of range [0, 4)"},
		{"shuffle element types", `define void @f() {
entry:
  %x = shuffle <2 x f32> zero, <2 x i32> zero, [0, 1]
  ret
}`, "shuffle needs two vectors of one element type, not <2 x f32> and <2 x i32>"},
		{"store type", `define void @f() {
entry:
  %p = alloca f32
  store i32 1, ptr<function, f32> %p
  ret
}`, "function @f, block %entry, store (instruction 1): stored value has type i32, but the pointer points to f32"},
		{"store to uniform", `@cb = global uniform f32 binding 0, 0
define void @f() {
entry:
  store f32 1.0, ptr<uniform, f32> @cb
  ret
}`, "store through a read-only pointer: the uniform address space is read-only"},
		{"store into a read-only buffer", `@ro = global storage [? x f32] binding 0, 1 readonly
define void @f() {
entry:
  %p = access ptr<storage, [? x f32]> @ro, i32 3
  store f32 1.0, ptr<storage, f32> %p
  ret
}`, "store through a read-only pointer: global @ro is read-only"},
		{"store operand not a pointer", `define void @f() {
entry:
  store f32 1.0, f32 2.0
  ret
}`, "store needs a pointer as its second operand, not f32"},
		{"load of runtime array", `@b = global storage [? x f32]
define void @f() {
entry:
  %x = load ptr<storage, [? x f32]> @b
  ret
}`, "cannot load a value holding a runtime-sized array"},
		{"memcpy types", `define void @f() {
entry:
  %a = alloca f32
  %b = alloca i32
  memcpy ptr<function, f32> %a, ptr<function, i32> %b
  ret
}`, "memcpy (instruction 2): memcpy needs two pointers to one type, not ptr<function, f32> and ptr<function, i32>"},
		{"memset byte", `define void @f() {
entry:
  %a = alloca f32
  memset ptr<function, f32> %a, f32 0.0
  ret
}`, "memset byte has type f32, want i32 or u32"},
		{"atomic on read-only memory", `@p = global uniform u32
define void @f() {
entry:
  %o = atomic add ptr<uniform, u32> @p, u32 1
  ret
}`, "%o = atomic: atomic on a read-only pointer: the uniform address space is read-only"},
		{"atomic on floats", `@s = global groupshared f32
define void @f() {
entry:
  %o = atomic add ptr<groupshared, f32> @s, f32 1.0
  ret
}`, "atomic needs a pointer to i32 or u32, not ptr<groupshared, f32>"},
		{"cmpxchg operand count", `@s = global groupshared u32
define void @f() {
entry:
  %o = atomic cmpxchg ptr<groupshared, u32> @s, u32 1
  ret
}`, "%o = atomic: atomic takes 3 operands, has 2"},
		{"call argument type", `define void @g(f32 %x) {
entry:
  ret
}
define void @f() {
entry:
  call void @g(i32 1)
  ret
}`, "function @f, block %entry, call (instruction 0): argument 0 has type i32, want f32"},
		{"call argument count", `declare f32 @g(f32 %x)
define void @f() {
entry:
  %r = call f32 @g()
  ret
}`, "%r = call: call of @g passes 0 arguments, want 1"},
		{"call result type", `declare f32 @g()
define void @f() {
entry:
  %r = call i32 @g()
  ret
}`, "%r = call: result type is i32, want f32"},
		{"intrinsic argument count", `define void @f() {
entry:
  %r = intr f32 sqrt(f32 1.0, f32 2.0)
  ret
}`, "%r = intr: intrinsic sqrt takes 1 arguments, has 2"},
		{"ret value in void function", `define void @f() {
entry:
  ret i32 1
}`, "ret (instruction 0): ret with a value in a function returning void"},
		{"ret type", `define f32 @f() {
entry:
  ret i32 1
}`, "ret (instruction 0): returns i32, but the function returns f32"},
		{"ret without value", `define f32 @f() {
entry:
  ret
}`, "ret needs a f32 value"},
		{"missing terminator", `define void @f() {
entry:
  %x = add i32 1, 2
}`, "function @f, block %entry, %x = add: block does not end with a terminator"},
		{"terminator in the middle", `define void @f() {
entry:
  ret
  %x = add i32 1, 2
}`, "ret (instruction 0): terminator is not the last instruction of its block"},
		{"empty block", `define void @f() {
entry:
  br %b
b:
}`, "function @f, block %b: block is empty (it needs a terminator)"},
		{"condbr condition", `define void @f() {
entry:
  condbr i32 1, %a, %a
a:
  ret
}`, "condbr (instruction 0): condition has type i32, want bool"},
		{"switch two defaults", `define void @f(i32 %s) {
entry:
  switch i32 %s [default: %a] [case 1, default: %a]
a:
  ret
}`, "switch (instruction 0): switch needs exactly one default, has 2"},
		{"switch no default", `define void @f(i32 %s) {
entry:
  switch i32 %s [case 1: %a]
a:
  ret
}`, "switch needs exactly one default, has 0"},
		{"switch duplicate value", `define void @f(i32 %s) {
entry:
  switch i32 %s [case 1: %a] [case 2, 1, default: %a]
a:
  ret
}`, "switch (instruction 0): duplicate case value 1"},
		{"switch value range", `define void @f(u32 %s) {
entry:
  switch u32 %s [case -1, default: %a]
a:
  ret
}`, "case value -1 does not fit u32"},
		{"switch selector type", `define void @f() {
entry:
  switch f32 1.0 [default: %a]
a:
  ret
}`, "switch selector has type f32, want i32 or u32"},
		{"selection merge on br", `define void @f() {
entry:
  selection_merge %m
  br %m
m:
  ret
}`, "function @f, block %entry, br (instruction 0): selection_merge must annotate a condbr or switch, not br"},
		{"loop merge on switch", `define void @f(i32 %s) {
entry:
  br %h
h:
  loop_merge %m, %h
  switch i32 %s [default: %m] [case 1: %h]
m:
  ret
}`, "loop_merge must annotate a br or condbr, not switch"},
		{"merge is the header", `define void @f(bool %c) {
entry:
  br %h
h:
  selection_merge %h
  condbr bool %c, %h, %x
x:
  ret
}`, "block %h, condbr (instruction 0): merge block %h is the header itself"},
		{"merge block shared", `define void @f(bool %c) {
entry:
  selection_merge %m
  condbr bool %c, %a, %m
a:
  selection_merge %m
  condbr bool %c, %b, %m
b:
  br %m
m:
  ret
}`, "block %a, condbr (instruction 0): block %m is already the merge block of header %entry"},
		{"header does not dominate merge", `define void @f(bool %c) {
entry:
  condbr bool %c, %a, %m
a:
  selection_merge %m
  condbr bool %c, %b, %m
b:
  br %m
m:
  ret
}`, "block %a, condbr (instruction 0): header %a does not dominate its merge block %m"},
		{"continue is merge", `define void @f(bool %c) {
entry:
  br %h
h:
  loop_merge %m, %m
  condbr bool %c, %h, %m
m:
  ret
}`, "continue target %m is also the merge block"},
		{"two back edges", `define void @f(bool %c) {
entry:
  br %h
h:
  loop_merge %m, %l2
  condbr bool %c, %l1, %m
l1:
  condbr bool %c, %h, %l2
l2:
  br %h
m:
  ret
}`, "block %h, condbr (instruction 0): loop header %h is the target of 2 back-edge blocks, want exactly 1"},
		{"no back edge", `define void @f(bool %c) {
entry:
  br %h
h:
  loop_merge %m, %k
  condbr bool %c, %k, %m
k:
  br %m
m:
  ret
}`, "loop header %h is the target of 0 back-edge blocks, want exactly 1"},
		{"back edge outside the continue construct", `define void @f(bool %c) {
entry:
  br %h
h:
  loop_merge %m, %k
  condbr bool %c, %b, %k
b:
  br %h
k:
  br %m
m:
  ret
}`, "back-edge block %b is not dominated by the continue target %k"},
		{"continue target not dominated", `define void @f(bool %c) {
entry:
  condbr bool %c, %h, %k
h:
  loop_merge %m, %k
  condbr bool %c, %k, %m
k:
  br %h
m:
  ret
}`, "loop header %h does not dominate its continue target %k"},
		{"vector length", `@g = global private <5 x f32>`, "global @g: value type: vector length 5 is not 2, 3 or 4"},
		{"runtime array outside storage", `@g = global private [? x f32]`, "global @g: a runtime-sized array must be in the storage address space, not private"},
		{"initializer on an input", `@g = global input f32 = 1.0`, "global @g: an input global cannot have an initializer"},
		{"pointer to integer bitcast", `define void @f() {
entry:
  %a = alloca i32
  %x = bitcast ptr<function, i32> %a to i32
  ret
}`, "bitcast converts scalars and vectors, not ptr<function, i32> to i32"},
		{"global in function space", `@g = global function f32`, "global @g: globals cannot be in the function address space"},
		{"runtime array not last field", `type %S = { [? x f32] a, u32 n }
@g = global storage %S`, "type %S: runtime-sized array field a of %S is not the last field"},
		{"alloca runtime array", `define void @f() {
entry:
  %a = alloca [? x f32]
  ret
}`, "%a = alloca: cannot allocate a runtime-sized array"},
		{"numthreads", `define void @f() compute numthreads(0, 1, 1) {
entry:
  ret
}`, "function @f: compute entry point needs numthreads of at least 1 in each dimension, got [0 1 1]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectProblem(t, mustParse(t, c.src+"\n"), c.want)
		})
	}
}

// TestVerifyValidCorners: things that look odd but are valid.
func TestVerifyValidCorners(t *testing.T) {
	cases := []struct{ name, src string }{
		{"unreachable uses are not checked", `define void @f() {
entry:
  ret
dead:
  %y = add i32 %x, 1
  br %dead2
dead2:
  %x = add i32 %y, 1
  br %dead
}`},
		{"phi self reference on a self loop", `define void @f(bool %c) {
entry:
  br %l
l:
  %p = phi i32 [0, %entry], [%q, %l]
  %q = add i32 %p, 1
  condbr bool %c, %l, %x
x:
  ret
}`},
		{"duplicate edges, one entry per block", `define void @f(i32 %s) {
entry:
  switch i32 %s [case 1: %m] [default: %m]
m:
  %p = phi i32 [1, %entry]
  ret
}`},
		{"duplicate edges, one entry per edge (LLVM)", `define void @f(bool %c) {
entry:
  condbr bool %c, %m, %m
m:
  %p = phi i32 [1, %entry], [1, %entry]
  ret
}`},
		{"phi use from an unreachable predecessor", `define void @f() {
entry:
  br %m
dead:
  %d = add i32 1, 2
  br %m
m:
  %p = phi i32 [0, %entry], [%d, %dead]
  ret
}`},
		{"unreachable merge block", `define void @f(bool %c) {
entry:
  selection_merge %m
  condbr bool %c, %a, %b
a:
  ret
b:
  ret
m:
  unreachable
}`},
		{"loop header is its own continue target", `define void @f(bool %c) {
entry:
  br %h
h:
  loop_merge %m, %h
  condbr bool %c, %h, %m
m:
  ret
}`},
		{"struct index as zero", `type %S = { f32 a, i32 b }
define void @f() {
entry:
  %a = alloca %S
  %p = access ptr<function, %S> %a, i32 zero
  ret
}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { expectValid(t, mustParse(t, c.src+"\n")) })
	}
}

// base is a small valid module the in-memory rule tests break.
const baseSrc = `type %S = { f32 a, i32 b }
@g = global private i32 = 1
define i32 @other(i32 %p) {
entry:
  %o = add i32 %p, 1
  ret i32 %o
}
define i32 @f(i32 %a, bool %c) {
entry:
  %x = add i32 %a, 1
  %s = alloca %S
  %e = access ptr<function, %S> %s, i32 1
  %v = extractvalue <2 x f32> zero, 1
  %arr = alloca [4 x f32]
  %ae = access ptr<function, [4 x f32]> %arr, i32 2
  condbr bool %c, %t, %m
t:
  br %m
m:
  %r = call i32 @other(i32 %x)
  ret i32 %r
}
`

// TestVerifyMemoryRules: rules the text format cannot express, checked by
// breaking a valid module in memory.
func TestVerifyMemoryRules(t *testing.T) {
	type tc struct {
		name    string
		breakIt func(m *Module)
		want    string
	}
	instr := func(m *Module, fn, name string) *Instr {
		for _, b := range m.Func(fn).Blocks {
			for _, in := range b.Instrs {
				if in.Name() == name {
					return in
				}
			}
		}
		t.Fatalf("no %%%s in @%s", name, fn)
		return nil
	}
	cases := []tc{
		{"value of another function", func(m *Module) {
			instr(m, "f", "x").Args[0] = instr(m, "other", "o")
		}, "function @f, block %entry, %x = add: operand 0 uses %o from another function (@other)"},
		{"parameter of another function", func(m *Module) {
			instr(m, "f", "x").Args[0] = m.Func("other").Params[0]
		}, "%x = add: operand 0 uses parameter %p of another function"},
		{"removed instruction", func(m *Module) {
			x := instr(m, "f", "x")
			instr(m, "f", "r").Args[0] = x
			x.Remove()
		}, "%r = call: operand 0 uses %x, which is not in this function (removed?)"},
		{"nil operand", func(m *Module) { instr(m, "f", "x").Args[1] = nil }, "%x = add: operand 1 is nil"},
		{"global not in module", func(m *Module) {
			instr(m, "f", "x").Args[0] = NewGlobal("stray", SpacePrivate, I32)
		}, "operand 0 uses global @stray, which is not in the module"},
		{"void instruction as operand", func(m *Module) {
			b := m.Func("f").Blocks[0]
			instr(m, "f", "x").Args[0] = b.Terminator()
		}, "operand 0 uses condbr, which produces no value"},
		{"branch into another function", func(m *Module) {
			m.Func("f").Block("t").Terminator().Succs[0] = m.Func("other").Blocks[0]
		}, "function @f, block %t, br (instruction 0): branch target %entry is a block of another function (@other)"},
		{"callee not in module", func(m *Module) {
			instr(m, "f", "r").Callee = NewModule("x").NewFunction("other", I32, []string{"p"}, []*Type{I32})
		}, "%r = call: callee @other is not in the module"},
		{"struct index not constant", func(m *Module) {
			instr(m, "f", "e").Args[1] = instr(m, "f", "x")
		}, "%e = access: index 0 into struct %S must be an integer constant"},
		{"struct index out of range", func(m *Module) {
			instr(m, "f", "e").Args[1] = ConstInt(I32, 2)
		}, "%e = access: index 0 (2) is out of range for %S"},
		{"access index type", func(m *Module) {
			instr(m, "f", "ae").Args[1] = ConstFloat(F32, 1)
		}, "%ae = access: index 0 has type f32, want i32 or u32"},
		{"access result type", func(m *Module) {
			instr(m, "f", "e").SetType(Ptr(SpaceFunction, F32))
		}, "%e = access: result type is ptr<function, f32>, want ptr<function, i32>"},
		{"extractvalue path", func(m *Module) { instr(m, "f", "v").Idx = []int{2} }, "%v = extractvalue: index path [2] is out of range for <2 x f32>"},
		{"extractvalue result", func(m *Module) { instr(m, "f", "v").SetType(I32) }, "%v = extractvalue: result type is i32, want f32"},
		{"binary result type", func(m *Module) { instr(m, "f", "x").SetType(U32) }, "%x = add: result type is u32, want i32"},
		{"arity", func(m *Module) { x := instr(m, "f", "x"); x.Args = x.Args[:1] }, "%x = add: add takes 2 operands, has 1"},
		{"invalid opcode", func(m *Module) { instr(m, "f", "x").Op = OpInvalid }, "invalid opcode 0"},
		{"cmp predicate", func(m *Module) {
			x := instr(m, "f", "x")
			x.Op, x.Pred = OpICmp, PredOLT
			x.SetType(Bool)
		}, `%x = icmp: invalid icmp predicate "olt"`},
		{"duplicate names", func(m *Module) { instr(m, "f", "v").SetRawName("x") }, "name %x is used more than once"},
		{"block name equals value name", func(m *Module) { m.Func("f").Block("t").SetName("x") }, "function @f, block %entry, %x = add: name %x is used more than once"},
		{"instruction's block field", func(m *Module) { instr(m, "f", "x").Block = nil }, "%x = add: instruction's Block field does not point at its block"},
		{"merge block outside the function", func(m *Module) {
			m.Func("f").Blocks[0].Terminator().SetSelectionMerge(m.Func("other").Blocks[0])
		}, "block %entry, condbr (instruction 6): merge block %entry is not a block of this function"},
		{"merge on a non-terminator", func(m *Module) {
			instr(m, "f", "x").SetSelectionMerge(m.Func("f").Block("m"))
		}, "%x = add: only terminators carry merge annotations"},
		{"global pointer type", func(m *Module) { m.Globals[0].ValType = F32 }, "global @g: type ptr<private, i32> is not ptr<private, f32>"},
		{"initializer type", func(m *Module) { m.Globals[0].Init = ConstFloat(F32, 1) }, "global @g: initializer has type f32, want i32"},
		{"malformed constant", func(m *Module) {
			m.Globals[0].Init = nil
			instr(m, "f", "x").Args[1] = ConstAggregate(Vec(I32, 2), []*Const{ConstInt(I32, 1)})
		}, "%x = add: operand 1: <2 x i32> constant has 1 elements, want 2"},
		{"duplicate global names", func(m *Module) {
			m.AddGlobal(NewGlobal("g", SpacePrivate, F32))
		}, "global @g: more than one global has this name"},
		{"function module field", func(m *Module) { m.Func("other").Module = nil }, "function @other: function's Module field does not point at the module that lists it"},
		{"parameter index", func(m *Module) { m.Func("f").Params[1].Index = 0 }, "function @f: parameter %c has Func/Index fields that do not match its position 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := mustParse(t, baseSrc)
			expectValid(t, m)
			c.breakIt(m)
			expectProblem(t, m, c.want)
		})
	}
}

// TestVerifyReportsAll: every problem is listed, with a summary line, and
// a long list is cut in Error() but kept in Problems.
func TestVerifyReportsAll(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("define void @f() {\nentry:\n")
	for i := 0; i < 150; i++ {
		sb.WriteString("  %x" + strconv.Itoa(i) + " = fadd i32 1, 2\n")
	}
	sb.WriteString("  ret\n}\n")
	err := Verify(mustParse(t, sb.String()))
	var ve *VerifyError
	if !errors.As(err, &ve) || len(ve.Problems) != 150 {
		t.Fatalf("want 150 problems, got %v", err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "verify: 150 problems:\n  function @f, block %entry, %x0 = fadd: ") || !strings.HasSuffix(msg, "\n  ... and 50 more") {
		t.Errorf("rendering:\n%s", msg)
	}
	p := ve.Problems[3]
	if p.Func != "f" || p.Block != "entry" || p.Where != "%x3 = fadd" {
		t.Errorf("problem fields: %+v", p)
	}
}

// TestVerifyNoPanics: the verifier survives modules with nil fields
// everywhere (a buggy pass may leave anything behind).
func TestVerifyNoPanics(t *testing.T) {
	m := mustParse(t, baseSrc)
	f := m.Func("f")
	f.Blocks[0].Terminator().Succs = []*Block{nil, nil}
	f.Block("t").Terminator().Succs = nil
	f.Block("m").Terminator().MergeKind = MergeLoop
	f.Blocks[1].Instrs = append(f.Blocks[1].Instrs, nil)
	f.Blocks = append(f.Blocks, nil)
	f.Params = append(f.Params, nil)
	m.Globals = append(m.Globals, nil)
	m.Funcs = append(m.Funcs, nil)
	m.Structs = append(m.Structs, nil)
	x := f.Blocks[0].Instrs[0]
	x.SetType(nil)
	sw := &Instr{Op: OpSwitch, typ: Void, Args: []Value{ConstInt(I32, 0)}, Cases: []SwitchCase{{Default: true}}, Block: f.Block("m")}
	f.Block("m").Instrs = append(f.Block("m").Instrs, sw)
	phi := &Instr{Op: OpPhi, typ: I32, Args: []Value{nil}, PhiBlocks: []*Block{nil, nil}}
	f.Block("t").Instrs = append([]*Instr{phi}, f.Block("t").Instrs...)
	ret := f.Block("m").Instrs[1]
	ret.Args = []Value{&Const{}}
	bad := ConstAggregate(Vec(I32, 2), []*Const{nil, nil})
	f.Block("m").Instrs = append([]*Instr{{Op: OpPhi, typ: Vec(I32, 2), Args: []Value{bad, ConstZero(Vec(I32, 2))},
		PhiBlocks: []*Block{f.Block("t"), f.Block("t")}}}, f.Block("m").Instrs...)
	f.Block("m").Instrs[0].Block = f.Block("m")
	if err := Verify(m); err == nil {
		t.Fatal("no error")
	}
	if err := Verify(nil); err == nil {
		t.Fatal("nil module accepted")
	}
	if err := VerifyFunction(nil); err == nil {
		t.Fatal("nil function accepted")
	}
}
