package hlsl

import (
	"fmt"
	"math"
	"strings"
)

// checkExpr checks an expression and returns it (or its replacement, for
// member accesses that turn out to be swizzles, or constructors that are
// casts) with its type set.
func (c *checker) checkExpr(e Expr) Expr {
	if e == nil {
		return nil
	}
	if t := e.Type(); t != nil {
		switch e.(type) {
		case *IntLit, *FloatLit, *BoolLit:
		default:
			return e // already checked
		}
	}
	switch e := e.(type) {
	case *IntLit:
		if e.T == nil {
			e.T = TypeInt
			if e.Value > math.MaxInt32 {
				e.T = TypeUint
			}
		}
		c.noteWide(e)
		return e
	case *FloatLit:
		e.T = TypeFloat
		switch suffix := strings.ToLower(e.Text[len(e.Text)-1:]); {
		case suffix == "l":
			e.T = TypeDouble
		case suffix == "h" && c.opts.Enable16BitTypes:
			e.T = TypeHalf16
		}
		return e
	case *BoolLit:
		e.T = TypeBool
		return e
	case *Ident:
		return c.checkIdent(e)
	case *Unary:
		return c.checkUnary(e)
	case *Binary:
		return c.checkBinary(e)
	case *Assign:
		return c.checkAssign(e)
	case *Cond:
		return c.checkCond(e)
	case *Comma:
		e.X = c.checkExpr(e.X)
		e.Y = c.checkExpr(e.Y)
		e.T = e.Y.Type()
		return e
	case *Call:
		return c.checkCall(e)
	case *MethodCall:
		return c.checkMethodCall(e)
	case *Construct:
		return c.checkConstruct(e)
	case *Cast:
		return c.checkCast(e)
	case *Member:
		return c.checkMember(e)
	case *Index:
		return c.checkIndex(e)
	case *InitList:
		c.errorf(e, "initializer list cannot be used here")
		for i, x := range e.Elems {
			if _, nested := x.(*InitList); !nested {
				e.Elems[i] = c.checkExpr(x)
			}
		}
		e.T = TypeError
		return e
	}
	e.setType(TypeError)
	return e
}

func (c *checker) checkIdent(e *Ident) Expr {
	if m := c.memberField(e); m != nil {
		return m
	}
	if s, member, ok := strings.Cut(e.Name, "::"); ok {
		return c.qualifiedStatic(e, s, member)
	}
	v := c.lookupVar(e.Name)
	if v == nil {
		e.T = TypeError
		if len(c.funcs[e.Name]) > 0 || lookupIntrinsic(e.Name) {
			c.errorf(e, "function '%s' cannot be used as a value", e.Name)
			return e
		}
		if _, isType := c.lookupType(e.Name); isType || isBuiltinTypeName(e.Name) {
			c.errorf(e, "'%s' is a type, not a value", e.Name)
			return e
		}
		if s := suggest(e.Name, c.visibleNames()); s != "" {
			c.errorf(e, "use of undeclared identifier '%s'; did you mean '%s'?", e.Name, s)
		} else {
			c.errorf(e, "use of undeclared identifier '%s'", e.Name)
		}
		return e
	}
	v.Used = true
	e.Var = v
	e.T = v.Type
	if (v.Kind == VarGlobal || v.Kind == VarBufferField) && c.curFunc != nil {
		c.globalUses[c.curFunc] = append(c.globalUses[c.curFunc], e)
	}
	return e
}

// boolShape returns t's shape with bool components.
func boolShape(t *Type) *Type { return t.WithScalar(TypeBool) }

func (c *checker) checkUnary(e *Unary) Expr {
	e.X = c.checkExpr(e.X)
	t := e.X.Type()
	e.T = TypeError
	if t.IsError() {
		return e
	}
	if !t.IsNumeric() {
		c.errorf(e, "invalid argument type '%s' to unary expression", t)
		return e
	}
	switch e.Op {
	case OpNeg, OpPlus:
		rt := t
		if t.IsBool() {
			rt = t.WithScalar(TypeInt)
		}
		e.X = buildConversion(e.X, rt)
		e.T = rt
	case OpNot:
		rt := boolShape(t)
		e.X = buildConversion(e.X, rt)
		e.T = rt
	case OpBitNot:
		if t.IsFloat() {
			c.errorf(e, "int or unsigned int type required")
			return e
		}
		rt := t
		if t.IsBool() {
			rt = t.WithScalar(TypeInt)
		}
		e.X = buildConversion(e.X, rt)
		e.T = rt
	default: // ++ / --
		if !c.checkLvalue(e.X) {
			return e
		}
		if t.IsBool() {
			c.errorf(e, "operator '%s' cannot be applied to type '%s'", e.Op, t)
			return e
		}
		e.T = t
	}
	return e
}

