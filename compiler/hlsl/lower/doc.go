// Package lower translates a checked HLSL program (package hlsl's
// Frontend result) into a passlens IR module. It is the only part of the
// HLSL front end that depends on compiler/ir; lower.go describes the
// lowering and lists the files.
package lower
