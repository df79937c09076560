package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Conversions. Scalar type changes map to one IR cast each (sitofp,
// uitofp, fptosi, fptoui; bitcast between int and uint; icmp/fcmp against
// zero to bool; zext from bool to an integer, select from bool to float),
// applied to whole vectors and row by row to matrices. Shape changes
// (splat, truncation) use construct/shuffle/extractvalue; anything else
// (arrays, structs, vector <-> matrix) goes through the flattened
// components, HLSL's elementwise conversion rule.

// convert converts v from type from to type to (any conversion the
// checker allowed).
func (fl *fnLowerer) convert(v ir.Value, from, to *hlsl.Type) ir.Value {
	if v == nil || from == nil || to == nil || hlsl.Identical(from, to) {
		return v
	}
	if to.Kind == hlsl.KindVoid {
		return nil
	}
	if from.IsNumeric() && to.IsNumeric() {
		fs, ts := from.Scalar(), to.Scalar()
		switch {
		case hlsl.SameShape(from, to):
			return fl.convertScalars(v, from, ts)
		case hlsl.OneComponent(from):
			s := fl.component(v, from, 0)
			return fl.splat(fl.castScalar(s, fs, ts), to)
		case hlsl.IsTruncation(from, to):
			return fl.convertScalars(fl.truncate(v, from, to.WithScalar(fs)), to.WithScalar(fs), ts)
		}
	}
	return fl.flattenConvert(v, from, to)
}

// convertScalars converts the components of v (of type from) to scalar
// type ts, keeping the shape.
func (fl *fnLowerer) convertScalars(v ir.Value, from, ts *hlsl.Type) ir.Value {
	fs := from.Scalar()
	if hlsl.Identical(fs, ts) {
		return v
	}
	if from.IsMatrix() {
		to := from.WithScalar(ts)
		return fl.mapRows(to, []ir.Value{v}, func(r []ir.Value) ir.Value {
			return fl.castScalar(r[0], fs, ts)
		})
	}
	return fl.castScalar(v, fs, ts)
}

// castScalar converts a scalar or vector v with component type fs to
// component type ts.
func (fl *fnLowerer) castScalar(v ir.Value, fs, ts *hlsl.Type) ir.Value {
	vt := v.Type()
	to := vt.WithScalar(fl.irType(ts))
	if vt == to {
		return v // same IR type (minimum precision is 32-bit)
	}
	fw, tw := fs.Width(), ts.Width()
	switch {
	case fs.Kind == hlsl.KindFloat && ts.Kind == hlsl.KindFloat && fw < tw:
		return fl.b.Cast(ir.OpFPExt, v, to, "conv")
	case fs.Kind == hlsl.KindFloat && ts.Kind == hlsl.KindFloat:
		return fl.b.Cast(ir.OpFPTrunc, v, to, "conv")
	case fs.IsIntegral() && ts.IsIntegral() && fw != tw:
		// Change the width in the source's signedness, then reinterpret.
		mid := vt.WithScalar(fl.irType(ts))
		if fs.Kind != ts.Kind {
			mid = vt.WithScalar(ir.IntType(tw))
			if fs.Kind == hlsl.KindUint {
				mid = vt.WithScalar(ir.UintType(tw))
			}
		}
		op := ir.OpTrunc
		switch {
		case fw < tw && fs.Kind == hlsl.KindInt:
			op = ir.OpSExt
		case fw < tw:
			op = ir.OpZExt
		}
		w := fl.b.Cast(op, v, mid, "conv")
		if mid == to {
			return w
		}
		return fl.b.Cast(ir.OpBitcast, w, to, "conv")
	}
	switch {
	case ts.Kind == hlsl.KindBool && fs.Kind == hlsl.KindFloat:
		return fl.b.Cmp(ir.PredUNE, v, ir.ConstFloat(vt, 0), "tobool")
	case ts.Kind == hlsl.KindBool:
		return fl.b.Cmp(ir.PredNE, v, ir.ConstInt(vt, 0), "tobool")
	case fs.Kind == hlsl.KindBool && ts.Kind == hlsl.KindFloat:
		return fl.b.Select(v, ir.ConstFloat(to, 1), ir.ConstFloat(to, 0), "conv")
	case fs.Kind == hlsl.KindBool:
		return fl.b.Cast(ir.OpZExt, v, to, "conv")
	case fs.Kind == hlsl.KindFloat && ts.Kind == hlsl.KindInt:
		return fl.b.Cast(ir.OpFPToSI, v, to, "conv")
	case fs.Kind == hlsl.KindFloat:
		return fl.b.Cast(ir.OpFPToUI, v, to, "conv")
	case ts.Kind == hlsl.KindFloat && fs.Kind == hlsl.KindInt:
		return fl.b.Cast(ir.OpSIToFP, v, to, "conv")
	case ts.Kind == hlsl.KindFloat:
		return fl.b.Cast(ir.OpUIToFP, v, to, "conv")
	}
	return fl.b.Cast(ir.OpBitcast, v, to, "conv") // int <-> uint
}

// component extracts flattened component i of a numeric value.
func (fl *fnLowerer) component(v ir.Value, t *hlsl.Type, i int) ir.Value {
	switch {
	case t.IsScalar() || t.IsVector() && t.Len == 1:
		return v
	case t.IsVector():
		return fl.b.ExtractValue(v, []int{i}, "elem")
	case t.IsMatrix():
		return fl.b.ExtractValue(v, matPath(t, i/t.Cols, i%t.Cols), "elem")
	}
	return v
}

// matPath is the extractvalue/insertvalue path of element (r, c) of a
// matrix value (a one-column matrix's rows are scalars).
func matPath(t *hlsl.Type, r, c int) []int {
	if t.Cols == 1 {
		return []int{r}
	}
	return []int{r, c}
}

// splat replicates the scalar s into every component of numeric type to.
func (fl *fnLowerer) splat(s ir.Value, to *hlsl.Type) ir.Value {
	switch {
	case to.IsScalar() || to.IsVector() && to.Len == 1:
		return s
	case to.IsVector():
		el := make([]ir.Value, to.Len)
		for i := range el {
			el[i] = s
		}
		return fl.construct(to, el, "splat")
	case to.IsMatrix():
		row := fl.splat(s, rowType(to))
		rows := make([]ir.Value, to.Rows)
		for i := range rows {
			rows[i] = row
		}
		return fl.construct(to, rows, "splat")
	}
	return s
}

// truncate keeps the leading components of a vector, or the upper-left
// block of a matrix (same component type).
func (fl *fnLowerer) truncate(v ir.Value, from, to *hlsl.Type) ir.Value {
	switch {
	case to.IsScalar() || to.IsVector() && to.Len == 1:
		return fl.component(v, from, 0)
	case from.IsVector() && to.IsVector():
		mask := make([]int, to.Len)
		for i := range mask {
			mask[i] = i
		}
		return fl.b.Shuffle(v, v, mask, "trunc")
	case from.IsMatrix() && to.IsMatrix():
		rows := make([]ir.Value, to.Rows)
		for r := range rows {
			row := fl.b.ExtractValue(v, []int{r}, "row")
			rows[r] = fl.truncate(row, rowType(from), rowType(to))
		}
		return fl.construct(to, rows, "trunc")
	}
	return fl.flattenConvert(v, from, to)
}

// flattenConvert rebuilds a value of type to from the flattened
// components of v (type from), converting each; a single component is
// replicated.
func (fl *fnLowerer) flattenConvert(v ir.Value, from, to *hlsl.Type) ir.Value {
	comps := fl.flatten(v, from)
	fs := from.FlatScalars(nil)
	want := to.FlatScalars(nil)
	if len(comps) == 1 && len(want) > 1 {
		for len(comps) < len(want) {
			comps = append(comps, comps[0])
			fs = append(fs, fs[0])
		}
	}
	if len(comps) < len(want) {
		fl.errorf(nil, "internal compiler error: cannot convert '%s' to '%s'", from, to)
		return ir.ConstUndef(fl.irType(to))
	}
	for i, s := range want {
		comps[i] = fl.castScalar(comps[i], fs[i], s)
	}
	r, _ := fl.build(to, comps)
	return r
}

// flatten returns the scalar components of v (type t) in HLSL order.
func (fl *fnLowerer) flatten(v ir.Value, t *hlsl.Type) []ir.Value {
	var out []ir.Value
	var walk func(t *hlsl.Type, path []int)
	walk = func(t *hlsl.Type, path []int) {
		switch {
		case t.IsScalar() || t.IsVector() && t.Len == 1:
			if len(path) == 0 {
				out = append(out, v)
			} else {
				out = append(out, fl.b.ExtractValue(v, path, "elem"))
			}
		case t.IsVector():
			for i := 0; i < t.Len; i++ {
				walk(t.Elem, append(path[:len(path):len(path)], i))
			}
		case t.IsMatrix():
			for r := 0; r < t.Rows; r++ {
				for c := 0; c < t.Cols; c++ {
					walk(t.Elem, append(path[:len(path):len(path)], matPath(t, r, c)...))
				}
			}
		case t.Kind == hlsl.KindArray:
			for i := 0; i < t.Len; i++ {
				walk(t.Elem, append(path[:len(path):len(path)], i))
			}
		case t.Kind == hlsl.KindStruct:
			for i, f := range t.Struct.Fields {
				walk(f.Type, append(path[:len(path):len(path)], i))
			}
		}
	}
	walk(t, nil)
	return out
}

// build constructs a value of type t from leading scalar components
// (already of t's component types) and returns the unused rest.
func (fl *fnLowerer) build(t *hlsl.Type, comps []ir.Value) (ir.Value, []ir.Value) {
	switch {
	case t.IsScalar() || t.IsVector() && t.Len == 1:
		if len(comps) == 0 {
			return ir.ConstUndef(fl.irType(t)), nil
		}
		return comps[0], comps[1:]
	case t.IsVector():
		if len(comps) < t.Len {
			return ir.ConstUndef(fl.irType(t)), nil
		}
		return fl.construct(t, comps[:t.Len], "vec"), comps[t.Len:]
	case t.IsMatrix():
		rows := make([]ir.Value, t.Rows)
		for r := range rows {
			rows[r], comps = fl.build(rowType(t), comps)
		}
		return fl.construct(t, rows, "mat"), comps
	case t.Kind == hlsl.KindArray:
		el := make([]ir.Value, t.Len)
		for i := range el {
			el[i], comps = fl.build(t.Elem, comps)
		}
		return fl.construct(t, el, "arr"), comps
	case t.Kind == hlsl.KindStruct:
		el := make([]ir.Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			el[i], comps = fl.build(f.Type, comps)
		}
		return fl.construct(t, el, "struct"), comps
	}
	return ir.ConstUndef(fl.irType(t)), comps
}

// construct builds an aggregate from its elements: a constant when every
// element is one, else a construct instruction.
func (fl *fnLowerer) construct(t *hlsl.Type, el []ir.Value, name string) ir.Value {
	it := fl.irType(t)
	ks := make([]*ir.Const, len(el))
	for i, e := range el {
		k, ok := e.(*ir.Const)
		if !ok {
			return fl.b.Construct(it, el, name)
		}
		ks[i] = k
	}
	return aggregateConst(it, ks)
}

// mapRows applies f to the rows of matrix operands (all of the same
// shape) and builds a matrix of type to from the results.
func (fl *fnLowerer) mapRows(to *hlsl.Type, args []ir.Value, f func(rows []ir.Value) ir.Value) ir.Value {
	rows := make([]ir.Value, to.Rows)
	for r := range rows {
		ra := make([]ir.Value, len(args))
		for i, a := range args {
			if a.Type().Kind == ir.KMatrix {
				ra[i] = fl.b.ExtractValue(a, []int{r}, "row")
			} else {
				ra[i] = a
			}
		}
		rows[r] = f(ra)
	}
	return fl.construct(to, rows, "mat")
}

// fromMem converts a value loaded from buffer memory (column-major
// matrices transposed) to its logical form; toMem is the inverse.
func (fl *fnLowerer) fromMem(v ir.Value, t *hlsl.Type) ir.Value { return fl.memConvert(v, t, true) }

func (fl *fnLowerer) toMem(v ir.Value, t *hlsl.Type) ir.Value { return fl.memConvert(v, t, false) }

func (fl *fnLowerer) memConvert(v ir.Value, t *hlsl.Type, load bool) ir.Value {
	if !needsMemLayout(t) {
		return v
	}
	res := fl.irType(t)
	if !load {
		res = fl.memType(t)
	}
	switch t.Kind {
	case hlsl.KindMatrix:
		return fl.b.Intrinsic("transpose", res, []ir.Value{v}, "transpose")
	case hlsl.KindArray:
		el := make([]ir.Value, t.Len)
		for i := range el {
			el[i] = fl.memConvert(fl.b.ExtractValue(v, []int{i}, "elem"), t.Elem, load)
		}
		return fl.b.Construct(res, el, "arr")
	case hlsl.KindStruct:
		el := make([]ir.Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			el[i] = fl.memConvert(fl.b.ExtractValue(v, []int{i}, f.Name), f.Type, load)
		}
		return fl.b.Construct(res, el, "struct")
	}
	return v
}

// initList builds the value of a flattened initializer list of type t.
// Elements whose type is exactly the sub-value being filled are used
// whole; the others are split into scalar components as HLSL's
// flattening rule says.
func (fl *fnLowerer) initList(il *hlsl.InitList, t *hlsl.Type) ir.Value {
	cur := &initCursor{}
	for _, e := range il.Elems {
		cur.vals = append(cur.vals, fl.rv(e))
		cur.types = append(cur.types, e.Type())
	}
	fl.atNode(il)
	v := fl.initBuild(t, cur)
	if cur.failed {
		fl.errorf(il, "internal compiler error: initializer does not fit '%s'", t)
		return ir.ConstUndef(fl.irType(t))
	}
	return v
}

// initCursor walks the elements of an initializer list.
type initCursor struct {
	vals    []ir.Value
	types   []*hlsl.Type
	next    int        // next element not yet consumed
	pending []ir.Value // components of a partly consumed element
	pendT   []*hlsl.Type
	failed  bool
}

// initBuild builds a value of type t from the cursor's next components.
func (fl *fnLowerer) initBuild(t *hlsl.Type, cur *initCursor) ir.Value {
	if len(cur.pending) == 0 && cur.next < len(cur.vals) && hlsl.Identical(cur.types[cur.next], t) {
		cur.next++
		return cur.vals[cur.next-1]
	}
	switch {
	case t.IsScalar() || t.IsVector() && t.Len == 1:
		if len(cur.pending) == 0 {
			if cur.next >= len(cur.vals) {
				cur.failed = true
				return ir.ConstUndef(fl.irType(t))
			}
			v, vt := cur.vals[cur.next], cur.types[cur.next]
			cur.next++
			cur.pending = fl.flatten(v, vt)
			cur.pendT = vt.FlatScalars(nil)
			if len(cur.pending) == 0 {
				return fl.initBuild(t, cur)
			}
		}
		c, ct := cur.pending[0], cur.pendT[0]
		cur.pending, cur.pendT = cur.pending[1:], cur.pendT[1:]
		return fl.castScalar(c, ct, t.Scalar())
	case t.IsVector():
		el := make([]ir.Value, t.Len)
		for i := range el {
			el[i] = fl.initBuild(t.Elem, cur)
		}
		return fl.construct(t, el, "vec")
	case t.IsMatrix():
		el := make([]ir.Value, t.Rows)
		for i := range el {
			el[i] = fl.initBuild(rowType(t), cur)
		}
		return fl.construct(t, el, "mat")
	case t.Kind == hlsl.KindArray:
		el := make([]ir.Value, t.Len)
		for i := range el {
			el[i] = fl.initBuild(t.Elem, cur)
		}
		return fl.construct(t, el, "arr")
	case t.Kind == hlsl.KindStruct:
		el := make([]ir.Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			el[i] = fl.initBuild(f.Type, cur)
		}
		return fl.construct(t, el, "struct")
	}
	cur.failed = true
	return ir.ConstUndef(fl.irType(t))
}