// binaryTypes computes the operand type and result type of "x op y",
// reporting invalid operands at at. It warns on vector truncation.
func (c *checker) binaryTypes(op BinaryOp, x, y Expr, at Node) (opT, resT *Type, ok bool) {
	tx, ty := x.Type(), y.Type()
	if tx.IsError() || ty.IsError() {
		return TypeError, TypeError, false
	}
	if !tx.IsNumeric() || !ty.IsNumeric() {
		c.errorf(at, "invalid operands to binary expression ('%s' and '%s')", tx, ty)
		return TypeError, TypeError, false
	}
	s := commonScalar(x, y)
	switch {
	case op.IsLogical():
		if !OneComponent(tx) || !OneComponent(ty) {
			c.errorf(at, "operands for short-circuiting logical binary operator must be scalar ('%s' and '%s'); use and()/or() for vectors", tx, ty)
			return TypeError, TypeError, false
		}
		s = TypeBool
	case op == OpShl || op == OpShr || op == OpAnd || op == OpOr || op == OpXor:
		if tx.IsFloat() || ty.IsFloat() {
			c.errorf(at, "int or unsigned int type required for operator '%s' (operands are '%s' and '%s')", op, tx, ty)
			return TypeError, TypeError, false
		}
		if (op == OpShl || op == OpShr) && !isUntypedLiteral(x) {
			s = tx.Scalar()
		}
		if s.Kind == KindBool {
			s = TypeInt
		}
	case op.IsComparison():
	default: // arithmetic
		if s.Kind == KindBool {
			s = TypeInt
		}
	}
	shape, truncates, okShape := looseShape(tx, ty, s)
	if !okShape {
		c.errorf(at, "invalid operands to binary expression: incompatible dimensions ('%s' and '%s')", tx, ty)
		return TypeError, TypeError, false
	}
	if truncates {
		longer := x
		if ty.Dim() > tx.Dim() {
			longer = y
		}
		c.warnf(longer, "implicit truncation of vector type")
	}
	resT = shape
	if op.IsComparison() || op.IsLogical() {
		resT = boolShape(shape)
	}
	return shape, resT, true
}

func (c *checker) checkBinary(e *Binary) Expr {
	e.X = c.checkExpr(e.X)
	e.Y = c.checkExpr(e.Y)
	opT, resT, ok := c.binaryTypes(e.Op, e.X, e.Y, e)
	e.T = resT
	if !ok {
		return e
	}
	e.OpType = opT
	if opT.IsScalar() && opT.IsIntegral() {
		// Two literal ints make a literal int, folded at 64 bits
		// (literal_int.go).
		if lit := foldLiteralInts(e, e.X, e.Y); lit != nil {
			c.noteWide(lit)
			return lit
		}
	}
	e.X = buildConversion(e.X, opT)
	e.Y = buildConversion(e.Y, opT)
	if (e.Op == OpDiv || e.Op == OpRem) && opT.Scalar().Kind == KindInt && opT.Scalar().Prec != "" {
		c.errorf(e, "signed integer division is not supported on minimum-precision types, cast to int to use 32-bit division")
		return e
	}
	if (e.Op == OpDiv || e.Op == OpRem) && opT.IsIntegral() {
		if k, ok := ConstEval(e.Y); ok && k.Int == 0 && opT.IsScalar() {
			what := "division" // clang's warn_remainder_division_by_zero
			if e.Op == OpRem {
				what = "remainder"
			}
			c.warnf(e.Y, "%s by zero is undefined", what)
		}
	}
	if (e.Op == OpShl || e.Op == OpShr) && opT.IsIntegral() && opT.IsScalar() {
		// D3D uses the low 5 bits of the count (4 for 16-bit, 6 for
		// 64-bit operands): 1<<40 is 1<<8.
		w := int64(opT.Scalar().Width())
		if k, ok := ConstEval(e.Y); ok && (k.Int < 0 || k.Int >= w) {
			c.warnf(e.Y, "shift count %d is not less than the width of '%s' (%d bits); only its low %d bits are used (%d)", k.Int, opT, w, bitsLog2(w), k.Int&(w-1))
		}
	}
	return e
}

