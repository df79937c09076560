// Command hlslgen writes a large generated HLSL compute shader (see package
// passlens/bench/hlslgen) for benchmarks.
//
//	go run ./bench/hlslgen/cmd/hlslgen -lines 50000 -seed 1 -o big.hlsl
package main

import (
	"flag"
	"fmt"
	"os"

	"passlens/bench/hlslgen"
)

func main() {
	lines := flag.Int("lines", hlslgen.Default.Lines, "approximate number of lines")
	seed := flag.Uint64("seed", hlslgen.Default.Seed, "program seed")
	out := flag.String("o", "", "output file (default standard output)")
	idx := flag.Bool("index-in-switch", false, "allow dynamically indexed arrays in switch cases (reproduces a switch-to-if pointer-phi bug)")
	flag.Parse()
	if *lines <= 0 || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: hlslgen [-lines N] [-seed S] [-o FILE]")
		os.Exit(2)
	}
	src, st := hlslgen.Generate(hlslgen.Config{Lines: *lines, Seed: *seed, IndexInSwitch: *idx})
	var err error
	if *out == "" {
		_, err = os.Stdout.Write(src)
	} else {
		err = os.WriteFile(*out, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hlslgen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "hlslgen: %d lines, %d functions, %d loops, %d switches, %d wave ops\n",
		st.Lines, st.Functions, st.Loops, st.Switches, st.WaveOps)
}
