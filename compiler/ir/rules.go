package ir

// The verifier's type and memory rules, exported for code outside the
// package that must produce modules the verifier accepts (the random module
// generator in ir/irtest) and for tests that range over every opcode.

// NumOps is one past the last opcode.
const NumOps = numOps

// HoldsRuntimeArray reports whether a value of type t would contain a
// runtime-sized array (not looking through pointers): such types are only
// ever pointees, never SSA values.
func HoldsRuntimeArray(t *Type) bool { return holdsRuntimeArray(t) }

// ReadOnlyPointer says why stores through p are not allowed ("" if they
// are).
func ReadOnlyPointer(p Value) string { return readOnlyPointer(p) }

// IsClass reports whether t is a scalar of one of kinds, or a vector of
// such scalars.
func IsClass(t *Type, kinds ...Kind) bool { return isClass(t, kinds...) }
