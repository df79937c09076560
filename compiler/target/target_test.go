package target_test

import (
	"context"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all"
)

// The back ends refuse a module that does not verify, even when the
// pipeline ran without the verifier (--verify-each=false).
func TestEmitRefusesUnverifiedModule(t *testing.T) {
	for _, tgt := range []target.Name{target.SPIRV, target.DXIL} {
		m, _, err := load.File("samples/add-mul", load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		spec, err := pipeline.Default(tgt)
		if err != nil {
			t.Fatal(err)
		}
		res := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: tgt})
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if _, err := target.Emit(tgt, m); err != nil {
			t.Fatalf("%s: a valid module: %v", tgt, err)
		}
		if !breakModule(m) {
			t.Fatalf("%s: no instruction with a result to remove", tgt)
		}
		if ir.Verify(m) == nil {
			t.Fatalf("%s: the broken module verifies", tgt)
		}
		out, err := target.Emit(tgt, m)
		if err == nil || !strings.Contains(err.Error(), "does not verify") {
			t.Fatalf("%s: Emit of a broken module = %v, %v", tgt, out, err)
		}
		if _, err := target.Emit(target.PIR, m); err != nil {
			t.Fatalf("pir: the IR text of a broken module is still printable: %v", err)
		}
	}
}

// breakModule removes the first instruction whose result is used, leaving
// its uses dangling (what a buggy pass does).
func breakModule(m *ir.Module) bool {
	used := map[ir.Value]bool{}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				for _, a := range in.Args {
					used[a] = true
				}
			}
		}
	}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if used[in] && in.Op != ir.OpPhi && in.Op != ir.OpAlloca {
					in.Remove()
					return true
				}
			}
		}
	}
	return false
}
