package hlsl

// Overload ranking of user functions, as DXC ranks them
// (tools/clang/lib/Sema/SemaHLSL.cpp: HLSLExternalSource::ScoreCast,
// ScoreFunction, GetBestViableFunction; docs/hlsl-rules.md, over.rank).
//
// Every argument's conversion gets a score made of flags, each flag a
// weight 128 times the one below it (so no number of arguments carries
// into the next one): from the cheapest, a splat (the parameter has more
// components than the argument), a promotion, a signed/unsigned change
// of the parameter's or of the argument's side, a conversion between
// kinds (int/float/bool) on either side, and last a truncation (the
// parameter has fewer components). An out or inout parameter adds the
// score of the conversion back. A candidate's score is the sum over its
// arguments; the lowest wins, and two candidates sharing the lowest score
// make the call ambiguous. Unlike C++, the comparison is of sums, not
// argument by argument, and types of the same shape and component kind
// (float and float1, float4 and float2x2) score the same.

const (
	scoreSplat   = 0
	scoreLInt    = 3
	scoreRInt    = 4
	scoreLCast   = 5
	scoreRCast   = 6
	scoreTrunc   = 7
	scoreMinBits = 2
	scoreStep    = 7
)

func scoreFlag(level int) uint64 { return 1 << (scoreMinBits + scoreStep*level) }

// conversionScore is DXC's score of converting an argument of type from
// (an untyped literal when literal) to a parameter of type to.
func conversionScore(from, to *Type, literal bool) uint64 {
	if Identical(from, to) || from.IsError() || to.IsError() {
		return 0
	}
	var s uint64
	nf, nt := from.ComponentCount(), to.ComponentCount()
	if nt > nf {
		s += scoreFlag(scoreSplat)
	}
	if nt < nf {
		s += scoreFlag(scoreTrunc)
	}
	if !from.IsNumeric() || !to.IsNumeric() {
		return s
	}
	r, l := from.Scalar().Kind, to.Scalar().Kind
	if r == l {
		return s
	}
	c := combinedKind(l, r, literal)
	side := func(a, b Kind, intFlag, castFlag int) {
		switch {
		case a == b:
		case literal && b == r && a != KindBool && (a == KindFloat) == (r == KindFloat):
			// A literal takes any type of its family without cost
			// (IsCast/IsIntCast exempt LITERAL_INT and LITERAL_FLOAT).
		case isIntKind(a) && isIntKind(b):
			s += scoreFlag(intFlag)
		default:
			s += scoreFlag(castFlag)
		}
	}
	side(l, c, scoreLInt, scoreLCast)
	side(c, r, scoreRInt, scoreRCast)
	return s
}

func isIntKind(k Kind) bool { return k == KindInt || k == KindUint }

// combinedKind is the component kind DXC combines a parameter's (l) and
// an argument's (r) kinds to before flagging each side's cast
// (CombineBasicTypes): float if either is float, else unsigned if either
// is, else int; bool only with bool. An untyped literal argument takes
// the parameter's kind within its family (int literal to uint stays
// uint; float literal to float).
func combinedKind(l, r Kind, literal bool) Kind {
	switch {
	case l == r:
		return l
	case l == KindFloat || r == KindFloat:
		return KindFloat
	case literal && isIntKind(l):
		return l
	case l == KindUint || r == KindUint:
		return KindUint
	case l == KindBool:
		return r
	}
	return KindInt
}
