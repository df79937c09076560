package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// HLSL types map one to one onto IR types: scalars to bool/i32/u32/f32,
// vectors to <N x T> (a 1-vector is its scalar), an R x C matrix to
// <R x C x T> (R row vectors), arrays and structs to IR arrays and named
// structs (field i of the HLSL struct is field i of the IR struct).
//
// Buffer memory (constant buffers and structured/typed buffers) stores a
// column-major matrix by columns, as D3D does: there an R x C
// column_major matrix is an IR <C x R> matrix (its transpose), and
// loading it applies the `transpose` intrinsic. This "memory layout" only
// differs from the logical layout for types containing column-major
// matrices; a struct that does gets a second IR struct type, named
// `<Name>.mem`, for buffer memory. Row-major matrices (and everything in
// function, private and groupshared memory) keep the logical layout.

// irType returns the logical IR type of t.
func (l *lowerer) irType(t *hlsl.Type) *ir.Type {
	return l.typeOf(t, false)
}

// memType returns the IR type of t as stored in buffer memory.
func (l *lowerer) memType(t *hlsl.Type) *ir.Type {
	return l.typeOf(t, true)
}

func (l *lowerer) typeOf(t *hlsl.Type, mem bool) *ir.Type {
	if t == nil {
		return ir.Void
	}
	switch t.Kind {
	case hlsl.KindVoid:
		return ir.Void
	case hlsl.KindBool:
		return ir.Bool
	case hlsl.KindInt:
		return ir.IntType(t.Width())
	case hlsl.KindUint:
		return ir.UintType(t.Width())
	case hlsl.KindFloat:
		return ir.FloatType(t.Width())
	case hlsl.KindVector:
		return ir.Vec(l.typeOf(t.Elem, false), t.Len)
	case hlsl.KindMatrix:
		s := l.typeOf(t.Elem, false)
		if mem && !t.RowMajor {
			return ir.Mat(s, t.Cols, t.Rows)
		}
		return ir.Mat(s, t.Rows, t.Cols)
	case hlsl.KindArray:
		return ir.Array(l.typeOf(t.Elem, mem), t.Len)
	case hlsl.KindStruct:
		if mem && needsMemLayout(t) {
			return l.memStruct(t.Struct)
		}
		return l.logicalStruct(t.Struct)
	case hlsl.KindResource:
		if hlsl.IsBufferResource(t) {
			return ir.I32 // a buffer held as a value is its id (lower_resvalue.go)
		}
		// A texture or sampler used as a value is a pointer to it.
		return ir.Ptr(ir.SpaceStorage, l.resourceValueType(t))
	}
	return ir.Void
}

// resourceValueType is the IR value type of a buffer global: a
// runtime-sized array of its elements (of 32-bit words for byte address
// buffers); of a texture its texel type and of a sampler u32 (never
// loaded: see ir/texture.go).
func (l *lowerer) resourceValueType(t *hlsl.Type) *ir.Type {
	switch {
	case t.Resource.IsTexture():
		return l.memType(t.Elem) // the texel type (ir/texture.go)
	case t.Resource.IsSampler():
		return ir.U32
	}
	if !t.Resource.Templated() {
		return ir.Array(ir.U32, -1)
	}
	return ir.Array(l.memType(t.Elem), -1)
}

// needsMemLayout reports whether t contains a column-major matrix, so
// that its buffer layout differs from its logical one.
func needsMemLayout(t *hlsl.Type) bool {
	switch {
	case t == nil:
		return false
	case t.Kind == hlsl.KindMatrix:
		return !t.RowMajor
	case t.Kind == hlsl.KindArray:
		return needsMemLayout(t.Elem)
	case t.Kind == hlsl.KindStruct:
		for _, f := range t.Struct.Fields {
			if needsMemLayout(f.Type) {
				return true
			}
		}
	}
	return false
}

// logicalStruct returns (creating and registering on first use) the IR
// struct type of sd.
func (l *lowerer) logicalStruct(sd *hlsl.StructDecl) *ir.Type {
	if t, ok := l.structs[sd]; ok {
		return t
	}
	fields := make([]ir.Field, len(sd.Fields))
	for i, f := range sd.Fields {
		fields[i] = ir.Field{Name: f.Name, Type: l.typeOf(f.Type, false)}
	}
	name := sd.Name
	if name == "" {
		name = "anon"
	}
	t := ir.Struct(uniqueIn(l.structNames, name), fields)
	l.structs[sd] = t
	l.m.AddStruct(t)
	return t
}

// memStruct returns the buffer-memory variant of sd (see above).
func (l *lowerer) memStruct(sd *hlsl.StructDecl) *ir.Type {
	if t, ok := l.memStructs[sd]; ok {
		return t
	}
	l.logicalStruct(sd) // the logical type gets the plain name
	fields := make([]ir.Field, len(sd.Fields))
	for i, f := range sd.Fields {
		fields[i] = ir.Field{Name: f.Name, Type: l.typeOf(f.Type, true)}
	}
	name := sd.Name
	if name == "" {
		name = "anon"
	}
	t := ir.Struct(uniqueIn(l.structNames, name+".mem"), fields)
	l.memStructs[sd] = t
	l.m.AddStruct(t)
	return t
}

// boolOf returns t's shape with bool components.
func boolOf(t *hlsl.Type) *hlsl.Type { return t.WithScalar(hlsl.TypeBool) }

// rowType returns the row vector type of matrix t.
func rowType(t *hlsl.Type) *hlsl.Type { return hlsl.VectorOf(t.Elem, t.Cols) }