// bitsLog2 is log2 of a width of 16, 32 or 64 bits.
func bitsLog2(w int64) int {
	n := 0
	for ; w > 1; w >>= 1 {
		n++
	}
	return n
}

func (c *checker) checkAssign(e *Assign) Expr {
	e.LHS = c.checkExpr(e.LHS)
	if _, isList := e.RHS.(*InitList); isList {
		c.errorf(e.RHS, "initializer list cannot be used in an assignment")
		e.T = TypeError
		return e
	}
	e.RHS = c.checkExpr(e.RHS)
	lt := e.LHS.Type()
	e.T = lt
	if lt.IsError() || e.RHS.Type().IsError() {
		return e
	}
	if !c.checkLvalue(e.LHS) {
		return e
	}
	if !e.Compound {
		e.OpType = lt
		e.RHS = c.coerce(e.RHS, lt, "in assignment")
		return e
	}
	opT, _, ok := c.binaryTypes(e.Op, e.LHS, e.RHS, e)
	if !ok {
		e.T = TypeError
		return e
	}
	e.OpType = opT
	e.RHS = buildConversion(e.RHS, opT)
	if ok, truncates, _ := convertible(opT, lt, convImplicit, false); !ok {
		c.errorf(e, "cannot implicitly convert from '%s' to '%s' in compound assignment", opT, lt)
	} else if truncates && !Identical(opT, lt) {
		c.warnf(e.RHS, "implicit truncation of vector type")
	}
	return e
}

// checkLvalue reports whether e can be assigned to, reporting why not.
func (c *checker) checkLvalue(e Expr) bool {
	if e.Type().IsError() {
		return false
	}
	switch x := e.(type) {
	case *Ident:
		v := x.Var
		if v == nil {
			return false
		}
		switch {
		case v.Mods&ModConst != 0:
			c.errorf(e, "cannot assign to variable '%s' with const-qualified type 'const %s'", v.Name, v.Type)
			return false
		case v.Kind == VarParam && v.Mods&ModUniform != 0:
			c.errorf(e, "cannot assign to uniform parameter '%s'", v.Name)
			return false
		case v.Buffer != nil:
			c.errorf(e, "cannot assign to uniform variable '%s': uniforms are read-only", v.Name)
			return false
		case v.Type.ContainsResource() && (v.Kind == VarGlobal || !bufferResourcesOnly(v.Type)):
			c.errorf(e, "cannot assign to resource variable '%s'", v.Name)
			return false
		}
		if v.Type.ContainsResource() {
			v.Reassigned = true
		}
		return true
	case *Member:
		return c.checkLvalue(x.X)
	case *Swizzle:
		seen := map[int]bool{}
		for _, k := range x.Comps {
			if seen[k] {
				c.errorf(e, "invalid write mask '%s': vector is not assignable (contains duplicate components)", x.Name)
				return false
			}
			seen[k] = true
		}
		if x.X.Type().IsScalar() && len(x.Comps) > 1 {
			c.errorf(e, "invalid write mask '%s': vector is not assignable (contains duplicate components)", x.Name)
			return false
		}
		return c.checkLvalue(x.X)
	case *Index:
		if t := x.X.Type(); t.Kind == KindResource {
			if !t.Resource.Writable() {
				c.errorf(e, "cannot write to read-only resource of type '%s'", t)
				return false
			}
			return true
		}
		return c.checkLvalue(x.X)
	case *ImplicitCast:
		if x.Kind == CastNoop {
			return c.checkLvalue(x.X)
		}
	case *Cast:
		// A cast to the operand's own type is a no-op, also on the left.
		if x.Kind == CastNoop && Identical(x.T, x.X.Type()) {
			return c.checkLvalue(x.X)
		}
	}
	c.errorf(e, "expression is not assignable")
	return false
}

