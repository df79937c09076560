// Command dumpgen writes a large LLVM pass log (see package dumpgen).
//
//	go run ./bench/dumpgen/cmd -size 500M > big.log
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"passlens/bench/dumpgen"
)

func main() {
	size := flag.String("size", "500M", "approximate size (K, M, G suffixes)")
	funcs := flag.Int("funcs", 0, "functions in the module (default 400)")
	flag.Parse()
	n, err := parseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dumpgen:", err)
		os.Exit(2)
	}
	if err := dumpgen.Write(os.Stdout, dumpgen.Options{Size: n, Funcs: *funcs}); err != nil {
		fmt.Fprintln(os.Stderr, "dumpgen:", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mul := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mul, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mul, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mul, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n * mul, nil
}
