package hlsl

// HLSL conversion and promotion rules.
//
// Scalar component types promote bool < int < uint < float. Untyped
// literals adapt to the other operand. Shapes combine componentwise: a
// scalar (or 1-component vector) broadcasts, two vectors of different
// length truncate to the shorter one with a warning, matrices truncate to
// the common upper-left block.

// scalarRank orders scalar types for promotion, as C's usual arithmetic
// conversions do for DXC: bool lowest; any float above any integer;
// among floats and among integers the wider type (min10float/min12int <
// the 16-bit and min16 types < the 32-bit types < the 64-bit types, so
// min16float + float is float and int + int64_t is int64_t); at equal
// width the unsigned integer.
func scalarRank(t *Type) int {
	w := 2
	switch {
	case t.Prec == "min10float" || t.Prec == "min12int":
		w = 0
	case t.Prec != "" || t.Bits == 16:
		w = 1
	case t.Bits == 64:
		w = 3
	}
	switch t.Kind {
	case KindBool:
		return 0
	case KindInt:
		return 10 + 2*w
	case KindUint:
		return 10 + 2*w + 1
	case KindFloat:
		return 100 + w
	}
	return -1
}

// isUntypedLiteral reports whether e is an unsuffixed literal (possibly
// negated or parenthesized), whose type adapts to the other operand.
func isUntypedLiteral(e Expr) bool {
	switch e := e.(type) {
	case *IntLit:
		return e.Untyped
	case *FloatLit:
		return e.Untyped
	case *Unary:
		return (e.Op == OpNeg || e.Op == OpPlus) && isUntypedLiteral(e.X)
	case *ImplicitCast:
		return isUntypedLiteral(e.X)
	}
	return false
}

// commonScalar returns the promoted component type of two operands.
func commonScalar(x, y Expr) *Type {
	sx, sy := x.Type().Scalar(), y.Type().Scalar()
	lx, ly := isUntypedLiteral(x), isUntypedLiteral(y)
	switch {
	case lx && !ly:
		if sx.Kind == KindFloat && sy.IsIntegral() {
			return TypeFloat
		}
		if sy.Kind == KindBool {
			return sx
		}
		return sy
	case ly && !lx:
		if sy.Kind == KindFloat && sx.IsIntegral() {
			return TypeFloat
		}
		if sx.Kind == KindBool {
			return sy
		}
		return sx
	}
	if scalarRank(sx) >= scalarRank(sy) {
		return sx
	}
	return sy
}

// retypeLiteral64 gives an untyped literal (possibly negated) that
// converts to a 64-bit scalar of its kind the 64-bit type itself, as
// DXC's 64-bit literal types do: -2147483648 becomes int64_t -2^31 (not
// the uint 2^31 negated), 5.57 becomes the double nearest 5.57 (not the
// float's value). Float literals keep float precision where floats is
// false: DXC converts the literals of a vector constructor
// (double4(5.57, ...)) through float (offload-test-suite asuint.64). It
// reports whether it changed e.
func retypeLiteral64(e Expr, to *Type, floats bool) bool {
	if to == nil || !to.IsNumeric() || !isUntypedLiteral(e) || !e.Type().IsScalar() {
		return false
	}
	ts := to.Scalar()
	if ts.Width() != 64 || Identical(e.Type(), ts) {
		return false
	}
	var set func(x Expr) bool
	set = func(x Expr) bool {
		switch x := x.(type) {
		case *IntLit:
			if !ts.IsIntegral() {
				return false
			}
			x.T = ts
		case *FloatLit:
			if ts.Kind != KindFloat || !floats {
				return false
			}
			x.T = ts
		case *Unary:
			if !set(x.X) {
				return false
			}
			x.T = ts
		default:
			return false
		}
		return true
	}
	return set(e)
}

// OneComponent reports whether t broadcasts like a scalar.
func OneComponent(t *Type) bool { return t.IsNumeric() && t.Dim() == 1 }

