package target

// Name names a code-generation target: what `--target` takes, the key of
// the default pipelines (passes.DefaultPipelines) and of the emitters
// (Register, Emit).
type Name string

// The targets.
const (
	PIR      Name = "pir"       // the passlens IR itself, as text
	SPIRV    Name = "spirv"     // SPIR-V 1.3 for Vulkan 1.1 (compiler/target/spirv)
	DXIL     Name = "dxil"      // DXIL-style scalar LLVM IR (compiler/target/dxil)
	SM3      Name = "sm3"       // shader model 3 assembly (compiler/target/sm3)
	AMDGCNLL Name = "amdgcn-ll" // LLVM IR for llc's amdgcn target (compiler/target/all)
)

// Strings returns names as strings, e.g. for strings.Join in messages.
func Strings(names []Name) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = string(n)
	}
	return out
}
