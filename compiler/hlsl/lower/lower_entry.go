package lower

import (
	"strconv"
	"strings"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// The entry point. The IR entry function takes no parameters and returns
// void; stage inputs and outputs are globals with semantics (struct
// parameters and results flattened to one global per member, as the
// checker's EntryPoint lists them). The HLSL entry function's body is
// lowered into it directly: on entry each parameter gets an alloca filled
// from its input globals, and every return stores the returned value and
// the out parameters to the output globals before `ret`. Input globals are
// named after the parameter and field path (`@input.uv`), outputs `@out.`
// followed by the parameter or field path, or the semantic for a plain
// return value (`@out.SV_Target0`). Static globals whose initializer is
// not a compile-time constant are initialized first.

// entryState is the entry point being lowered.
type entryState struct {
	ep      *hlsl.EntryPoint
	outputs []entryOutput
}

type entryOutput struct {
	io *hlsl.EntryIO
	g  *ir.Global
}

var irStages = map[hlsl.Stage]ir.Stage{hlsl.StageCompute: ir.StageCompute, hlsl.StagePixel: ir.StagePixel, hlsl.StageVertex: ir.StageVertex}

// lowerEntry creates the entry function and lowers the entry point's body
// into it.
func (l *lowerer) lowerEntry(ep *hlsl.EntryPoint) {
	fd := ep.Func
	f := l.m.NewFunction(fd.Name, ir.Void, nil, nil)
	f.Entry = &ir.EntryPoint{Stage: irStages[ep.Stage], NumThreads: ep.NumThreads, WaveSize: ep.WaveSize}
	if ep.RootSignature != nil {
		f.Entry.RootSignature = ep.RootSignature.String()
	}
	fl := l.newFnLowerer(fd, f)
	st := &entryState{ep: ep}
	fl.entry = st

	inputs := map[*hlsl.EntryIO]*ir.Global{}
	for _, io := range ep.Inputs {
		g := l.ioGlobal(io, ir.SpaceInput, ioPathName(io, fd.Ret))
		inputs[io] = g
	}
	for _, io := range ep.Outputs {
		name := "out." + ioPathName(io, fd.Ret)
		if io.Param == nil && len(io.Path) == 0 {
			name = "out." + semanticName(io)
		}
		st.outputs = append(st.outputs, entryOutput{io: io, g: l.ioGlobal(io, ir.SpaceOutput, name)})
	}

	fl.at(fd.Pos())
	for _, v := range l.runtimeInits {
		if info := l.globals[v]; info != nil && info.ptr != nil {
			fl.at(v.NamePos)
			fl.b.Store(fl.initValue(v.Init, v.Type), info.ptr)
		}
	}
	for _, p := range fd.Params {
		if p.Mods&hlsl.ModUniform != 0 {
			continue // a member of $Globals
		}
		fl.at(p.NamePos)
		a := fl.alloca(p.Type, p.Name)
		fl.locals[p] = &varInfo{t: p.Type, ptr: a, decl: p}
		for _, io := range ep.Inputs {
			if io.Param != p {
				continue
			}
			g := inputs[io]
			v := fl.b.Load(g, g.Name())
			fl.b.Store(v, fl.ioPointer(a, p.Type, io.Path, p.Name))
		}
	}
	fl.stmts(fd.Body.Stmts)
	fl.finish(fd.Body.End())
}

// ioGlobal creates the input or output global of one entry IO.
func (l *lowerer) ioGlobal(io *hlsl.EntryIO, space ir.AddrSpace, name string) *ir.Global {
	g := ir.NewGlobal(l.uniqueGlobalName(name), space, l.irType(io.Type))
	g.Semantic = semanticName(io)
	g.Flat = io.Interp&hlsl.ModNoInterpolation != 0
	g.Loc = l.loc(io.Pos)
	if p := io.Param; p != nil && p.Vk.HasLocation && len(io.Path) == 0 && io.SysValue == hlsl.SVNone {
		g.Location = p.Vk.Location // [[vk::location(n)]] on the parameter
	}
	l.m.AddGlobal(g)
	return g
}

// ioPathName names an entry IO after its parameter and field path (ret is
// the entry point's result type, the root of return value paths).
func ioPathName(io *hlsl.EntryIO, ret *hlsl.Type) string {
	var parts []string
	t := ret
	if io.Param != nil {
		parts = append(parts, io.Param.Name)
		t = io.Param.Type
	}
	for _, i := range io.Path {
		if t == nil || t.Kind != hlsl.KindStruct || i >= len(t.Struct.Fields) {
			break
		}
		f := t.Struct.Fields[i]
		parts = append(parts, f.Name)
		t = f.Type
	}
	if len(parts) == 0 {
		return semanticName(io)
	}
	return strings.Join(parts, ".")
}

// ioPointer returns a pointer to the field at path inside the variable at
// base (of type t).
func (fl *fnLowerer) ioPointer(base ir.Value, t *hlsl.Type, path []int, name string) ir.Value {
	if len(path) == 0 {
		return base
	}
	idx := make([]ir.Value, len(path))
	for i, k := range path {
		idx[i] = ir.ConstInt(ir.I32, int64(k))
		if t.Kind == hlsl.KindStruct && k < len(t.Struct.Fields) {
			name += "." + t.Struct.Fields[k].Name
			t = t.Struct.Fields[k].Type
		}
	}
	return fl.b.Access(base, idx, name)
}

// entryReturn stores the outputs (from the returned value v and the out
// parameters) and returns.
func (fl *fnLowerer) entryReturn(v ir.Value) {
	for _, o := range fl.entry.outputs {
		var val ir.Value
		if o.io.Param == nil {
			if v == nil {
				continue
			}
			val = v
			if len(o.io.Path) > 0 {
				val = fl.b.ExtractValue(v, o.io.Path, o.g.Name())
			}
		} else {
			info := fl.locals[o.io.Param]
			if info == nil || info.ptr == nil {
				continue
			}
			val = fl.b.Load(fl.ioPointer(info.ptr, o.io.Param.Type, o.io.Path, o.io.Param.Name), o.g.Name())
		}
		fl.b.Store(val, o.g)
	}
	fl.b.Ret(nil)
}

// svNames spells system values canonically.
var svNames = map[hlsl.SysValue]string{
	hlsl.SVPosition: "SV_Position", hlsl.SVTarget: "SV_Target", hlsl.SVDepth: "SV_Depth",
	hlsl.SVDepthGreaterEqual: "SV_DepthGreaterEqual", hlsl.SVDepthLessEqual: "SV_DepthLessEqual",
	hlsl.SVCoverage: "SV_Coverage", hlsl.SVStencilRef: "SV_StencilRef", hlsl.SVIsFrontFace: "SV_IsFrontFace",
	hlsl.SVSampleIndex: "SV_SampleIndex", hlsl.SVPrimitiveID: "SV_PrimitiveID", hlsl.SVVertexID: "SV_VertexID",
	hlsl.SVInstanceID: "SV_InstanceID", hlsl.SVClipDistance: "SV_ClipDistance", hlsl.SVCullDistance: "SV_CullDistance",
	hlsl.SVRenderTargetArrayIndex: "SV_RenderTargetArrayIndex", hlsl.SVViewportArrayIndex: "SV_ViewportArrayIndex",
	hlsl.SVDispatchThreadID: "SV_DispatchThreadID", hlsl.SVGroupThreadID: "SV_GroupThreadID",
	hlsl.SVGroupID: "SV_GroupID", hlsl.SVGroupIndex: "SV_GroupIndex",
}

// semanticName is the semantic of an entry IO as the IR records it:
// system values spelled canonically (SV_Target always with its index,
// others with an index when it is not 0; the legacy COLOR and DEPTH
// pixel outputs become SV_Target and SV_Depth), user semantics as written
// (with the index the checker assigned to cascaded struct members).
func semanticName(io *hlsl.EntryIO) string {
	if n, ok := svNames[io.SysValue]; ok {
		if io.SysValue == hlsl.SVTarget || io.Index != 0 {
			return n + strconv.Itoa(io.Index)
		}
		return n
	}
	return io.Semantic
}