func (c *checker) checkCond(e *Cond) Expr {
	e.C = c.checkExpr(e.C)
	e.A = c.checkExpr(e.A)
	e.B = c.checkExpr(e.B)
	e.T = TypeError
	ct := e.C.Type()
	if !ct.IsError() {
		if !ct.IsNumeric() {
			c.errorf(e.C, "condition of type '%s' is not a scalar", ct)
			return e
		}
		if !OneComponent(ct) {
			c.errorf(e.C, "condition for the ternary operator must be a scalar (is '%s'); use select() for vectors", ct)
			return e
		}
		e.C = buildConversion(e.C, TypeBool)
	}
	ta, tb := e.A.Type(), e.B.Type()
	if ta.IsError() || tb.IsError() || ct.IsError() {
		return e
	}
	if ta.IsNumeric() && tb.IsNumeric() {
		s := commonScalar(e.A, e.B)
		shape, truncates, ok := looseShape(ta, tb, s)
		if !ok {
			c.errorf(e, "incompatible operand types ('%s' and '%s')", ta, tb)
			return e
		}
		if truncates {
			c.warnf(e, "implicit truncation of vector type")
		}
		e.A = buildConversion(e.A, shape)
		e.B = buildConversion(e.B, shape)
		e.T = shape
		return e
	}
	if Identical(ta, tb) {
		e.T = ta
		return e
	}
	c.errorf(e, "incompatible operand types ('%s' and '%s')", ta, tb)
	return e
}

// checkConstruct checks T(args). A scalar T with one argument is a cast.
func (c *checker) checkConstruct(e *Construct) Expr {
	t := c.resolveSpec(e.Spec, nil)
	for i, a := range e.Args {
		if _, isList := a.(*InitList); isList {
			c.errorf(a, "initializer list cannot be used as a constructor argument")
			e.Args[i] = c.checkExpr(a)
			continue
		}
		e.Args[i] = c.checkExpr(a)
	}
	e.T = TypeError
	if t.IsError() {
		return e
	}
	if t.IsScalar() && len(e.Args) == 1 {
		cast := &Cast{Spec: e.Spec, X: e.Args[0]}
		cast.P, cast.E = e.P, e.E
		return c.finishCast(cast, t)
	}
	if !t.IsNumeric() {
		c.errorf(e, "type '%s' cannot be constructed with '()'; use an initializer list or a cast", t)
		return e
	}
	total := 0
	for i, a := range e.Args {
		at := a.Type()
		if at.IsError() {
			return e
		}
		if at.ContainsResource() || !isFlattenable(at) {
			c.errorf(a, "cannot use '%s' as a constructor argument for '%s'", at, t)
			return e
		}
		if at.IsNumeric() && !Identical(at.Scalar(), t.Scalar()) {
			// Float literals stay float here, as in DXC.
			e.Args[i] = buildConversionLit(a, at.WithScalar(t.Scalar()), false)
		}
		total += at.ComponentCount()
	}
	kind := "vector"
	if t.IsMatrix() {
		kind = "matrix"
	}
	if total != t.Dim() {
		what := "few"
		if total > t.Dim() {
			what = "many"
		}
		c.errorf(e, "too %s elements in %s initialization (expected %d elements, have %d)", what, kind, t.Dim(), total)
		return e
	}
	e.T = t
	return e
}

func (c *checker) checkCast(e *Cast) Expr {
	t := c.resolveSpec(e.Spec, nil)
	e.X = c.checkExpr(e.X)
	if t.IsError() {
		e.T = TypeError
		return e
	}
	return c.finishCast(e, t)
}

// finishCast validates an explicit conversion and records its kind.
func (c *checker) finishCast(e *Cast, t *Type) Expr {
	from := e.X.Type()
	e.T = t
	if from.IsError() {
		e.T = TypeError
		return e
	}
	if _, isList := e.X.(*InitList); isList {
		c.errorf(e.X, "initializer list cannot be cast")
		e.T = TypeError
		return e
	}
	if t.Kind == KindArray && t.Len < 0 {
		c.errorf(e, "cast to an unsized array type")
		e.T = TypeError
		return e
	}
	if !explicitConvertible(from, t) {
		c.errorf(e, "cannot convert from '%s' to '%s'", from, t)
		e.T = TypeError
		return e
	}
	conv := buildConversion(e.X, t)
	if ic, ok := conv.(*ImplicitCast); ok && conv != e.X {
		e.X, e.Kind = ic.X, ic.Kind
	} else {
		e.Kind = CastNoop
	}
	return e
}