// broadcasts reports whether a 1-component value of type a combines with
// any shape b: scalars broadcast everywhere, 1-vectors only to vectors
// and 1x1 matrices only to matrices (as DXC does).
func broadcasts(a, b *Type) bool {
	switch {
	case !OneComponent(a):
		return false
	case a.IsScalar() || b.IsScalar():
		return true
	case a.IsVector():
		return b.IsVector()
	}
	return b.IsMatrix()
}

// commonShape returns the shape (as a type with component s) that two
// operands combine to, whether a truncation happens, and ok=false if the
// shapes are incompatible. Vectors and matrices never mix.
func commonShape(a, b, s *Type) (t *Type, truncates bool, ok bool) {
	return shapeOf(a, b, s, true)
}

// looseShape is commonShape for operators, which (unlike intrinsics) also
// combine vectors with matrices: 1-component values broadcast to anything,
// a 1xN/Nx1 matrix acts as a vector, and a vector and a matrix with the
// same number of components combine to the vector's shape.
func looseShape(a, b, s *Type) (t *Type, truncates bool, ok bool) {
	if t, tr, ok := shapeOf(a, b, s, false); ok {
		return t, tr, ok
	}
	v, m := a, b
	if a.IsMatrix() {
		v, m = b, a
	}
	if !v.IsVector() || !m.IsMatrix() {
		return nil, false, false
	}
	switch {
	case m.Rows == 1 || m.Cols == 1:
		n := min(v.Len, m.Dim())
		return VectorOf(s, n), v.Len != m.Dim(), true
	case v.Len == m.Dim():
		return v.WithScalar(s), false, true
	}
	return nil, false, false
}

func shapeOf(a, b, s *Type, strict bool) (t *Type, truncates bool, ok bool) {
	if !strict {
		switch {
		case OneComponent(a) && !OneComponent(b):
			return b.WithScalar(s), false, true
		case OneComponent(b) && !OneComponent(a):
			return a.WithScalar(s), false, true
		case OneComponent(a) && OneComponent(b):
			if a.IsScalar() || a.IsVector() && b.IsMatrix() {
				return b.WithScalar(s), false, true
			}
			return a.WithScalar(s), false, true
		}
	}
	switch {
	case OneComponent(a) && OneComponent(b):
		if !broadcasts(a, b) && !broadcasts(b, a) {
			return nil, false, false
		}
		// Keep the "bigger" 1-component shape: vector/matrix over scalar.
		if a.IsScalar() {
			return b.WithScalar(s), false, true
		}
		return a.WithScalar(s), false, true
	case OneComponent(a):
		if !broadcasts(a, b) {
			return nil, false, false
		}
		return b.WithScalar(s), false, true
	case OneComponent(b):
		if !broadcasts(b, a) {
			return nil, false, false
		}
		return a.WithScalar(s), false, true
	case a.IsVector() && b.IsVector():
		n := min(a.Len, b.Len)
		return VectorOf(s, n), a.Len != b.Len, true
	case a.IsMatrix() && b.IsMatrix():
		r, cl := min(a.Rows, b.Rows), min(a.Cols, b.Cols)
		return matrixOf(s, r, cl, a.RowMajor), a.Rows != b.Rows || a.Cols != b.Cols, true
	}
	return nil, false, false
}

// ClassifyConversion returns how a value of type from becomes a value of
// type to in one step, for lowering compound assignments and the like. It
// returns CastFlatten for anything that is not a single simple step.
func ClassifyConversion(from, to *Type) CastKind {
	switch {
	case Identical(from, to):
		return CastNoop
	case to.Kind == KindVoid:
		return CastToVoid
	case from.IsNumeric() && to.IsNumeric():
		sameScalar := Identical(from.Scalar(), to.Scalar())
		switch {
		case SameShape(from, to) && !sameScalar:
			return CastConvert
		case sameScalar && OneComponent(from) && to.Dim() > 1:
			return CastSplat
		case sameScalar && IsTruncation(from, to):
			return CastTruncate
		}
	}
	return CastFlatten
}

