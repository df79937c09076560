package analysis_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"passlens/compiler/analysis"
	"passlens/compiler/analysis/analysistest"
	"passlens/compiler/graph"
	"strconv"
	"strings"
	"testing"
)

// benchBlocks is the size of the benchmark CFGs.
const benchBlocks = 100000

// benchShapes are the 100k-block graphs of the benchmarks: random
// reducible and irreducible CFGs, a program-like CFG with mostly short
// forward edges (deep dominator tree), a long chain and 50k nested loops.
var benchShapes = []struct {
	name  string
	shape analysistest.Shape
}{
	{"reducible", analysistest.ShapeReducible},
	{"irreducible", analysistest.ShapeIrreducible},
	{"local", analysistest.ShapeLocal},
	{"chain", analysistest.ShapeChain},
	{"nested", analysistest.ShapeNested},
}

// benchFunc returns the deterministic benchmark function of a shape; the
// same function is written by TestCFGFile for the comparison with opt-22.
func benchFunc(shape analysistest.Shape, blocks int) *analysistest.Func {
	rng := rand.New(rand.NewPCG(2026, uint64(shape)))
	return analysistest.RandomFunc(rng, "bench", analysistest.RandOptions{Blocks: blocks, Shape: shape})
}

func benchAnalysis(b *testing.B, run func(*analysis.Graph)) {
	for _, s := range benchShapes {
		g := benchFunc(s.shape, benchBlocks).Graph
		b.Run(fmt.Sprintf("%s-%dk", s.name, benchBlocks/1000), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				run(g)
			}
		})
	}
}

func BenchmarkDominators(b *testing.B) {
	benchAnalysis(b, func(g *analysis.Graph) { analysis.Dominators(g) })
}

func BenchmarkPostDominators(b *testing.B) {
	benchAnalysis(b, func(g *analysis.Graph) { analysis.PostDominators(g) })
}

func BenchmarkCycles(b *testing.B) {
	benchAnalysis(b, func(g *analysis.Graph) { analysis.Cycles(g) })
}

func BenchmarkDepthFirst(b *testing.B) {
	benchAnalysis(b, func(g *analysis.Graph) { graph.DepthFirst(g) })
}

// shapeByName maps PASSLENS_CFG_SHAPE values to shapes.
func shapeByName(name string) (analysistest.Shape, bool) {
	for _, s := range benchShapes {
		if s.name == name {
			return s.shape, true
		}
	}
	return 0, false
}

// TestCFGFile is the passlens side of bench/cfg.sh. It does nothing unless
// one of these environment variables is set:
//
//	PASSLENS_CFG_WRITE=f.ll  write the benchmark function as IR (shape
//	                         PASSLENS_CFG_SHAPE, default "local"; size
//	                         PASSLENS_CFG_BLOCKS, default 100000)
//	PASSLENS_CFG_FILE=f.ll   read IR, run the analyses listed in
//	                         PASSLENS_CFG_PASSES (comma-separated domtree,
//	                         postdomtree, cycles; default domtree) and print
//	                         them to stderr exactly as opt-22's print<...>
//	                         passes do; with PASSLENS_CFG_PRINT=0 only
//	                         compute them (like opt's require<...>)
//
// so that a compiled test binary can be timed whole-process against opt-22.
func TestCFGFile(t *testing.T) {
	if path := os.Getenv("PASSLENS_CFG_WRITE"); path != "" {
		shape, ok := shapeByName(envOr("PASSLENS_CFG_SHAPE", "local"))
		if !ok {
			t.Fatalf("unknown PASSLENS_CFG_SHAPE %q", os.Getenv("PASSLENS_CFG_SHAPE"))
		}
		blocks, err := strconv.Atoi(envOr("PASSLENS_CFG_BLOCKS", strconv.Itoa(benchBlocks)))
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := analysistest.WriteLL(f, []*analysistest.Func{benchFunc(shape, blocks)}, nil); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	path := os.Getenv("PASSLENS_CFG_FILE")
	if path == "" {
		return
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	funcs, err := analysistest.ReadLL(src)
	if err != nil {
		t.Fatal(err)
	}
	print := envOr("PASSLENS_CFG_PRINT", "1") != "0"
	w := bufio.NewWriterSize(os.Stderr, 1<<20)
	for _, f := range funcs {
		for _, p := range strings.Split(envOr("PASSLENS_CFG_PASSES", "domtree"), ",") {
			switch p {
			case "domtree", "postdomtree":
				var dt *analysis.DomTree
				if p == "domtree" {
					dt = analysis.Dominators(f.Graph)
				} else {
					dt = analysis.PostDominators(f.Graph)
				}
				if print {
					err = analysis.WriteDomTree(w, f.Name, f.Graph, dt)
				}
			case "cycles":
				ci := analysis.Cycles(f.Graph)
				if print {
					err = analysis.WriteCycles(w, f.Name, f.Graph, ci)
				}
			default:
				t.Fatalf("unknown pass %q", p)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
