package dxil

import (
	"fmt"
	"testing"
)

func TestScratchDump(t *testing.T) {
	m := loadHLSL(t, "../../../samples/structs-arrays.hlsl")
	fmt.Println(m.String()[:1500])
}