// SameShape reports whether two numeric types have the same shape: both
// scalars, vectors of one length, or matrices of the same dimensions.
func SameShape(a, b *Type) bool {
	switch {
	case a.IsScalar():
		return b.IsScalar()
	case a.IsVector():
		return b.IsVector() && a.Len == b.Len
	case a.IsMatrix():
		return b.IsMatrix() && a.Rows == b.Rows && a.Cols == b.Cols
	}
	return false
}

// IsTruncation reports whether to is a leading part of from of the same
// kind (vector prefix, matrix upper-left block, or scalar from either).
func IsTruncation(from, to *Type) bool {
	switch {
	case to.IsScalar() && (from.IsVector() || from.IsMatrix()):
		return true
	case from.IsVector() && to.IsVector():
		return to.Len < from.Len
	case from.IsMatrix() && to.IsMatrix():
		return to.Rows <= from.Rows && to.Cols <= from.Cols && (to.Rows < from.Rows || to.Cols < from.Cols)
	case from.IsVector() && to.IsMatrix():
		return false
	case from.IsMatrix() && to.IsVector():
		return false
	}
	return false
}

// wrap builds an ImplicitCast of e to t.
func wrap(e Expr, t *Type, k CastKind) Expr {
	ic := &ImplicitCast{X: e, Kind: k}
	ic.P, ic.E = e.Pos(), e.End()
	ic.T = t
	return ic
}

// convMode selects which conversions are allowed.
type convMode uint8

const (
	convImplicit convMode = iota // assignments, arguments, returns
	convExplicit                 // casts and constructors
)

// convertible reports whether from converts to to under mode, whether the
// conversion truncates (warned about when implicit), and a cost for
// overload ranking (lower is better).
func convertible(from, to *Type, mode convMode, literal bool) (ok, truncates bool, cost int) {
	if from.IsError() || to.IsError() {
		return true, false, 0
	}
	if Identical(from, to) {
		return true, false, 0
	}
	// An array binds to an unsized array parameter of its element type
	// (either direction, for out parameters).
	if from.Kind == KindArray && to.Kind == KindArray && (from.Len < 0) != (to.Len < 0) && Identical(from.Elem, to.Elem) {
		return true, false, 0
	}
	if from.IsNumeric() && to.IsNumeric() {
		cost = scalarCost(from.Scalar(), to.Scalar(), literal)
		switch {
		case SameShape(from, to):
			return true, false, cost
		case OneComponent(from):
			return true, false, cost + 10
		case to.IsScalar():
			return true, true, cost + 20 + from.Dim() - 1
		case from.IsVector() && to.IsVector():
			if to.Len < from.Len {
				return true, true, cost + 20 + from.Len - to.Len
			}
			return false, false, 0
		case from.IsMatrix() && to.IsMatrix():
			if to.Rows <= from.Rows && to.Cols <= from.Cols {
				return true, true, cost + 20
			}
			return false, false, 0
		default: // vector <-> matrix: componentwise
			if from.Dim() == to.Dim() {
				return true, false, cost + 15
			}
			// Truncation only through 1xN / Nx1 matrices, which act as vectors.
			m := from
			if to.IsMatrix() {
				m = to
			}
			if from.Dim() > to.Dim() && (m.Rows == 1 || m.Cols == 1) {
				return true, true, cost + 25
			}
			return false, false, 0
		}
	}
	if mode == convExplicit && isFlattenable(from) && isFlattenable(to) && !to.ContainsResource() {
		if OneComponent(from) && from.IsNumeric() {
			return true, false, 40 // scalar splat into an aggregate: (S)0
		}
		if from.ComponentCount() >= to.ComponentCount() && to.ComponentCount() > 0 {
			return true, false, 40
		}
	}
	// Arrays of the same component layout convert implicitly
	// (float[3][2] to float[2][3]).
	if mode == convImplicit && from.Kind == KindArray && to.Kind == KindArray && isFlattenable(from) &&
		isFlattenable(to) && from.ComponentCount() == to.ComponentCount() && sameFlatScalars(from, to) {
		return true, false, 30
	}
	return false, false, 0
}