// checkMember checks x.name: a struct field or a swizzle.
func (c *checker) checkMember(e *Member) Expr {
	e.X = c.checkExpr(e.X)
	t := e.X.Type()
	e.T = TypeError
	if t.IsError() {
		return e
	}
	switch {
	case t.Kind == KindStruct:
		for _, f := range t.Struct.Fields {
			if f.Name == e.Name {
				e.Field = f
				e.T = f.Type
				return e
			}
		}
		if v := staticMember(t.Struct, e.Name); v != nil {
			// obj.s of a static data member: S::s (struct_decl.go).
			v.Used = true
			id := &Ident{exprBase: exprBase{span: e.span, T: v.Type}, Name: v.Name, Var: v}
			return id
		}
		var names []string
		for _, f := range t.Struct.Fields {
			names = append(names, f.Name)
		}
		if s := suggest(e.Name, names); s != "" {
			c.errorf(e, "no member named '%s' in '%s'; did you mean '%s'?", e.Name, t, s)
		} else {
			c.errorf(e, "no member named '%s' in '%s'", e.Name, t)
		}
		return e
	case t.IsNumeric():
		return c.checkSwizzle(e)
	}
	c.errorf(e, "member reference base type '%s' is not a structure, vector or matrix", t)
	return e
}

// checkSwizzle turns x.name on a scalar, vector or matrix into a Swizzle.
func (c *checker) checkSwizzle(e *Member) Expr {
	t := e.X.Type()
	sw := &Swizzle{X: e.X, Name: e.Name}
	sw.P, sw.E = e.P, e.E
	sw.T = TypeError
	name := e.Name
	if t.IsMatrix() {
		comps, msg := parseMatrixSwizzle(name, t)
		if msg != "" {
			c.errorf(e, "%s", msg)
			return sw
		}
		sw.Comps = comps
	} else {
		if len(name) > 4 {
			c.errorf(e, "swizzle '%s' has more than 4 components", name)
			return sw
		}
		set := ""
		for i := 0; i < len(name); i++ {
			ch := name[i]
			var idx int
			var s string
			if j := strings.IndexByte("xyzw", ch); j >= 0 {
				idx, s = j, "xyzw"
			} else if j := strings.IndexByte("rgba", ch); j >= 0 {
				idx, s = j, "rgba"
			} else {
				c.errorf(e, "illegal vector component name '%c'", ch)
				return sw
			}
			if set != "" && set != s {
				c.errorf(e, "invalid swizzle '%s': cannot mix xyzw and rgba components", name)
				return sw
			}
			set = s
			if idx >= t.Dim() {
				c.errorf(e, "vector component access exceeds type '%s'", t)
				return sw
			}
			sw.Comps = append(sw.Comps, idx)
		}
	}
	if len(sw.Comps) == 1 {
		sw.T = t.Scalar()
	} else {
		sw.T = VectorOf(t.Scalar(), len(sw.Comps))
	}
	return sw
}

// parseMatrixSwizzle parses _m01_m10 (zero-based) or _11_22 (one-based).
func parseMatrixSwizzle(name string, t *Type) ([]int, string) {
	var comps []int
	s := name
	for len(s) > 0 {
		if s[0] != '_' {
			return nil, fmt.Sprintf("invalid matrix swizzle '%s'", name)
		}
		s = s[1:]
		base := 1
		if len(s) > 0 && s[0] == 'm' {
			base = 0
			s = s[1:]
		}
		if len(s) < 2 || !isDigit(int(s[0])) || !isDigit(int(s[1])) {
			return nil, fmt.Sprintf("invalid matrix swizzle '%s'", name)
		}
		r, col := int(s[0]-'0')-base, int(s[1]-'0')-base
		s = s[2:]
		if r < 0 || col < 0 || r >= t.Rows || col >= t.Cols {
			return nil, fmt.Sprintf("matrix swizzle '%s' is out of bounds for '%s'", name, t)
		}
		comps = append(comps, r*t.Cols+col)
	}
	if len(comps) == 0 || len(comps) > 4 {
		return nil, fmt.Sprintf("invalid matrix swizzle '%s'", name)
	}
	return comps, ""
}

