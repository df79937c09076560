// Package all links every back end into a program: importing it for its
// side effects registers the targets with compiler/target (package target
// itself cannot import its subpackages without an import cycle).
package all

import (
	// The DXIL back end registers target "dxil".
	_ "passlens/compiler/target/dxil"
	// The SM3 back end registers target "sm3".
	_ "passlens/compiler/target/sm3"
	// The SPIR-V back end registers target "spirv".
	_ "passlens/compiler/target/spirv"
)