// sameFlatScalars reports whether two types flatten to the same scalars.
func sameFlatScalars(a, b *Type) bool {
	fa, fb := a.FlatScalars(nil), b.FlatScalars(nil)
	if len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		if fa[i] != fb[i] {
			return false
		}
	}
	return true
}

// isFlattenable reports whether values of t have a componentwise layout.
func isFlattenable(t *Type) bool {
	switch t.Kind {
	case KindArray:
		return isFlattenable(t.Elem)
	case KindStruct:
		for _, f := range t.Struct.Fields {
			if !isFlattenable(f.Type) {
				return false
			}
		}
		return true
	}
	return t.IsNumeric()
}

// scalarCost ranks a scalar type conversion for overload resolution.
func scalarCost(from, to *Type, literal bool) int {
	if from == nil || to == nil || from == to {
		return 0
	}
	if literal {
		return 1
	}
	switch {
	case to.Kind == KindFloat:
		return 3
	case to.Kind == KindBool:
		return 4
	case from.Kind == KindFloat:
		return 4
	}
	return 2
}

// coerce converts e to type to implicitly, inserting casts or reporting an
// error ("cannot implicitly convert"). what describes the context for the
// message.
func (c *checker) coerce(e Expr, to *Type, what string) Expr {
	from := e.Type()
	if from.IsError() || to.IsError() {
		return e
	}
	if Identical(from, to) {
		return e
	}
	ok, truncates, _ := convertible(from, to, convImplicit, isUntypedLiteral(e))
	if !ok {
		if what != "" {
			c.errorf(e, "cannot implicitly convert from '%s' to '%s' %s", from, to, what)
		} else {
			c.errorf(e, "cannot implicitly convert from '%s' to '%s'", from, to)
		}
		return wrap(e, TypeError, CastNoop)
	}
	if truncates {
		c.warnf(e, "implicit truncation of vector type")
	}
	return buildConversion(e, to)
}

// explicitConvert converts e to type to as a cast does (truncation is
// silent); it returns nil if the conversion is not allowed.
func explicitConvertible(from, to *Type) bool {
	if to.Kind == KindVoid {
		return true
	}
	ok, _, _ := convertible(from, to, convExplicit, false)
	if ok {
		return true
	}
	ok, _, _ = convertible(from, to, convImplicit, false)
	return ok
}

// buildConversion returns e converted to t as a chain of single-step
// ImplicitCasts (the caller has validated the conversion).
func buildConversion(e Expr, to *Type) Expr { return buildConversionLit(e, to, true) }

// buildConversionLit is buildConversion; untyped float literals converted
// to a 64-bit float become doubles only when floats is set
// (retypeLiteral64).
func buildConversionLit(e Expr, to *Type, floats bool) Expr {
	if retypeLiteral64(e, to, floats) {
		return buildConversion(e, to) // now of the 64-bit scalar type
	}
	from := e.Type()
	if from.IsError() || to.IsError() || Identical(from, to) {
		if from != to && !to.IsError() && !from.IsError() {
			return wrap(e, to, CastNoop) // storage order or identical struct
		}
		return e
	}
	if to.Kind == KindVoid {
		return wrap(e, to, CastToVoid)
	}
	if !from.IsNumeric() || !to.IsNumeric() {
		return wrap(e, to, CastFlatten)
	}
	fs, ts := from.Scalar(), to.Scalar()
	switch {
	case SameShape(from, to):
		return wrap(e, to, CastConvert)
	case OneComponent(from):
		// Convert the scalar first, then splat (or re-wrap 1-component).
		if !Identical(fs, ts) {
			e = wrap(e, from.WithScalar(ts), CastConvert)
		}
		if to.Dim() == 1 {
			if to.IsScalar() {
				return wrap(e, to, CastTruncate)
			}
			return wrap(e, to, CastSplat)
		}
		return wrap(e, to, CastSplat)
	case IsTruncation(from, to):
		mid := to.WithScalar(fs)
		e = wrap(e, mid, CastTruncate)
		if !Identical(fs, ts) {
			e = wrap(e, to, CastConvert)
		}
		return e
	}
	return wrap(e, to, CastFlatten)
}
