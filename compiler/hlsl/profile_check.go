package hlsl

import (
	"fmt"
	"strings"
)

// Shader-model checks (docs/hlsl-rules.md, "Shader models"): a feature
// newer than the profile's shader model is an error at its use, naming the
// feature and the model it needs. Like DXC, which reports these from the
// validator after dead code is removed, only what the entry point reaches
// is checked (through calls, as checkStageIntrinsics walks). Without a
// profile (Options.Profile) the model is LatestShaderModel and nothing is
// rejected. The minimum models are DXC's (OP::GetMinShaderModelAndMask in
// lib/DXIL/DxilOperations.cpp, the SM 6.x feature specifications).

var (
	sm60 = ShaderModel{6, 0}
	sm64 = ShaderModel{6, 4}
	sm66 = ShaderModel{6, 6}
)

// intrinsicModels are the intrinsics that need a newer shader model than
// the oldest profile (3.0), wherever they are used. QuadAny and QuadAll are
// SM 6.7 operations that DXC translates to quad reads below 6.7, so they
// need only 6.0; derivatives in compute shaders are checked separately.
var intrinsicModels = map[string]ShaderModel{
	"dot4add_i8packed": sm64, "dot4add_u8packed": sm64, "dot2add": sm64,
	"QuadReadAcrossX": sm60, "QuadReadAcrossY": sm60, "QuadReadAcrossDiagonal": sm60,
	"QuadReadLaneAt": sm60, "QuadAny": sm60, "QuadAll": sm60,
}

// derivativeMethods are the texture methods with an implicit level of
// detail (DXC's gradient operations Sample, SampleBias, SampleCmp,
// CalculateLOD): in compute shaders from SM 6.6.
var derivativeMethods = map[string]bool{
	"Sample": true, "SampleBias": true, "SampleCmp": true,
	"CalculateLevelOfDetail": true, "CalculateLevelOfDetailUnclamped": true,
}

// checkShaderModel reports the features the entry point uses that its
// profile's shader model does not have.
func (c *checker) checkShaderModel(ep *EntryPoint) {
	if c.opts.Profile.Name == "" {
		return
	}
	model := c.opts.model()
	prof := c.opts.Profile.Name
	need := func(n Node, feature string, min ShaderModel) {
		if model.Less(min) {
			c.errorf(n, "%s requires shader model %s or greater (profile %s is shader model %s)", feature, min, prof, model)
		}
	}
	for _, a := range ep.Func.Attrs {
		if a.Namespace == "" && strings.EqualFold(a.Name, "wavesize") {
			need(a, "attribute 'WaveSize'", sm66)
		}
	}
	compute := ep.Stage == StageCompute
	for _, f := range c.reachable(ep) { // entry_limits.go
		for _, call := range c.intrinsicCalls[f] {
			n := nameNode{call.NamePos, len(call.Name)}
			if min, ok := intrinsicModels[call.Name]; ok {
				need(n, fmt.Sprintf("'%s'", call.Name), min)
			}
			if strings.HasPrefix(call.Name, "Wave") {
				need(n, fmt.Sprintf("wave operation '%s'", call.Name), sm60)
			}
			if compute && derivativeIntrinsics[call.Name] {
				need(n, fmt.Sprintf("derivative '%s' in a compute shader", call.Name), sm66)
			}
			if strings.HasPrefix(call.Name, "Interlocked") && len(call.Args) > 0 && call.Args[0].Type().Scalar().Width() == 64 {
				need(n, fmt.Sprintf("64-bit atomic '%s'", call.Name), sm66)
			}
		}
		for _, mc := range c.methodCalls[f] {
			if compute && derivativeMethods[mc.Name] {
				need(mc, fmt.Sprintf("'%s' (implicit level of detail) in a compute shader", mc.Name), sm66)
			}
			if strings.HasPrefix(mc.Name, "Interlocked") && strings.HasSuffix(mc.Name, "64") {
				need(mc, fmt.Sprintf("64-bit atomic '%s'", mc.Name), sm66)
			}
		}
	}
}

// nameNode is the span of a name, for diagnostics at a call's callee.
type nameNode struct {
	p Pos
	n int
}

func (n nameNode) Pos() Pos { return n.p }
func (n nameNode) End() Pos { return n.p.advance(n.n) }