// checkIndex checks x[i].
func (c *checker) checkIndex(e *Index) Expr {
	e.X = c.checkExpr(e.X)
	e.Index = c.checkExpr(e.Index)
	t, it := e.X.Type(), e.Index.Type()
	e.T = TypeError
	if t.IsError() || it.IsError() {
		return e
	}
	if t.Kind == KindResource && t.Resource.IsRWTexture() {
		return c.checkRWTextureIndex(e)
	}
	if t.Kind == KindResource && t.Resource.IsTexture() {
		// tex[coord] reads one texel of the top mip level. The location
		// has exactly the texture's coordinates: DXC finds no conversion
		// from a scalar or a vector of another size to vector<uint, N>
		// (its tools/clang/test/HLSL/indexing-operator.hlsl: g_t2d[0] is
		// "no viable overloaded operator[]"; FXC's X3120), where other
		// calls would splat or truncate.
		if n := t.Resource.Shape().Coords; n > 1 && it.IsNumeric() && (it.Dim() != n || !it.IsVector()) {
			c.errorf(e.Index, "no viable operator[] for '%s': the location must be uint%d, not '%s'", t, n, it)
			return e
		}
		return c.resolveMethodCall(&MethodCall{exprBase: exprBase{span: e.span}, Recv: e.X, Name: "operator[]", Args: []Expr{e.Index}})
	}
	if !it.IsNumeric() || !OneComponent(it) {
		c.errorf(e.Index, "array subscript is not an integer (is '%s')", it)
		return e
	}
	if !it.IsScalar() || !it.IsIntegral() {
		target := TypeInt
		if it.Scalar().Kind == KindUint {
			target = TypeUint
		}
		e.Index = buildConversion(e.Index, target)
	}
	bound := 0
	if t.Kind == KindArray {
		e.T = t.Elem
		if k, ok := ConstEval(e.Index); ok {
			if n := k.AsInt(); n < 0 || n >= int64(t.Len) && t.Len >= 0 { // unsized parameter: not known yet
				// DXC rejects constant out-of-bounds indexing of local
				// arrays but accepts it on uniform arrays.
				if isUniformAccess(e.X) {
					c.warnf(e.Index, "array index %d is past the end of the array (which contains %d elements)", n, t.Len)
				} else {
					c.errorf(e.Index, "array index %d is out of bounds (the array has %d elements)", n, t.Len)
					e.T = TypeError
				}
			}
		}
		return e
	}
	switch {
	case t.IsVector():
		e.T = t.Elem
		bound = t.Len
	case t.IsMatrix():
		e.T = VectorOf(t.Elem, t.Cols)
		bound = t.Rows
	case t.Kind == KindResource:
		if !t.Resource.Templated() {
			c.errorf(e, "'%s' cannot be indexed; use its Load/Store methods", t)
			return e
		}
		if t.Resource == ResAppendStructuredBuffer || t.Resource == ResConsumeStructuredBuffer {
			c.errorf(e, "'%s' cannot be indexed; use its Append/Consume methods", t)
			return e
		}
		e.T = t.Elem
	default:
		c.errorf(e, "subscripted value is not an array, matrix, or vector (is '%s')", t)
		return e
	}
	if bound > 0 {
		if k, ok := ConstEval(e.Index); ok {
			if n := k.AsInt(); n < 0 || n >= int64(bound) {
				if k.Type.Kind == KindUint {
					n = int64(uint32(k.Int))
				}
				c.errorf(e.Index, "index %d is out of bounds for '%s'", n, t)
				e.T = TypeError
			}
		}
	}
	return e
}

// isUniformAccess reports whether e designates (part of) a uniform.
func isUniformAccess(e Expr) bool {
	for {
		switch x := e.(type) {
		case *Ident:
			return x.Var != nil && x.Var.Buffer != nil
		case *Index:
			e = x.X
		case *Member:
			e = x.X
		default:
			return false
		}
	}
}
