package lowertest

import (
	"os"
	"strconv"
	"testing"
)

func TestDumpGen(t *testing.T) {
	seed, _ := strconv.Atoi(os.Getenv("SEED"))
	os.WriteFile(os.Getenv("OUT"), []byte(genHLSL(uint64(seed))), 0o644)
}
