package ir_test

import (
	"passlens/compiler/ir"
	"passlens/compiler/ir/irtest"
	"sync"
	"testing"
)

var (
	bigOnce sync.Once
	bigMod  *ir.Module
	bigText []byte
)

// bigModule is a random module of at least 100k instructions.
func bigModule(tb testing.TB) (*ir.Module, []byte) {
	bigOnce.Do(func() {
		bigMod = irtest.RandomModule(7, irtest.RandomOptions{Funcs: 12, Blocks: 950, Instrs: 12, Unstructured: true})
		bigText = []byte(bigMod.String())
	})
	n := 0
	for _, f := range bigMod.Funcs {
		n += f.NumInstrs()
	}
	if n < 100_000 {
		tb.Fatalf("big module has only %d instructions", n)
	}
	return bigMod, bigText
}

func BenchmarkParse100k(b *testing.B) {
	_, text := bigModule(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ir.ParseModule("big.pir", text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPrint100k(b *testing.B) {
	m, text := bigModule(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		_ = m.String()
	}
}

func BenchmarkVerify100k(b *testing.B) {
	m, _ := bigModule(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := ir.Verify(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClone100k(b *testing.B) {
	m, _ := bigModule(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = ir.CloneModule(m)
	}
}
