package ir

// Access for the external tests (package ir_test), which use the random
// module generator of ir/irtest (an internal test cannot import it: irtest
// imports ir).

var (
	PrintLocs     = printLocs
	FirstDiff     = firstDiff
	CheckDisjoint = checkDisjoint
	RoundTrip     = roundTrip
)

// VerifierCFG is the verifier's view of one function's control flow.
type VerifierCFG struct{ v *verifier }

// NewVerifierCFG computes the verifier's CFG facts for f, a function of m.
func NewVerifierCFG(m *Module, f *Function) VerifierCFG {
	v := newVerifier(m)
	v.f = f
	v.blockIdx = map[*Block]int32{}
	for i, b := range f.Blocks {
		v.blockIdx[b] = int32(i)
	}
	v.cfg()
	return VerifierCFG{v}
}

// Index returns the index of block b.
func (c VerifierCFG) Index(b *Block) int32 { return c.v.blockIdx[b] }

// Reachable reports whether block b is reachable from the entry.
func (c VerifierCFG) Reachable(b int32) bool { return c.v.reachable(b) }

// Dominates reports whether block a dominates block b (both reachable).
func (c VerifierCFG) Dominates(a, b int32) bool { return c.v.dominates(a, b) }

// FreshCFG builds f's CFG without the cache; SameCFG compares two.
var (
	FreshCFG = fresh
	SameCFG  = sameCFG
)
